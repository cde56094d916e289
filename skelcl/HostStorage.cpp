// Allocating, first-touching and releasing a container's host copy.
#include "skelcl/HostStorage.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#include <utility>

#include "skelcl/DeviceSet.h"

namespace lift::skelcl {

HostStorage::HostStorage(HostStorage&& other) noexcept
    : pageable_(std::move(other.pageable_)),
      buffer_(std::move(other.buffer_)),
      queue_(std::move(other.queue_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

HostStorage& HostStorage::operator=(HostStorage&& other) noexcept {
  if (this != &other) {
    release();
    pageable_ = std::move(other.pageable_);
    buffer_ = std::move(other.buffer_);
    queue_ = std::move(other.queue_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

HostStorage::~HostStorage() { release(); }

void HostStorage::release() noexcept {
  if (buffer_() && data_) {
    try {
      queue_.enqueueUnmapMemObject(buffer_, data_);
      queue_.finish();
    } catch (const cl::Error&) {
      // The device failed; the buffer is released with its context all the same.
    }
  }
  buffer_ = cl::Buffer();
  queue_ = cl::CommandQueue();
  pageable_.reset();
  data_ = nullptr;
  bytes_ = 0;
}

HostStorage HostStorage::allocate(size_t bytes, HostMemory memory, DeviceSet& devices) {
  HostStorage s;
  if (bytes == 0) return s;
  if (memory == HostMemory::Pageable) {
    // Uninitialised: no byte written. Large copies on 2 MiB boundaries, advised as huge pages: a
    // download into them faults 512 times less often (the first touch of 1 GiB took 1.1-1.3 s in
    // 4 KiB pages and 0.33-0.37 s in huge pages on the development VM).
    const size_t huge = size_t(2) << 20;
    const bool large = bytes >= 2 * huge;
    const size_t rounded = large ? (bytes + huge - 1) / huge * huge : bytes;
    void* p = large ? std::aligned_alloc(huge, rounded) : std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    if (large) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: no huge pages is no error
    s.pageable_.reset(static_cast<std::byte*>(p));
    s.data_ = s.pageable_.get();
  } else {
    devices.guarded(0, fmt::format("allocating {} bytes of page-locked host memory", bytes), [&] {
      runtime::DeviceContext& device = devices.context(0);
      s.buffer_ = cl::Buffer(device.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
      s.queue_ = device.queue();
      s.data_ = static_cast<std::byte*>(
          s.queue_.enqueueMapBuffer(s.buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    });
  }
  s.bytes_ = bytes;
  return s;
}

void HostStorage::Free::operator()(std::byte* p) const noexcept { std::free(p); }

void HostStorage::touchPages(std::byte* begin, size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t at = 0; at < bytes; at += page) begin[at] = std::byte{0};
  if (bytes > 0) begin[bytes - 1] = std::byte{0};
}

}  // namespace lift::skelcl
