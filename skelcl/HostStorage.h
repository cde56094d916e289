// HostStorage: the bytes of a container's host copy, uninitialised when allocated, so that
// nothing writes a page before the data does: pageable memory from new[] (whose pages the
// thread that first writes them faults in — each device's download thread its own part, see
// touchPages), or page-locked memory (HostMemory::PageLocked: a CL_MEM_ALLOC_HOST_PTR buffer
// of device 0's context, mapped once for the storage's lifetime and unmapped when it ends).
#pragma once

#include <CL/opencl.hpp>

#include <cstddef>
#include <memory>

#include "skelcl/HostMemory.h"

namespace lift::skelcl {

class DeviceSet;

class HostStorage {
 public:
  HostStorage() = default;
  HostStorage(HostStorage&& other) noexcept;
  HostStorage& operator=(HostStorage&& other) noexcept;
  HostStorage(const HostStorage&) = delete;
  HostStorage& operator=(const HostStorage&) = delete;
  ~HostStorage();

  // `bytes` uninitialised bytes of `memory` (page-locked through `devices`' device 0; a failure
  // there is a DeviceError). Empty storage for 0 bytes.
  static HostStorage allocate(size_t bytes, HostMemory memory, DeviceSet& devices);

  std::byte* data() const { return data_; }
  size_t size() const { return bytes_; }
  bool empty() const { return data_ == nullptr; }
  HostMemory memory() const { return buffer_() ? HostMemory::PageLocked : HostMemory::Pageable; }

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
};

}  // namespace lift::skelcl
