// IndexMapSkeleton: the untyped implementation of Map over an IndexMatrix — a user function of
// an element's row and column applied at every index, giving a matrix. Its program is
// `mapGlb1(fun(r => mapGlb0(fun(c => f(r, c))) $ columns)) $ rows` over the numbers of the rows
// a device computes and of the columns (two int vectors per device, rows + columns ints where a
// stored index matrix would be rows * columns, uploaded once and kept for the next run over the
// same part: made and uploaded each run, they cost more than the Mandelbrot image's kernel on an
// H100): one work-item per element. When the
// device set has a result store holding kernels of the high-level program
//   map(fun(r => map(fun(c => f(r, c))) $ columns)) $ rows       (rows: [int]R, columns: [int]C)
// (`liftc explore` on storedKernels().liftText()) for a part's R and C on its device, the best of
// them computes that part instead (StoredKernel.h).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "skelcl/ContainerStorage.h"
#include "skelcl/IndexMatrix.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

class IndexMapSkeleton {
 public:
  // `what`: "Map<int(IndexPoint)>"; the function must take (int row, int column) and return
  // `returnType`.
  IndexMapSkeleton(const std::string& what, const std::string& source, const std::string& returnType);

  // Computes every element of `output` (index's rows x columns, the same device set) with the
  // index matrix's distribution. Throws LiftError when the shapes or the device sets differ.
  void run(const IndexMatrix& index, ContainerStorage& output) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  const UserFunction& userFunction() const { return function_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

 private:
  std::string what_;
  UserFunction function_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<StoredKernels> stored_;

  // The numbers of `count` rows from `first` (or of the columns) on a context, uploaded once.
  cl::Buffer indices(DeviceSet& devices, int device, size_t first, size_t count) const;
  using IndexKey = std::tuple<cl_context, size_t, size_t>;  // context, first, count
  mutable std::mutex indicesMutex_;
  mutable std::map<IndexKey, cl::Buffer> indices_;  // at most kKeptIndexBuffers, then cleared
};

// The .lift program of a map over an index matrix (exposed for tests and documentation):
// `lowered`, the skeleton's own (mapGlb); else the high-level program whose stored kernels it
// takes (map).
std::string indexMapProgram(const UserFunction& f, bool lowered = true);

}  // namespace lift::skelcl
