// Keeping and handing out the host copies that containers let go of (HostStoragePool.h).
#include "skelcl/HostStoragePool.h"

#include <unistd.h>

namespace lift::skelcl {

std::shared_ptr<HostStoragePool> HostStoragePool::create(size_t maxBytes) {
  return std::shared_ptr<HostStoragePool>(new HostStoragePool(maxBytes));
}

size_t HostStoragePool::defaultMaxBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return size_t(1) << 30;
  return static_cast<size_t>(pages) / 4 * static_cast<size_t>(page);
}

std::optional<HostStorage> HostStoragePool::take(HostMemory memory, size_t bytes) {
  if (bytes == 0) return std::nullopt;
  const size_t most = bytes + bytes / 8;
  std::lock_guard lock(mutex_);
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it)
    if (it->memory() == memory && it->capacity() >= bytes && it->capacity() <= most &&
        (best == free_.end() || it->capacity() < best->capacity()))
      best = it;
  if (best == free_.end()) return std::nullopt;
  std::optional<HostStorage> block(std::move(*best));
  free_.erase(best);
  freeBytes_ -= block->capacity();
  ++reuses_;
  return block;
}

void HostStoragePool::keep(HostStorage block) {
  if (block.empty()) return;
  std::list<HostStorage> dropped;  // freed after the lock is released (declared before it)
  std::lock_guard lock(mutex_);
  if (block.capacity() > maxBytes_) {
    dropped.push_back(std::move(block));
    return;
  }
  freeBytes_ += block.capacity();
  free_.push_front(std::move(block));
  evict(dropped);
}

void HostStoragePool::evict(std::list<HostStorage>& dropped) {
  while (freeBytes_ > maxBytes_) {
    freeBytes_ -= free_.back().capacity();
    dropped.splice(dropped.begin(), free_, std::prev(free_.end()));
  }
}

size_t HostStoragePool::maxBytes() const {
  std::lock_guard lock(mutex_);
  return maxBytes_;
}

void HostStoragePool::setMaxBytes(size_t maxBytes) {
  std::list<HostStorage> dropped;
  std::lock_guard lock(mutex_);
  maxBytes_ = maxBytes;
  evict(dropped);
}

void HostStoragePool::trim() {
  std::list<HostStorage> dropped;
  std::lock_guard lock(mutex_);
  dropped.splice(dropped.begin(), free_);
  freeBytes_ = 0;
}

size_t HostStoragePool::freeBytes() const {
  std::lock_guard lock(mutex_);
  return freeBytes_;
}

size_t HostStoragePool::freeBlocks() const {
  std::lock_guard lock(mutex_);
  return free_.size();
}

uint64_t HostStoragePool::reuses() const {
  std::lock_guard lock(mutex_);
  return reuses_;
}

}  // namespace lift::skelcl
