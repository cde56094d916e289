// ZipReduceSkeleton: the untyped implementation of ZipReduce — two containers of the same shape
// combined pairwise by a zip function and the results folded by an associative reduce function
// with its identity, in one fused kernel: the zip's results are never stored. Each device folds
// its own elements (G*C of them, then the fewer than G left over) with G work-items,
//   join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(fun((acc, x, y) => reduced(acc, zipped(x, y))), z))
//        o split(C) $ zip(x, y)                  (CPUs: each work-item's C pairs contiguous)
//        o transpose o split(G) $ zip(x, y)      (GPUs: work-item g reads pairs g, g + G, ...: coalesced)
// G at most 1024 on CPUs and 65536 on GPUs; the G partial results are folded on the device by
// Reduce's program (ReduceSkeleton), and the devices' results combined on the host. When the
// device set has a result store holding kernels of the skeleton's high-level program
//   reduce(reduced, z) o map(zipped) $ zip(x, y)       (x: [A]N, y: [B]N)
// (`liftc explore` on storedKernels().liftText()) for a part's size N on its device, the best
// of them computes that part instead (StoredKernel.h): a tuned kernel, derived by the explorer.
#pragma once

#include <memory>
#include <string>

#include "skelcl/ContainerStorage.h"
#include "skelcl/ReduceSkeleton.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

// How the fused kernel's work-items read: each a contiguous chunk, or neighbours neighbouring
// pairs (coalesced); Auto: coalesced on GPUs, chunks elsewhere.
enum class ZipReduceForm { Auto, Chunks, Coalesced };

class ZipReduceSkeleton {
 public:
  // `zip` combines an element of each input, `reduce` (with `identity`, a .lift literal, of type
  // `type`) folds the results.
  ZipReduceSkeleton(const std::string& what, UserFunction zip, UserFunction reduce, runtime::ScalarType type,
                    const std::string& identity);

  // reduce(zip(left, right)): the identity for empty containers. The inputs take the
  // distribution of the first that has one (block when none has), as Zip's do; a
  // copy-distributed pair is folded on its first device only. Throws LiftError when the shapes
  // or the device sets differ.
  cfun::Scalar run(const ContainerStorage& left, const ContainerStorage& right) const;

  // The fused kernel of GPUs (coalesced reads) and of other devices (contiguous chunks).
  const SkeletonKernel& coalescedKernel() const { return *coalesced_; }
  const SkeletonKernel& chunkedKernel() const { return *chunked_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

  ZipReduceForm form() const { return form_; }
  void setForm(ZipReduceForm f) { form_ = f; }

  // At most this many work-items in the fused kernel on a GPU (on other devices:
  // ReduceSkeleton::kMaxChunks).
  static constexpr size_t kMaxGpuWorkItems = 65536;

 private:
  std::string what_;
  ReduceSkeleton finish_;  // the partial results folded on the device, combined on the host
  std::unique_ptr<SkeletonKernel> coalesced_, chunked_;
  std::unique_ptr<StoredKernels> stored_;
  ZipReduceForm form_ = ZipReduceForm::Auto;
};

// The fused .lift program (exposed for tests and documentation): `coalesced` chooses the GPUs'
// form. The user functions are renamed zipped and reduced, as in AllPairs.
std::string zipReduceProgram(UserFunction zip, UserFunction reduce, const std::string& identity,
                             bool coalesced);
// The high-level program whose stored kernels the skeleton takes.
std::string zipReduceSearchProgram(UserFunction zip, UserFunction reduce, const std::string& identity);

}  // namespace lift::skelcl
