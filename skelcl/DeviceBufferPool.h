// DeviceBufferPool: the device buffers that containers have let go of (the container destroyed,
// assigned over or redistributed), kept for the next container part of the same byte size on the
// same context, as PyTorch's caching allocator keeps its blocks: `y = prefixSum(x)` in a loop
// then allocates no device memory after its first run. A buffer is handed out again only after
// its Lease — the one owner, move-only — has ended; the device's queue is in order, so commands
// still pending on it run before any command of its next owner. The pool holds at most
// `maxBytes` of free buffers, dropping the ones freed longest ago first: the free buffers, the
// limit and the counter are a BoundedFreeList; the pool adds the matching rule. Thread-safe.
#pragma once

#include <CL/opencl.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "skelcl/BoundedFreeList.h"

namespace lift::skelcl {

class DeviceBufferPool : public std::enable_shared_from_this<DeviceBufferPool> {
 public:
  // A buffer owned by one container part (or kept by a skeleton as scratch, ScanSkeleton.h); back
  // to its pool when the lease ends.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();

    const cl::Buffer& buffer() const { return buffer_; }
    size_t bytes() const { return bytes_; }  // 0 for no buffer

   private:
    friend class DeviceBufferPool;
    void giveBack();
    std::weak_ptr<DeviceBufferPool> pool_;
    cl_context context_ = nullptr;
    size_t bytes_ = 0;
    cl::Buffer buffer_;
  };

  static std::shared_ptr<DeviceBufferPool> create(size_t maxBytes);

  // A buffer of `bytes` (read-write) on `context`: a free one of exactly that size when the pool
  // holds one, else a new one. OpenCL failures are thrown as cl::Error.
  Lease acquire(const cl::Context& context, size_t bytes);

  size_t freeBytes() const;
  // How many acquisitions a free buffer served.
  uint64_t reuses() const;

 private:
  explicit DeviceBufferPool(size_t maxBytes) : free_(maxBytes) {}
  void release(cl_context context, size_t bytes, cl::Buffer buffer);

  struct Free {
    cl_context context;  // the buffer keeps it alive
    size_t bytes;
    cl::Buffer buffer;
  };
  struct Bytes {
    size_t operator()(const Free& free) const { return free.bytes; }
  };
  BoundedFreeList<Free, Bytes> free_;
};

}  // namespace lift::skelcl
