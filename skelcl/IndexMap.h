// Map<R(IndexPoint)>: SkelCL's map over an index matrix. Built from the source of a C function
// of an element's row and column, e.g.
//   Map<int(IndexPoint)> diagonal("int func(int row, int column) { return row == column; }");
//   Matrix<int32_t> identity = diagonal(IndexMatrix(devices, n, n));
// it computes every element of a rows x columns matrix from its index on the index matrix's
// devices, with its distribution (IndexMapSkeleton.h); the result stays on the devices until it
// is read. The seed's Mandelbrot is one (skelcl/programs/Mandelbrot.h).
#pragma once

#include <string>

#include "skelcl/IndexMapSkeleton.h"
#include "skelcl/IndexMatrix.h"
#include "skelcl/Map.h"
#include "skelcl/Matrix.h"

namespace lift::skelcl {

template <class R>
class Map<R(IndexPoint)> {
 public:
  explicit Map(const std::string& source)
      : skeleton_(std::string("Map<") + ElementTraits<R>::name + "(IndexPoint)>", source,
                  ElementTraits<R>::name) {}

  Matrix<R> operator()(const IndexMatrix& index) const {
    Matrix<R> out(DeviceOutput{}, index.devices(), index.rows(), index.columns());
    skeleton_.run(index, out);
    return out;
  }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const IndexMapSkeleton& skeleton() const { return skeleton_; }

 private:
  IndexMapSkeleton skeleton_;
};

}  // namespace lift::skelcl
