// AllPairsSkeleton: the untyped implementation of AllPairs — for an n x d matrix A and a d x m
// matrix B, the n x m matrix C with C(i, j) = f(row i of A, column j of B), f a row function in
// the .lift language (AllPairsProgram.h; SkelCL's zip-reduce form is one: with multiplication
// and addition, the matrix product). Its kernel is the nest
//   mapGlb1(fun(a => join o mapGlb0(fun(b => toGlobal(mapSeq(id)) $ (f's body, lowered))) $ transpose(B))) $
//   A
// one work-item per element of C; in the zip-reduce form, on GPUs and where a part's sizes are
// multiples of 16, the kernel of AllPairsTiles.h instead (16 x 16 tiles of A and B through local
// memory, as SkelCL's zip-reduce allpairs). A keeps its distribution (block when it has none) and
// C takes it; B is copied to every device. When the device set has a result store holding kernels of the
// skeleton's high-level program
//   allPairs(f)(A, transpose(B))      (= map(fun(a => map(fun(b => f's body)) $ transpose(B))) $ A)
// (A: [[T]D]N, B: [[U]M]D; `liftc explore` on storedKernels().liftText()) for a part's sizes on
// its device, the best of them computes that part instead (StoredKernel.h).
#pragma once

#include <memory>
#include <string>

#include "skelcl/AllPairsProgram.h"
#include "skelcl/AllPairsTiles.h"
#include "skelcl/ContainerStorage.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"

namespace lift::skelcl {

// Where AllPairs' own zip-reduce kernel works in 16 x 16 tiles through local memory
// (AllPairsTiles.h) rather than one work-item an element straight from global memory: on GPUs
// (the default; PoCL runs a work-group's work-items one after another, and its barriers cost more
// than the tiles save), on every device, or on none.
enum class LocalTiles { OnGpus, Everywhere, Nowhere };

class AllPairsSkeleton {
 public:
  // Throws LiftError (located in f's texts) when f does not parse, type-check or compile, or
  // gives neither `types.result` nor a one-element array of it (makeAllPairsProgram).
  AllPairsSkeleton(const std::string& what, const AllPairsFunction& f, const AllPairsTypes& types);

  // C = allpairs(A, B) into `c` (a.rows() x b.rowLength()). Throws LiftError when A's columns
  // are not B's rows or the device sets differ.
  void run(const ContainerStorage& a, const ContainerStorage& b, ContainerStorage& c) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  // The zip-reduce form's tiled kernel; none for other row functions.
  const SkeletonKernel* tiledKernel() const { return tiled_.get(); }
  void setLocalTiles(LocalTiles where) { tiles_ = where; }
  LocalTiles localTiles() const { return tiles_; }
  // The kernel's program before its row function was lowered (for tests and documentation).
  const std::string& kernelText() const { return kernelText_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

 private:
  AllPairsSkeleton(const std::string& what, AllPairsProgram program);
  // Whether a part of these sizes on `device` runs the tiled kernel.
  bool tilesFit(DeviceSet& devices, int device, const arith::Env& sizes) const;

  std::string what_;
  std::string kernelText_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<SkeletonKernel> tiled_;  // the zip-reduce form's, used where tiles_ and the sizes allow
  LocalTiles tiles_ = LocalTiles::OnGpus;
  std::unique_ptr<StoredKernels> stored_;
};

}  // namespace lift::skelcl
