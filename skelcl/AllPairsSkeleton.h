// AllPairsSkeleton: the untyped implementation of AllPairs in SkelCL's zip-reduce form — for an
// n x d matrix A and a d x m matrix B, the n x m matrix C with C(i, j) = reduce(zip(row i of A,
// column j of B)); with multiplication and addition, the matrix product. Its program is
//   mapGlb1(fun(a => join o mapGlb0(fun(b =>
//     toGlobal(mapSeq(id)) o reduceSeq(fun((acc, x, y) => r(acc, z(x, y))), identity) $ zip(a, b)
//   )) $ transpose(B))) $ A
// one work-item per element of C. A keeps its distribution (block when it has none) and C takes
// it; B is copied to every device. When the device set has a result store holding kernels of the
// skeleton's high-level program
//   map(fun(a => map(fun(b => reduce(reduced, identity) o map(zipped) $ zip(a, b))) $ transpose(B))) $ A
// (A: [[T]D]N, B: [[U]M]D; `liftc explore` on storedKernels().liftText()) for a part's sizes on
// its device, the best of them computes that part instead (StoredKernel.h).
#pragma once

#include <memory>
#include <string>

#include "skelcl/ContainerStorage.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

class AllPairsSkeleton {
 public:
  // `zip` combines an element of A with one of B, `reduce` (with `identity`, a .lift literal)
  // folds the results.
  AllPairsSkeleton(const std::string& what, UserFunction zip, UserFunction reduce,
                   const std::string& identity);

  // C = allpairs(A, B) into `c` (a.rows() x b.rowLength()). Throws LiftError when A's columns
  // are not B's rows or the device sets differ.
  void run(const ContainerStorage& a, const ContainerStorage& b, ContainerStorage& c) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

 private:
  std::string what_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<StoredKernels> stored_;
};

// The .lift program of AllPairs (exposed for tests and documentation). The user functions are
// renamed zipped and reduced, since SkelCL programs tend to call both `func`.
std::string allPairsProgram(UserFunction zip, UserFunction reduce, const std::string& identity);
// The high-level program whose stored kernels the skeleton takes.
std::string allPairsSearchProgram(UserFunction zip, UserFunction reduce, const std::string& identity);

}  // namespace lift::skelcl
