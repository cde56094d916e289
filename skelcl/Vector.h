// Vector<T>: SkelCL's one-dimensional container. Elements are read and written on the host as
// with std::vector; skeletons run on its device copies, which are transferred lazily (see
// ContainerStorage.h). Distributed element by element.
#pragma once

#include <string>

#include "skelcl/Container.h"

namespace lift::skelcl {

template <class T>
class Vector : public Container<T> {
 public:
  Vector(std::shared_ptr<DeviceSet> devices, size_t size, T value = T{})
      : Container<T>(std::move(devices), size, 1, value) {}
  Vector(std::shared_ptr<DeviceSet> devices, const std::vector<T>& values)
      : Container<T>(std::move(devices), values.size(), 1, values) {}
  // For skeletons: a vector whose contents are computed on the devices.
  Vector(DeviceOutput tag, std::shared_ptr<DeviceSet> devices, size_t size)
      : Container<T>(tag, std::move(devices), size, 1) {}

  size_t size() const { return this->rows(); }
  // Element i, read on the host.
  T operator[](size_t i) const { return this->hostData()[checked(i)]; }
  // Writes element i on the host (the device copies become stale).
  void set(size_t i, T value) { this->writableHostData()[checked(i)] = value; }

 private:
  size_t checked(size_t i) const {
    if (i >= size())
      throw LiftError("index " + std::to_string(i) + " out of a vector of " + std::to_string(size()) +
                      " elements");
    return i;
  }
};

}  // namespace lift::skelcl
