// IndexMatrix: SkelCL's index matrix, the rows x columns matrix whose element (r, c) is its own
// index. It stores nothing: a Map over it (Map<R(IndexPoint)>, IndexMap.h) gives each device the
// numbers of the rows it computes and of the columns, two short vectors, and the user function
// takes an element's row and column. It has the device set and the distribution of the matrix
// the Map makes (block unless set; single, copy or block).
#pragma once

#include <memory>

#include "skelcl/DeviceSet.h"
#include "skelcl/Distribution.h"

namespace lift::skelcl {

// The element type of an index matrix, as a Map's parameter: Map<int(IndexPoint)>, whose user
// function takes the element's row and column, `int func(int row, int column)`.
struct IndexPoint {
  int row = 0, column = 0;
};

class IndexMatrix {
 public:
  // Throws LiftError when a dimension does not fit an OpenCL int.
  IndexMatrix(std::shared_ptr<DeviceSet> devices, size_t rows, size_t columns);

  const std::shared_ptr<DeviceSet>& devices() const { return devices_; }
  size_t rows() const { return rows_; }
  size_t columns() const { return columns_; }
  // The distribution of what a Map over it makes; throws LiftError for overlap (its halos would
  // be computed twice) or a device outside the set.
  void setDistribution(const Distribution& d);
  const Distribution& distribution() const { return distribution_; }

 private:
  std::shared_ptr<DeviceSet> devices_;
  size_t rows_ = 0, columns_ = 0;
  Distribution distribution_ = Distribution::block();
};

}  // namespace lift::skelcl
