// AllPairs (zip-reduce): one launch per device part of A, over all of B.
#include "skelcl/AllPairsSkeleton.h"

#include <fmt/format.h>

namespace lift::skelcl {

std::string allPairsProgram(UserFunction zip, UserFunction reduce, const std::string& identity) {
  zip.name = "zipped";
  reduce.name = "reduced";
  return fmt::format(
      "size N, M, D;\n{}\n{}\nfun skelcl_allpairs(A: [[{}]D]N, B: [[{}]M]D) =\n"
      "  mapGlb1(fun(a => join o mapGlb0(fun(b =>\n"
      "    toGlobal(mapSeq(id)) o reduceSeq(fun((acc, x, y) => reduced(acc, zipped(x, y))), {}) $ zip(a, b)\n"
      "  )) $ transpose(B))) $ A\n",
      zip.liftText(), reduce.liftText(), zip.paramTypes[0], zip.paramTypes[1], identity);
}

std::string allPairsSearchProgram(UserFunction zip, UserFunction reduce, const std::string& identity) {
  zip.name = "zipped";
  reduce.name = "reduced";
  return fmt::format(
      "size N, M, D;\n{}\n{}\nfun skelcl_allpairs(A: [[{}]D]N, B: [[{}]M]D) =\n"
      "  map(fun(a => map(fun(b => reduce(reduced, {}) o map(zipped) $ zip(a, b))) $ transpose(B))) $ A\n",
      zip.liftText(), reduce.liftText(), zip.paramTypes[0], zip.paramTypes[1], identity);
}

AllPairsSkeleton::AllPairsSkeleton(const std::string& what, UserFunction zip, UserFunction reduce,
                                   const std::string& identity)
    : what_(what),
      kernel_(std::make_unique<SkeletonKernel>(allPairsProgram(zip, reduce, identity), what)),
      stored_(std::make_unique<StoredKernels>(allPairsSearchProgram(zip, reduce, identity), what)) {}

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
    if (!stored_->enqueue(devices, parts[i].device, sizes, {a.buffer(i), right}, c.buffer(i)))
      kernel_->enqueue(devices, parts[i].device, {a.buffer(i), right, c.buffer(i)}, sizes);
  }
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  c.markWrittenOnDevices();
}

}  // namespace lift::skelcl
