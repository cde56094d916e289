// Map over an index matrix: per device part, its rows' and the columns' numbers uploaded, one
// kernel launch.
#include "skelcl/IndexMapSkeleton.h"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

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
  std::vector<int> columns(index.columns());
  std::iota(columns.begin(), columns.end(), 0);
  // The host vectors live until the devices are done with their uploads.
  std::vector<std::vector<int>> rows(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    runtime::DeviceContext& ctx = devices.context(p.device);
    rows[i].resize(p.storedRows());
    std::iota(rows[i].begin(), rows[i].end(), static_cast<int>(p.storedBegin));
    cl::Buffer rowBuffer, columnBuffer;
    devices.guarded(p.device, "uploading the indices of " + what_, [&] {
      rowBuffer = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, rows[i].size() * sizeof(int));
      columnBuffer = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, columns.size() * sizeof(int));
      ctx.queue().enqueueWriteBuffer(rowBuffer, CL_FALSE, 0, rows[i].size() * sizeof(int), rows[i].data());
      ctx.queue().enqueueWriteBuffer(columnBuffer, CL_FALSE, 0, columns.size() * sizeof(int), columns.data());
    });
    const arith::Env sizes{{"R", static_cast<int64_t>(rows[i].size())},
                           {"C", static_cast<int64_t>(columns.size())}};
    if (!stored_->enqueue(devices, p.device, sizes, {rowBuffer, columnBuffer}, output.buffer(i)))
      kernel_->enqueue(devices, p.device, {rowBuffer, columnBuffer, output.buffer(i)}, sizes);
  }
  // The devices work in parallel; wait for all of them.
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  output.markWrittenOnDevices();
}

}  // namespace lift::skelcl
