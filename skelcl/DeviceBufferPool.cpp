// Handing out and taking back the device buffers of containers (DeviceBufferPool.h).
#include "skelcl/DeviceBufferPool.h"

namespace lift::skelcl {

DeviceBufferPool::Lease& DeviceBufferPool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    giveBack();
    pool_ = std::move(other.pool_);
    context_ = other.context_;
    bytes_ = other.bytes_;
    buffer_ = std::move(other.buffer_);
    other.context_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

DeviceBufferPool::Lease::~Lease() { giveBack(); }

void DeviceBufferPool::Lease::giveBack() {
  if (!buffer_()) return;
  if (std::shared_ptr<DeviceBufferPool> pool = pool_.lock())
    pool->release(context_, bytes_, std::move(buffer_));
  buffer_ = cl::Buffer();
  pool_.reset();
}

std::shared_ptr<DeviceBufferPool> DeviceBufferPool::create(size_t maxBytes) {
  return std::shared_ptr<DeviceBufferPool>(new DeviceBufferPool(maxBytes));
}

DeviceBufferPool::Lease DeviceBufferPool::acquire(const cl::Context& context, size_t bytes) {
  Lease lease;
  lease.pool_ = weak_from_this();
  lease.context_ = context();
  lease.bytes_ = bytes;
  {
    std::lock_guard lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if (it->context == context() && it->bytes == bytes) {
        lease.buffer_ = std::move(it->buffer);
        freeBytes_ -= bytes;
        free_.erase(it);
        ++reuses_;
        return lease;
      }
  }
  lease.buffer_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  return lease;
}

void DeviceBufferPool::release(cl_context context, size_t bytes, cl::Buffer buffer) {
  if (bytes > maxBytes_) return;  // released at once
  std::list<Free> dropped;        // released outside the lock
  std::lock_guard lock(mutex_);
  free_.push_front(Free{context, bytes, std::move(buffer)});
  freeBytes_ += bytes;
  while (freeBytes_ > maxBytes_) {
    freeBytes_ -= free_.back().bytes;
    dropped.splice(dropped.begin(), free_, std::prev(free_.end()));
  }
}

size_t DeviceBufferPool::freeBytes() const {
  std::lock_guard lock(mutex_);
  return freeBytes_;
}

uint64_t DeviceBufferPool::reuses() const {
  std::lock_guard lock(mutex_);
  return reuses_;
}

}  // namespace lift::skelcl
