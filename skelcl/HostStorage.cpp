// Allocating, first-touching and releasing a container's host copy.
#include "skelcl/HostStorage.h"

#include <fmt/format.h>
#include <unistd.h>

#include <utility>

#include "skelcl/DeviceSet.h"
#include "skelcl/HostStoragePool.h"

namespace lift::skelcl {

HostStorage::HostStorage(HostStorage&& other) noexcept
    : pageable_(std::move(other.pageable_)),
      buffer_(std::move(other.buffer_)),
      queue_(std::move(other.queue_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      reused_(std::exchange(other.reused_, false)),
      pool_(std::exchange(other.pool_, {})) {}

HostStorage& HostStorage::operator=(HostStorage&& other) noexcept {
  if (this != &other) {
    release();
    pageable_ = std::move(other.pageable_);
    buffer_ = std::move(other.buffer_);
    queue_ = std::move(other.queue_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    reused_ = std::exchange(other.reused_, false);
    pool_ = std::exchange(other.pool_, {});
  }
  return *this;
}

HostStorage::~HostStorage() { release(); }

void HostStorage::release() noexcept {
  if (std::shared_ptr<HostStoragePool> pool = std::exchange(pool_, {}).lock(); pool && data_) {
    try {
      pool->keep(std::move(*this));  // detached from the pool above: freed there if not kept
    } catch (...) {
      // No room to keep it (std::bad_alloc): the block was freed on the way out.
    }
    return;
  }
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
  capacity_ = 0;
  reused_ = false;
}

HostStorage HostStorage::allocate(size_t bytes, HostMemory memory, DeviceSet& devices) {
  HostStorage s;
  if (bytes == 0) return s;
  HostStoragePool& pool = devices.hostPool();
  if (std::optional<HostStorage> block = pool.take(memory, bytes)) {
    s = std::move(*block);
    s.bytes_ = bytes;
    s.reused_ = true;
    s.pool_ = pool.weak_from_this();
    return s;
  }
  if (memory == HostMemory::Pageable) {
    s.pageable_.reset(new std::byte[bytes]);  // default-initialised: no byte written
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
  s.capacity_ = bytes;
  s.pool_ = pool.weak_from_this();
  return s;
}

void HostStorage::touchPages(std::byte* begin, size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t at = 0; at < bytes; at += page) begin[at] = std::byte{0};
  if (bytes > 0) begin[bytes - 1] = std::byte{0};
}

}  // namespace lift::skelcl
