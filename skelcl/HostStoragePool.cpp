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
  // The best fit: the least capacity to spare.
  return free_.take([&](const HostStorage& block) -> std::optional<size_t> {
    if (block.memory() != memory || block.capacity() < bytes || block.capacity() > most) return std::nullopt;
    return block.capacity() - bytes;
  });
}

void HostStoragePool::keep(HostStorage block) {
  if (!block.empty()) free_.keep(std::move(block));
}

size_t HostStoragePool::maxBytes() const { return free_.maxBytes(); }

void HostStoragePool::setMaxBytes(size_t maxBytes) { free_.setMaxBytes(maxBytes); }

void HostStoragePool::trim() { free_.clear(); }

size_t HostStoragePool::freeBytes() const { return free_.freeBytes(); }

size_t HostStoragePool::freeBlocks() const { return free_.freeBlocks(); }

uint64_t HostStoragePool::reuses() const { return free_.reuses(); }

}  // namespace lift::skelcl
