// Container<T>: a ContainerStorage with typed host data (float, double or int elements), the
// common base of Vector<T> and Matrix<T>. The host copy is allocated when first needed, so a
// skeleton's output that is only used on the devices never takes host memory.
#pragma once

#include <cstdint>
#include <vector>

#include "skelcl/ContainerStorage.h"
#include "skelcl/ElementTraits.h"

namespace lift::skelcl {

// Tag of the constructors that skeletons use for their outputs: the contents will be written
// on the devices.
struct DeviceOutput {};

template <class T>
class Container : public ContainerStorage {
 public:
  using value_type = T;
  static constexpr const char* typeName = ElementTraits<T>::name;

  // All elements, row after row; downloads them when the devices hold newer data.
  const std::vector<T>& hostData() const {
    ensureOnHost();
    return host_;
  }
  // For writing on the host: the current data, whose device copies become stale.
  std::vector<T>& writableHostData() {
    markWrittenOnHost();
    return host_;
  }
  typename std::vector<T>::const_iterator begin() const { return hostData().begin(); }
  typename std::vector<T>::const_iterator end() const { return hostData().end(); }

 protected:
  Container(std::shared_ptr<DeviceSet> devices, size_t rows, size_t rowLength, std::vector<T>&& data)
      : ContainerStorage(std::move(devices), sizeof(T), rows, rowLength), host_(std::move(data)) {
    if (host_.size() != elementCount())
      throw LiftError("a container of " + std::to_string(elementCount()) + " elements given " +
                      std::to_string(host_.size()) + " values");
  }
  Container(DeviceOutput, std::shared_ptr<DeviceSet> devices, size_t rows, size_t rowLength)
      : ContainerStorage(std::move(devices), sizeof(T), rows, rowLength) {}

  std::byte* hostStorage() const override {
    if (host_.size() != elementCount()) host_.resize(elementCount());
    return reinterpret_cast<std::byte*>(host_.data());
  }

 private:
  mutable std::vector<T> host_;
};

}  // namespace lift::skelcl
