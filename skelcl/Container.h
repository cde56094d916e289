// Container<T>: a ContainerStorage with typed host data (float, double or int elements), the
// common base of Vector<T> and Matrix<T>. The host data is a view of the storage's host copy
// (ContainerStorage.h: allocated when first needed, not zeroed before a download).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "skelcl/ContainerStorage.h"
#include "skelcl/ElementTraits.h"

namespace lift::skelcl {

// Tag of the constructors that skeletons use for their outputs: the contents will be written
// on the devices.
struct DeviceOutput {};

template <class T>
class Container : public ContainerStorage {
  static_assert(std::is_trivially_copyable_v<T>, "container elements are copied as bytes");

 public:
  using value_type = T;
  static constexpr const char* typeName = ElementTraits<T>::name;

  // All elements, row after row; downloads them when the devices hold newer data.
  std::span<const T> hostData() const { return {elements(currentHostBytes()), elementCount()}; }
  // For writing on the host: the current data, whose device copies become stale.
  std::span<T> writableHostData() {
    markWrittenOnHost();
    return {elements(currentHostBytes()), elementCount()};
  }
  typename std::span<const T>::iterator begin() const { return hostData().begin(); }
  typename std::span<const T>::iterator end() const { return hostData().end(); }

 protected:
  Container(std::shared_ptr<DeviceSet> devices, size_t rows, size_t rowLength, const std::vector<T>& data)
      : ContainerStorage(std::move(devices), sizeof(T), rows, rowLength) {
    if (data.size() != elementCount())
      throw LiftError("a container of " + std::to_string(elementCount()) + " elements given " +
                      std::to_string(data.size()) + " values");
    std::copy(data.begin(), data.end(), elements(allocateHost()));
  }
  Container(std::shared_ptr<DeviceSet> devices, size_t rows, size_t rowLength, T value)
      : ContainerStorage(std::move(devices), sizeof(T), rows, rowLength) {
    std::fill_n(elements(allocateHost()), elementCount(), value);
  }
  Container(DeviceOutput, std::shared_ptr<DeviceSet> devices, size_t rows, size_t rowLength)
      : ContainerStorage(std::move(devices), sizeof(T), rows, rowLength) {}

 private:
  // The host storage's bytes as elements (HostStorage's memory implicitly holds them: it comes
  // from new std::byte[] or a mapped OpenCL buffer).
  static T* elements(std::byte* bytes) { return reinterpret_cast<T*>(bytes); }
};

}  // namespace lift::skelcl
