// DeviceSet: the OpenCL devices a SkelCL program runs on, in the order that distributions name
// them (device 0, 1, ...), each with its own context and queue, and the build cache their
// kernels share. The same device may be named twice: it then has two contexts and behaves as two
// devices, which lets a machine with one device exercise the multi-device distributions.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/runtime/BuildCache.h"
#include "codegen/runtime/Device.h"
#include "skelcl/DeviceBufferPool.h"
#include "skelcl/HostMemory.h"
#include "skelcl/HostStoragePool.h"

namespace lift::explore {
class ResultStore;
}

namespace lift::skelcl {

class DeviceSet {
 public:
  // The devices named by `specs` (as runtime::Device::find takes them: "0", "cpu", "nvidia").
  // Throws LiftError for an unknown device or an empty list. `cache` null: the default build cache.
  static std::shared_ptr<DeviceSet> open(const std::vector<std::string>& specs,
                                         std::shared_ptr<runtime::BuildCache> cache = nullptr);

  int size() const { return static_cast<int>(contexts_.size()); }
  // Device `index`; throws LiftError when there is no such device in the set.
  runtime::DeviceContext& context(int index);
  std::string name(int index) const;
  runtime::BuildCache& cache() { return *cache_; }
  // The containers' device buffers (ContainerStorage) and the scan's scratch buffers
  // (ScanSkeleton.h): freed ones, up to a quarter of the smallest device's global memory, are
  // handed to the next lease of the same size.
  DeviceBufferPool& bufferPool() { return *bufferPool_; }
  // The memory of the host copies that containers on these devices allocate from now on
  // (pageable unless set; page-locked memory comes from device 0, HostStorage.h).
  HostMemory hostMemory() const { return hostMemory_; }
  void setHostMemory(HostMemory m) { hostMemory_ = m; }
  // The host copies that containers let go of (HostStorage), kept for the next host copy of the
  // same memory and size: up to a quarter of the host's memory unless set (hostPool().setMaxBytes;
  // trim() frees the free blocks).
  HostStoragePool& hostPool() { return *hostPool_; }
  bool hostPooling() const { return hostPool_->maxBytes() > 0; }
  // On (the default): the pool keeps up to HostStoragePool::defaultMaxBytes(); off: it keeps
  // nothing and frees what it kept.
  void setHostPooling(bool on) { hostPool_->setMaxBytes(on ? HostStoragePool::defaultMaxBytes() : 0); }
  // The result store whose best kernels the skeletons take, when it holds one for their
  // program, size and device (StoredKernel.h); null (the default): the skeletons' own kernels.
  const std::shared_ptr<explore::ResultStore>& resultStore() const { return resultStore_; }
  void setResultStore(std::shared_ptr<explore::ResultStore> store) { resultStore_ = std::move(store); }
  // Throws LiftError unless 0 <= index < size(); `what` says who asked.
  void checkIndex(int index, const std::string& what) const;

  // Runs `op` on device `index`; an OpenCL error becomes a DeviceError naming the device and
  // `operation`.
  void guarded(int index, const std::string& operation, const std::function<void()>& op);

  // Runs the operations at once, each on a thread of its own when there are several (one per
  // device part: transfers to and from different devices overlap), and waits for all of them;
  // then rethrows the first failure, if any.
  static void concurrently(const std::vector<std::function<void()>>& ops);

 private:
  DeviceSet() = default;
  std::vector<std::unique_ptr<runtime::DeviceContext>> contexts_;
  std::shared_ptr<runtime::BuildCache> cache_;
  std::shared_ptr<DeviceBufferPool> bufferPool_;
  std::shared_ptr<HostStoragePool> hostPool_ = HostStoragePool::create(HostStoragePool::defaultMaxBytes());
  HostMemory hostMemory_ = HostMemory::Pageable;
  std::shared_ptr<explore::ResultStore> resultStore_;
};

}  // namespace lift::skelcl
