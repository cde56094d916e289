// ZipReduce: one fused launch per device part (and one for its leftover pairs), the partial
// results folded on the device, the devices' results combined on the host.
#include "skelcl/ZipReduceSkeleton.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

std::string zipReduceProgram(UserFunction zip, UserFunction reduce, const std::string& identity,
                             bool coalesced) {
  zip.name = "zipped";
  reduce.name = "reduced";
  return fmt::format(
      "size G, C;\n{}\n{}\nfun skelcl_zipreduce(x: [{}]G*C, y: [{}]G*C) =\n"
      "  join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(fun((acc, x, y) => reduced(acc, zipped(x, y))), "
      "{}))\n"
      "  o {} $ zip(x, y)\n",
      zip.liftText(), reduce.liftText(), zip.paramTypes[0], zip.paramTypes[1], identity,
      coalesced ? "transpose o split(G)" : "split(C)");
}

std::string zipReduceSearchProgram(UserFunction zip, UserFunction reduce, const std::string& identity) {
  zip.name = "zipped";
  reduce.name = "reduced";
  return fmt::format(
      "size N;\n{}\n{}\nfun skelcl_zipreduce(x: [{}]N, y: [{}]N) =\n"
      "  reduce(reduced, {}) o map(zipped) $ zip(x, y)\n",
      zip.liftText(), reduce.liftText(), zip.paramTypes[0], zip.paramTypes[1], identity);
}

ZipReduceSkeleton::ZipReduceSkeleton(const std::string& what, UserFunction zip, UserFunction reduce,
                                     runtime::ScalarType type, const std::string& identity)
    : what_(what),
      finish_(what, reduce, type, identity),
      coalesced_(std::make_unique<SkeletonKernel>(zipReduceProgram(zip, reduce, identity, true), what)),
      chunked_(std::make_unique<SkeletonKernel>(zipReduceProgram(zip, reduce, identity, false), what)),
      stored_(std::make_unique<StoredKernels>(zipReduceSearchProgram(zip, reduce, identity), what)) {}

cfun::Scalar ZipReduceSkeleton::run(const ContainerStorage& left, const ContainerStorage& right) const {
  if (right.devices() != left.devices())
    throw LiftError(fmt::format("{}: the inputs live on different device sets", what_));
  if (right.rows() != left.rows() || right.rowLength() != left.rowLength())
    throw LiftError(fmt::format("{}: input 2 has {}x{} elements, input 1 has {}x{}", what_, right.rows(),
                                right.rowLength(), left.rows(), left.rowLength()));
  const Distribution d = left.distribution().value_or(right.distribution().value_or(Distribution::block()));
  left.prepareOnDevices(d);
  right.prepareOnDevices(d);
  DeviceSet& devices = *left.devices();
  const std::vector<Part>& parts = left.parts();
  const bool copies = d.kind() == Distribution::Kind::Copy;
  const size_t leftBytes = left.elementBytes(), rightBytes = right.elementBytes();
  std::vector<ReduceSkeleton::DeviceResult> results;
  for (size_t i = 0; i < parts.size() && !(copies && i > 0); ++i) {
    const int device = parts[i].device;
    runtime::DeviceContext& ctx = devices.context(device);
    const bool coalesced =
        form_ == ZipReduceForm::Auto ? ctx.device().info().type == "GPU" : form_ == ZipReduceForm::Coalesced;
    SkeletonKernel& kernel = coalesced ? *coalesced_ : *chunked_;
    // The part's own elements (an overlap part's halo excluded): G work-items fold C pairs each,
    // then one work-item each of the fewer than G pairs left.
    const size_t offset = (parts[i].begin - parts[i].storedBegin) * left.rowLength();
    const size_t count = parts[i].rows() * left.rowLength();
    if (count == 0) continue;
    if (offset != 0)  // the stored kernels read from the buffer's start
      stored_->ranOwnKernel();
    else if (StoredKernel* stored = stored_->find(devices, device, {{"N", static_cast<int64_t>(count)}})) {
      cl::Buffer result;
      devices.guarded(device, "allocating the result of " + what_, [&] {
        result = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, runtime::sizeOf(finish_.type()));
      });
      stored->enqueue(devices, device, {left.buffer(i), right.buffer(i)}, result);
      results.push_back({device, result});
      continue;
    }
    const size_t groups = std::min(count, coalesced ? kMaxGpuWorkItems : ReduceSkeleton::kMaxChunks);
    const size_t chunk = count / groups;
    auto fold = [&](size_t from, size_t g, size_t c) {
      cl::Buffer x = left.buffer(i), y = right.buffer(i), partials;
      devices.guarded(device, "allocating the partial results of " + what_, [&] {
        if (offset + from != 0) {  // the kernel reads from element 0: copy the pairs it folds
          x = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, g * c * leftBytes);
          y = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, g * c * rightBytes);
          ctx.queue().enqueueCopyBuffer(left.buffer(i), x, (offset + from) * leftBytes, 0, g * c * leftBytes);
          ctx.queue().enqueueCopyBuffer(right.buffer(i), y, (offset + from) * rightBytes, 0,
                                        g * c * rightBytes);
        }
        partials = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, g * runtime::sizeOf(finish_.type()));
      });
      kernel.enqueue(devices, device, {x, y, partials},
                     {{"G", static_cast<int64_t>(g)}, {"C", static_cast<int64_t>(c)}});
      results.push_back({device, finish_.reduceOnDevice(devices, device, partials, 0, g)});
    };
    fold(0, groups, chunk);
    if (count > groups * chunk) fold(groups * chunk, count - groups * chunk, 1);
  }
  return finish_.combineOnHost(devices, results);
}

}  // namespace lift::skelcl
