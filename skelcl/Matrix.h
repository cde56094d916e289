// Matrix<T>: SkelCL's two-dimensional container, stored row-major. Distributions split it by
// whole rows (overlap: `halo` rows of each neighbouring block); element-wise skeletons treat it
// as its rows*columns elements.
#pragma once

#include <string>

#include "skelcl/Container.h"

namespace lift::skelcl {

template <class T>
class Matrix : public Container<T> {
 public:
  Matrix(std::shared_ptr<DeviceSet> devices, size_t rows, size_t columns, T value = T{})
      : Container<T>(std::move(devices), rows, columns, value) {}
  // `values` row after row; there must be rows*columns of them.
  Matrix(std::shared_ptr<DeviceSet> devices, size_t rows, size_t columns, const std::vector<T>& values)
      : Container<T>(std::move(devices), rows, columns, values) {}
  // For skeletons: a matrix whose contents are computed on the devices.
  Matrix(DeviceOutput tag, std::shared_ptr<DeviceSet> devices, size_t rows, size_t columns)
      : Container<T>(tag, std::move(devices), rows, columns) {}

  size_t columns() const { return this->rowLength(); }
  // Element (row, column), read on the host.
  T operator()(size_t row, size_t column) const { return this->hostData()[checked(row, column)]; }
  // Writes element (row, column) on the host (the device copies become stale).
  void set(size_t row, size_t column, T value) { this->writableHostData()[checked(row, column)] = value; }

 private:
  size_t checked(size_t row, size_t column) const {
    if (row >= this->rows() || column >= columns())
      throw LiftError("element (" + std::to_string(row) + ", " + std::to_string(column) + ") out of a " +
                      std::to_string(this->rows()) + "x" + std::to_string(columns()) + " matrix");
    return row * columns() + column;
  }
};

}  // namespace lift::skelcl
