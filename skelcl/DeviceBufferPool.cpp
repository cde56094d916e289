// Handing out and taking back the device buffers of containers (DeviceBufferPool.h).
#include "skelcl/DeviceBufferPool.h"

#include <optional>

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
  // Exactly the size, on the same context: all such buffers serve alike (score 0, the newest).
  std::optional<Free> free = free_.take([&](const Free& f) -> std::optional<size_t> {
    if (f.context != context() || f.bytes != bytes) return std::nullopt;
    return 0;
  });
  lease.buffer_ = free ? std::move(free->buffer) : cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  return lease;
}

void DeviceBufferPool::release(cl_context context, size_t bytes, cl::Buffer buffer) {
  free_.keep(Free{context, bytes, std::move(buffer)});  // released at once when above the limit
}

size_t DeviceBufferPool::freeBytes() const { return free_.freeBytes(); }

uint64_t DeviceBufferPool::reuses() const { return free_.reuses(); }

}  // namespace lift::skelcl
