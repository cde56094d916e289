// HostStorage: the bytes of a container's host copy, uninitialised when allocated, so that
// nothing writes a page before the data does: pageable memory from new[] (whose pages the
// thread that first writes them faults in — each device's download thread its own part, see
// touchPages), or page-locked memory (HostMemory::PageLocked: a CL_MEM_ALLOC_HOST_PTR buffer
// of device 0's context, mapped once for the storage's lifetime and unmapped when it ends).
// Allocated through a device set, its memory comes from the set's HostStoragePool when a free
// block fits and goes back there when the storage ends (its pages faulted in, its buffer pinned
// and mapped); otherwise it is freed.
#pragma once

#include <CL/opencl.hpp>

#include <cstddef>
#include <memory>

#include "skelcl/HostMemory.h"

namespace lift::skelcl {

class DeviceSet;
class HostStoragePool;

class HostStorage {
 public:
  HostStorage() = default;
  HostStorage(HostStorage&& other) noexcept;
  HostStorage& operator=(HostStorage&& other) noexcept;
  HostStorage(const HostStorage&) = delete;
  HostStorage& operator=(const HostStorage&) = delete;
  ~HostStorage();

  // `bytes` uninitialised bytes of `memory` (page-locked through `devices`' device 0; a failure
  // there is a DeviceError): a free block of `devices`' host pool when one fits, else a new one.
  // Empty storage for 0 bytes.
  static HostStorage allocate(size_t bytes, HostMemory memory, DeviceSet& devices);

  std::byte* data() const { return data_; }
  size_t size() const { return bytes_; }
  // The block's bytes, size() or more when it came from the pool.
  size_t capacity() const { return capacity_; }
  bool empty() const { return data_ == nullptr; }
  HostMemory memory() const { return buffer_() ? HostMemory::PageLocked : HostMemory::Pageable; }
  // Whether the block came from the pool: its pages (up to the size of its earlier owners) are
  // already faulted in, and a first touch is not needed.
  bool reused() const { return reused_; }

  // Writes one byte in every page of [begin, begin + bytes): the calling thread takes the first
  // touch (the page faults) of memory that is about to be written there.
  static void touchPages(std::byte* begin, size_t bytes);

 private:
  void release() noexcept;

  std::unique_ptr<std::byte[]> pageable_;
  cl::Buffer buffer_;  // page-locked: the buffer mapped at data_
  cl::CommandQueue queue_;
  std::byte* data_ = nullptr;
  size_t bytes_ = 0;
  size_t capacity_ = 0;
  bool reused_ = false;
  std::weak_ptr<HostStoragePool> pool_;  // where the block goes when the storage ends
};

}  // namespace lift::skelcl
