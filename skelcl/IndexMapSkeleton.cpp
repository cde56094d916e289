// Map over an index matrix: per device part, its rows' and the columns' numbers (uploaded once and
// kept), one kernel launch.
#include "skelcl/IndexMapSkeleton.h"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {
constexpr size_t kKeptIndexBuffers = 64;
}

cl::Buffer IndexMapSkeleton::indices(DeviceSet& devices, int device, size_t first, size_t count) const {
  runtime::DeviceContext& ctx = devices.context(device);
  const IndexKey key{ctx.context()(), first, count};
  {
    std::lock_guard lock(indicesMutex_);
    auto it = indices_.find(key);
    if (it != indices_.end()) return it->second;
  }
  std::vector<int> numbers(count);
  std::iota(numbers.begin(), numbers.end(), static_cast<int>(first));
  cl::Buffer b;
  devices.guarded(device, "uploading the indices of " + what_, [&] {
    b = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, count * sizeof(int));
    ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, count * sizeof(int), numbers.data());
  });
  std::lock_guard lock(indicesMutex_);
  if (indices_.size() >= kKeptIndexBuffers) indices_.clear();
  indices_.emplace(key, b);
  return b;
}

std::string indexMapProgram(const UserFunction& f, bool lowered) {
  return fmt::format(
      "size R, C;\n{}\nfun skelcl_index_map(rows: [int]R, columns: [int]C) =\n"
      "  {}(fun(r => {}(fun(c => {}(r, c))) $ columns)) $ rows\n",
      f.liftText(), lowered ? "mapGlb1" : "map", lowered ? "mapGlb0" : "map", f.name);
}

IndexMapSkeleton::IndexMapSkeleton(const std::string& what, const std::string& source,
                                   const std::string& returnType)
    : what_(what),
      function_(parseUserFunction(source, what, returnType, {"int", "int"})),
      kernel_(std::make_unique<SkeletonKernel>(indexMapProgram(function_), what)),
      stored_(std::make_unique<StoredKernels>(indexMapProgram(function_, false), what)) {}

void IndexMapSkeleton::run(const IndexMatrix& index, ContainerStorage& output) const {
  if (index.devices() != output.devices())
    throw LiftError(fmt::format("{}: the output lives on another device set than the index matrix", what_));
  if (index.rows() != output.rows() || index.columns() != output.rowLength())
    throw LiftError(fmt::format("{}: the output has {}x{} elements, the index matrix {}x{}", what_,
                                output.rows(), output.rowLength(), index.rows(), index.columns()));
  output.allocateOnDevices(index.distribution());
  if (output.elementCount() == 0) {
    output.markWrittenOnDevices();
    return;
  }
  DeviceSet& devices = *index.devices();
  const std::vector<Part>& parts = output.parts();
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    cl::Buffer rowBuffer = indices(devices, p.device, p.storedBegin, p.storedRows());
    cl::Buffer columnBuffer = indices(devices, p.device, 0, index.columns());
    const arith::Env sizes{{"R", static_cast<int64_t>(p.storedRows())},
                           {"C", static_cast<int64_t>(index.columns())}};
    if (!stored_->enqueue(devices, p.device, sizes, {rowBuffer, columnBuffer}, output.buffer(i)))
      kernel_->enqueue(devices, p.device, {rowBuffer, columnBuffer, output.buffer(i)}, sizes);
  }
  // The devices work in parallel; wait for all of them.
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  output.markWrittenOnDevices();
}

}  // namespace lift::skelcl
