// Reduce: two launches per device, the devices' results combined on the host.
#include "skelcl/ReduceSkeleton.h"

#include <fmt/format.h>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

std::string reduceProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G, C;\n{}\nfun skelcl_reduce(x: [{}]G*C) =\n"
      "  join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq({}, {})) o split(C) $ x\n",
      f.liftText(), f.returnType, f.name, identity);
}

std::string reduceSearchProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format("size N;\n{}\nfun skelcl_reduce(x: [{}]N) = reduce({}, {}) $ x\n", f.liftText(),
                     f.returnType, f.name, identity);
}

ReduceSkeleton::ReduceSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
                               const std::string& identity)
    : ReduceSkeleton(what,
                     parseUserFunction(source, what, runtime::toString(type),
                                       {runtime::toString(type), runtime::toString(type)}),
                     type, identity) {}

ReduceSkeleton::ReduceSkeleton(const std::string& what, UserFunction f, runtime::ScalarType type,
                               const std::string& identity)
    : what_(what), type_(type), operator_(what, type, identity), function_(std::move(f)) {
  kernel_ = std::make_unique<SkeletonKernel>(reduceProgram(function_, operator_.identityLiteral()), what);
  stored_ =
      std::make_unique<StoredKernels>(reduceSearchProgram(function_, operator_.identityLiteral()), what);
  operator_.setFunction(kernel_->program().userFuns.front());
}

cl::Buffer ReduceSkeleton::reduceOnDevice(DeviceSet& devices, int device, const cl::Buffer& buffer,
                                          size_t offset, size_t count) const {
  const size_t bytes = runtime::sizeOf(type_);
  runtime::DeviceContext& ctx = devices.context(device);
  if (offset != 0)  // the stored kernels read from the buffer's start
    stored_->ranOwnKernel();
  else if (StoredKernel* stored = stored_->find(devices, device, {{"N", static_cast<int64_t>(count)}})) {
    cl::Buffer result;
    devices.guarded(device, "allocating the result of " + what_,
                    [&] { result = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes); });
    stored->enqueue(devices, device, {buffer}, result);
    return result;
  }
  size_t chunks = std::min(count, kMaxChunks);
  const size_t chunk = (count + chunks - 1) / chunks;
  chunks = (count + chunk - 1) / chunk;
  cl::Buffer input = buffer;
  if (offset != 0 || chunks * chunk != count) {
    devices.guarded(device, "padding the input of " + what_, [&] {
      input = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, chunks * chunk * bytes);
      ctx.queue().enqueueCopyBuffer(buffer, input, offset * bytes, 0, count * bytes);
      operator_.fillWithIdentity(ctx.queue(), input, count * bytes, (chunks * chunk - count) * bytes);
    });
  }
  cl::Buffer partials, result;
  devices.guarded(device, "allocating the results of " + what_, [&] {
    partials = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, chunks * bytes);
    result = chunks == 1 ? partials : cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  });
  auto size = [](size_t v) { return static_cast<int64_t>(v); };
  kernel_->enqueue(devices, device, {input, partials}, {{"G", size(chunks)}, {"C", size(chunk)}});
  if (chunks > 1) kernel_->enqueue(devices, device, {partials, result}, {{"G", 1}, {"C", size(chunks)}});
  return result;
}

cfun::Scalar ReduceSkeleton::run(const ContainerStorage& in) const {
  in.prepareOnDevices(in.distribution().value_or(Distribution::block()));
  DeviceSet& devices = *in.devices();
  const std::vector<Part>& parts = in.parts();
  const bool copies = in.distribution()->kind() == Distribution::Kind::Copy;
  std::vector<DeviceResult> results;
  for (size_t i = 0; i < parts.size() && !(copies && i > 0); ++i) {
    const Part& p = parts[i];
    results.push_back(
        {p.device, reduceOnDevice(devices, p.device, in.buffer(i), (p.begin - p.storedBegin) * in.rowLength(),
                                  p.rows() * in.rowLength())});
  }
  return combineOnHost(devices, results);
}

cfun::Scalar ReduceSkeleton::combineOnHost(DeviceSet& devices,
                                           const std::vector<DeviceResult>& results) const {
  cfun::Scalar acc = operator_.identity();
  for (size_t i = 0; i < results.size(); ++i) {
    cfun::Scalar part{};
    devices.guarded(results[i].device, "reading the result of " + what_, [&] {
      devices.context(results[i].device)
          .queue()
          .enqueueReadBuffer(results[i].buffer, CL_TRUE, 0, runtime::sizeOf(type_), &part);
    });
    acc = i == 0 ? part : operator_.combine(acc, part);
  }
  return acc;
}

}  // namespace lift::skelcl
