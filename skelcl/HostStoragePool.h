// HostStoragePool: the host copies that containers have let go of, kept for the next host copy
// of the same memory and about the same size, as PyTorch's CachingHostAllocator keeps its
// blocks: a program that makes new containers in a loop then pays neither the first touch of
// fresh pageable pages (each a page fault, the larger part of a download into new memory) nor
// the pinning of page-locked memory again. A block comes back only when its HostStorage — the
// one owner, move-only — ends, so a block is never handed out while in use (and no copy into or
// out of it is pending then: the containers' transfers of their host copies are blocking); it
// keeps the bytes of its last owner (HostStorage's bytes are uninitialised all the same). Pageable and
// page-locked blocks are told apart; a request takes the smallest free block of its memory that
// holds it and is at most an eighth larger. The pool keeps at most maxBytes() of free blocks
// (counted at their capacity), dropping the ones freed longest ago first; 0 turns it off (every
// block freed at once). The free blocks, the limit and the counter are a BoundedFreeList; the
// pool adds the matching rule. The DeviceSet owns one (DeviceSet::hostPool). Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "skelcl/BoundedFreeList.h"
#include "skelcl/HostMemory.h"
#include "skelcl/HostStorage.h"

namespace lift::skelcl {

class HostStoragePool : public std::enable_shared_from_this<HostStoragePool> {
 public:
  static std::shared_ptr<HostStoragePool> create(size_t maxBytes);
  // A quarter of the host's physical memory: what DeviceSet::open sets.
  static size_t defaultMaxBytes();

  // The smallest free block of `memory` whose capacity is at least `bytes` and at most an eighth
  // more, taken out of the pool; none when no free block fits (or `bytes` is 0).
  std::optional<HostStorage> take(HostMemory memory, size_t bytes);
  size_t maxBytes() const;
  // Frees the free blocks beyond the new limit at once; 0 frees them all and turns the pool off.
  void setMaxBytes(size_t maxBytes);
  // Frees every free block (blocks in use come back later, as long as the pool is on).
  void trim();

  size_t freeBytes() const;
  size_t freeBlocks() const;
  // How many requests a free block served (take found one).
  uint64_t reuses() const;

 private:
  friend class HostStorage;
  explicit HostStoragePool(size_t maxBytes) : free_(maxBytes) {}
  // Keeps a block that its owner let go of (HostStorage::release, which detaches it from the pool
  // first), or frees it when the pool is off or the block alone exceeds maxBytes(); then frees the
  // blocks freed longest ago until the free ones fit maxBytes(). Page-locked blocks are unmapped
  // (a call to the device) outside the list's lock.
  void keep(HostStorage block);

  struct Capacity {
    size_t operator()(const HostStorage& block) const { return block.capacity(); }
  };
  BoundedFreeList<HostStorage, Capacity> free_;
};

}  // namespace lift::skelcl
