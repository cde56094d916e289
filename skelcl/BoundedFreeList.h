// BoundedFreeList: the free blocks of a caching allocator (HostStoragePool, DeviceBufferPool),
// most recently freed first, at most maxBytes() of them: a block kept beyond that drops the ones
// freed longest ago, and a block larger than the limit alone is not kept. Blocks leave the list
// either to a request (take, which counts the reuse) or to their destructor; a block dropped,
// trimmed or refused is destroyed after the lock is released, since freeing one may be slow or
// call the device (unmapping page-locked memory, releasing an OpenCL buffer) and must not hold up
// the other threads nor call back into the list under its lock. The pools differ only in which
// free block serves a request, which they pass to take as a score. Thread-safe.
//
// `BytesOf` is a default-constructible function object: the bytes a block counts for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <list>
#include <mutex>
#include <optional>
#include <utility>

namespace lift::skelcl {

template <typename Block, typename BytesOf>
class BoundedFreeList {
 public:
  explicit BoundedFreeList(size_t maxBytes) : maxBytes_(maxBytes) {}

  // The free block that `score` ranks lowest, taken out of the list; `score(block)` is a
  // std::optional<size_t>, none for a block that cannot serve the request. Of blocks ranked alike
  // the most recently freed is taken; a score of 0 ends the search there. None when no block fits.
  template <typename Score>
  std::optional<Block> take(Score&& score) {
    std::lock_guard lock(mutex_);
    auto best = free_.end();
    size_t bestScore = 0;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const std::optional<size_t> s = score(std::as_const(*it));
      if (!s || (best != free_.end() && *s >= bestScore)) continue;
      best = it;
      bestScore = *s;
      if (bestScore == 0) break;
    }
    if (best == free_.end()) return std::nullopt;
    std::optional<Block> block(std::move(*best));
    free_.erase(best);
    freeBytes_ -= BytesOf{}(*block);
    ++reuses_;
    return block;
  }

  // Keeps `block` as the most recently freed, then drops the oldest blocks until the kept ones fit
  // maxBytes(); a block larger than maxBytes() alone (any block, with 0) is destroyed instead.
  void keep(Block block) {
    std::list<Block> dropped;  // destroyed after the lock is released (declared before it)
    std::lock_guard lock(mutex_);
    const size_t bytes = BytesOf{}(block);
    if (bytes > maxBytes_) {
      dropped.push_back(std::move(block));
      return;
    }
    free_.push_front(std::move(block));
    freeBytes_ += bytes;
    evict(dropped);
  }

  size_t maxBytes() const {
    std::lock_guard lock(mutex_);
    return maxBytes_;
  }
  // Drops the oldest blocks beyond the new limit at once.
  void setMaxBytes(size_t maxBytes) {
    std::list<Block> dropped;
    std::lock_guard lock(mutex_);
    maxBytes_ = maxBytes;
    evict(dropped);
  }
  // Drops every free block.
  void clear() {
    std::list<Block> dropped;
    std::lock_guard lock(mutex_);
    dropped.splice(dropped.begin(), free_);
    freeBytes_ = 0;
  }

  size_t freeBytes() const {
    std::lock_guard lock(mutex_);
    return freeBytes_;
  }
  size_t freeBlocks() const {
    std::lock_guard lock(mutex_);
    return free_.size();
  }
  // How many requests a free block served (take found one).
  uint64_t reuses() const {
    std::lock_guard lock(mutex_);
    return reuses_;
  }

 private:
  // Moves the oldest blocks beyond maxBytes_ to `dropped`; the caller holds the lock.
  void evict(std::list<Block>& dropped) {
    while (freeBytes_ > maxBytes_) {
      freeBytes_ -= BytesOf{}(free_.back());
      dropped.splice(dropped.begin(), free_, std::prev(free_.end()));
    }
  }

  mutable std::mutex mutex_;
  size_t maxBytes_;
  std::list<Block> free_;  // most recently freed first
  size_t freeBytes_ = 0;
  uint64_t reuses_ = 0;
};

}  // namespace lift::skelcl
