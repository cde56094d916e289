// AllPairs: one launch per device part of A, over all of B.
#include "skelcl/AllPairsSkeleton.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace lift::skelcl {

AllPairsSkeleton::AllPairsSkeleton(const std::string& what, const AllPairsFunction& f,
                                   const AllPairsTypes& types)
    : AllPairsSkeleton(what, makeAllPairsProgram(what, f, types)) {}

AllPairsSkeleton::AllPairsSkeleton(const std::string& what, AllPairsProgram program)
    : what_(what),
      kernelText_(std::move(program.kernelText)),
      kernel_(std::make_unique<SkeletonKernel>(std::move(program.kernel), std::move(program.compiled), what)),
      stored_(std::make_unique<StoredKernels>(program.searchText, what)) {
  if (std::optional<AllPairsTiledKernel> tiled = tiledZipReduceKernel(program.search))
    tiled_ = std::make_unique<SkeletonKernel>(std::move(tiled->program), std::move(tiled->compiled), what);
}

bool AllPairsSkeleton::tilesFit(DeviceSet& devices, int device, const arith::Env& sizes) const {
  if (!tiled_ || tiles_ == LocalTiles::Nowhere) return false;
  if (tiles_ == LocalTiles::OnGpus && devices.context(device).device().info().type != "GPU") return false;
  return std::all_of(sizes.begin(), sizes.end(), [](const auto& size) {
    return size.second > 0 && size.second % AllPairsTiledKernel::kTile == 0;
  });
}

void AllPairsSkeleton::run(const ContainerStorage& a, const ContainerStorage& b, ContainerStorage& c) const {
  if (a.devices() != b.devices())
    throw LiftError(fmt::format("{}: the matrices live on different device sets", what_));
  if (a.rowLength() != b.rows())
    throw LiftError(fmt::format("{}: the left matrix is {}x{}, so the right one needs {} rows, not {}", what_,
                                a.rows(), a.rowLength(), a.rowLength(), b.rows()));
  // B must be copied everywhere; when B is A, so is A.
  const Distribution d = &a == &b ? Distribution::copy() : a.distribution().value_or(Distribution::block());
  a.prepareOnDevices(d);
  b.prepareOnDevices(Distribution::copy());
  c.allocateOnDevices(d);

  DeviceSet& devices = *a.devices();
  const std::vector<Part>& parts = c.parts();
  const auto size = [](size_t v) { return static_cast<int64_t>(v); };
  for (size_t i = 0; i < parts.size(); ++i) {
    // B's copies are in device order, and a part of A is on device parts[i].device.
    const cl::Buffer& right = b.buffer(static_cast<size_t>(parts[i].device));
    const arith::Env sizes{
        {"N", size(parts[i].storedRows())}, {"M", size(b.rowLength())}, {"D", size(a.rowLength())}};
    if (stored_->enqueue(devices, parts[i].device, sizes, {a.buffer(i), right}, c.buffer(i))) continue;
    if (tilesFit(devices, parts[i].device, sizes)) {
      arith::Env tiles;  // the tiled kernel's sizes count tiles
      for (const auto& [name, value] : sizes) tiles[name] = value / AllPairsTiledKernel::kTile;
      tiled_->enqueue(devices, parts[i].device, {a.buffer(i), right, c.buffer(i)}, tiles);
    } else {
      kernel_->enqueue(devices, parts[i].device, {a.buffer(i), right, c.buffer(i)}, sizes);
    }
  }
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  c.markWrittenOnDevices();
}

}  // namespace lift::skelcl
