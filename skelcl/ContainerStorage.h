// ContainerStorage: the untyped core of SkelCL's containers — rows of elements held on the host
// and, once distributed, in one buffer per device part — and the laziness rules that decide when
// data moves:
//   - a skeleton's input is uploaded only when its devices do not already hold the newest data;
//   - a skeleton's output lives on the devices; the host copy is downloaded on the first read;
//   - a host write makes the devices' copies stale (uploaded again by the next skeleton);
//   - a redistribution goes through the host (downloading only if the host copy is stale).
// The host copy is HostStorage (uninitialised until the data arrives; pageable or page-locked as
// the device set says, from its HostStoragePool when a free block fits), allocated when first
// needed, so that a skeleton's output that is only used on the devices never takes host memory. Vector<T> and
// Matrix<T> (Container.h) add the typed view of it. Its device buffers come from the device set's
// DeviceBufferPool and go back there when it lets go of them (destroyed, assigned over, redistributed).
// Skeletons use the methods under "for skeletons"; they are const because they only move data, never change
// it.
#pragma once

#include <CL/opencl.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "skelcl/DeviceSet.h"
#include "skelcl/Distribution.h"
#include "skelcl/HostStorage.h"
#include "skelcl/TransferStats.h"

namespace lift::skelcl {

class ContainerStorage {
 public:
  ContainerStorage(const ContainerStorage&) = delete;
  ContainerStorage& operator=(const ContainerStorage&) = delete;
  ContainerStorage(ContainerStorage&&) = default;
  ContainerStorage& operator=(ContainerStorage&&) = default;
  virtual ~ContainerStorage() = default;

  const std::shared_ptr<DeviceSet>& devices() const { return devices_; }
  size_t rows() const { return rows_; }
  size_t rowLength() const { return rowLength_; }
  size_t elementCount() const { return rows_ * rowLength_; }
  size_t elementBytes() const { return elementBytes_; }

  // Distributes the rows as `d` over the device set (throws LiftError for a device outside it).
  // Changing the distribution of data that is newest on the devices downloads it first; the new
  // parts are uploaded when a skeleton needs them.
  void setDistribution(const Distribution& d) const;
  // The distribution, none until set or chosen by the first skeleton (block).
  const std::optional<Distribution>& distribution() const { return distribution_; }
  const TransferStats& transfers() const { return stats_; }
  // Where the newest data is: on the host, on the devices, or both.
  bool hostIsCurrent() const { return hostValid_; }
  bool devicesAreCurrent() const { return devicesValid_; }

  // ----- for skeletons ------------------------------------------------------------------
  // Distributes as `d` (when not already) and uploads the parts unless the devices are current.
  void prepareOnDevices(const Distribution& d) const;
  const std::vector<Part>& parts() const { return parts_; }
  // Copies of it must not outlive the container (or its next redistribution): the buffer then
  // goes back to the pool.
  const cl::Buffer& buffer(size_t part) const { return buffers_[part].buffer(); }
  // For an output: distributed as `d`, device buffers (fresh ones unless it has them in `d`
  // already), host data stale; the skeleton
  // writes every part and then calls markWrittenOnDevices().
  void allocateOnDevices(const Distribution& d);
  void markWrittenOnDevices() { devicesValid_ = true; }

 protected:
  ContainerStorage(std::shared_ptr<DeviceSet> devices, size_t elementBytes, size_t rows, size_t rowLength);

  // The current host copy's first byte, with room for elementCount() elements: downloaded when
  // stale; zeros for a container that was never written.
  std::byte* currentHostBytes() const;
  // For constructors: uninitialised room for the elements, which the caller writes at once (the
  // host copy is current).
  std::byte* allocateHost();
  // Before a host write: the host copy made current, the device copies marked stale.
  void markWrittenOnHost();

 private:
  // Downloads the data when the host copy is stale, each part into the host storage's pages that
  // its download thread touches first.
  void ensureOnHost() const;
  void allocateBuffers() const;
  size_t rowBytes() const { return rowLength_ * elementBytes_; }

  std::shared_ptr<DeviceSet> devices_;
  size_t elementBytes_ = 0;
  size_t rows_ = 0;
  size_t rowLength_ = 1;
  mutable std::optional<Distribution> distribution_;
  mutable std::vector<Part> parts_;
  mutable std::vector<DeviceBufferPool::Lease> buffers_;  // one per part
  mutable HostStorage host_;
  mutable bool hostValid_ = true;
  mutable bool devicesValid_ = false;
  mutable TransferStats stats_;
};

}  // namespace lift::skelcl
