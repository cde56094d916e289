// AllPairsSkeleton: the untyped implementation of AllPairs — for an n x d matrix A and a d x m
// matrix B, the n x m matrix C with C(i, j) = f(row i of A, column j of B), f a row function in
// the .lift language (AllPairsProgram.h; SkelCL's zip-reduce form is one: with multiplication
// and addition, the matrix product). Its kernel is the nest
//   mapGlb1(fun(a => join o mapGlb0(fun(b => toGlobal(mapSeq(id)) $ (f's body, lowered))) $ transpose(B))) $
//   A
// one work-item per element of C. A keeps its distribution (block when it has none) and C takes
// it; B is copied to every device. When the device set has a result store holding kernels of the
// skeleton's high-level program
//   allPairs(f)(A, transpose(B))      (= map(fun(a => map(fun(b => f's body)) $ transpose(B))) $ A)
// (A: [[T]D]N, B: [[U]M]D; `liftc explore` on storedKernels().liftText()) for a part's sizes on
// its device, the best of them computes that part instead (StoredKernel.h).
#pragma once

#include <memory>
#include <string>

#include "skelcl/AllPairsProgram.h"
#include "skelcl/ContainerStorage.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"

namespace lift::skelcl {

class AllPairsSkeleton {
 public:
  // Throws LiftError (located in f's texts) when f does not parse, type-check or compile, or
  // gives neither `types.result` nor a one-element array of it (makeAllPairsProgram).
  AllPairsSkeleton(const std::string& what, const AllPairsFunction& f, const AllPairsTypes& types);

  // C = allpairs(A, B) into `c` (a.rows() x b.rowLength()). Throws LiftError when A's columns
  // are not B's rows or the device sets differ.
  void run(const ContainerStorage& a, const ContainerStorage& b, ContainerStorage& c) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  // The kernel's program before its row function was lowered (for tests and documentation).
  const std::string& kernelText() const { return kernelText_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

 private:
  AllPairsSkeleton(const std::string& what, AllPairsProgram program);

  std::string what_;
  std::string kernelText_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<StoredKernels> stored_;
};

}  // namespace lift::skelcl
