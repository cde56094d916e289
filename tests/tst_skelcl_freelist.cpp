// BoundedFreeList (skelcl/BoundedFreeList.h), the free blocks of the host and device pools, on
// plain blocks that count their destructions: the oldest blocks dropped first past the byte
// bound, a block larger than the bound not kept, the lowest score taken (the newest of equal ones),
// reuses counted, dropped blocks gDestroyed outside the lock (their destructor calls the list), and
// threads keeping and taking at once lose no block and never exceed the bound.
#include <QtTest/QtTest>

#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "skelcl/BoundedFreeList.h"

using namespace lift::skelcl;

namespace {

// A block `id` of `bytes`; destroying one that was not moved from counts it in `gDestroyed` and
// (when set) asks the list for its bytes, which deadlocks if the list destroys it under its lock.
struct Block;
struct BytesOf {
  size_t operator()(const Block& b) const;
};
using List = BoundedFreeList<Block, BytesOf>;

std::atomic<int> gDestroyed{0};

struct Block {
  int id = -1;
  size_t bytes = 0;
  const List* list = nullptr;

  Block(int id, size_t bytes, const List* list = nullptr) : id(id), bytes(bytes), list(list) {}
  Block(Block&& o) noexcept : id(std::exchange(o.id, -1)), bytes(o.bytes), list(o.list) {}
  Block& operator=(Block&& o) noexcept {
    id = std::exchange(o.id, -1);
    bytes = o.bytes;
    list = o.list;
    return *this;
  }
  ~Block() {
    if (id < 0) return;
    ++gDestroyed;
    if (list) (void)list->freeBytes();
  }
};

size_t BytesOf::operator()(const Block& b) const { return b.bytes; }

// Takes block `id` (whatever its size).
std::optional<Block> takeId(List& list, int id) {
  return list.take([id](const Block& b) -> std::optional<size_t> {
    if (b.id != id) return std::nullopt;
    return 0;
  });
}

// The best fit for `bytes`: the least to spare, up to an eighth more (the host pool's rule).
std::optional<Block> takeFit(List& list, size_t bytes) {
  return list.take([bytes](const Block& b) -> std::optional<size_t> {
    if (b.bytes < bytes || b.bytes > bytes + bytes / 8) return std::nullopt;
    return b.bytes - bytes;
  });
}

}  // namespace

class TestBoundedFreeList : public QObject {
  Q_OBJECT

 private slots:
  void init() { gDestroyed = 0; }

  // Past the bound the blocks freed longest ago go first, and only as many as needed.
  void evictsOldestFirst() {
    List list(1000);
    list.keep(Block(1, 300));
    list.keep(Block(2, 300));
    list.keep(Block(3, 300));
    QCOMPARE(list.freeBytes(), size_t(900));
    QCOMPARE(list.freeBlocks(), size_t(3));
    QCOMPARE(gDestroyed.load(), 0);
    list.keep(Block(4, 250));  // 1150: block 1 dropped
    QCOMPARE(gDestroyed.load(), 1);
    QCOMPARE(list.freeBytes(), size_t(850));
    QVERIFY(!takeId(list, 1));
    list.keep(Block(5, 500));  // 1350: blocks 2 and 3 dropped, 4 and 5 stay
    QCOMPARE(gDestroyed.load(), 3);
    QCOMPARE(list.freeBytes(), size_t(750));
    QVERIFY(!takeId(list, 2) && !takeId(list, 3));
    QVERIFY(takeId(list, 4) && takeId(list, 5));
    QCOMPARE(list.freeBytes(), size_t(0));
    QCOMPARE(list.reuses(), uint64_t(2));
  }

  // A block larger than the bound is not kept (and evicts nothing); the bound lowered drops the
  // oldest at once; 0 keeps nothing; clear drops everything.
  void bytesBound() {
    List list(1000);
    list.keep(Block(1, 400));
    list.keep(Block(2, 400));
    list.keep(Block(3, 1001));
    QCOMPARE(gDestroyed.load(), 1);
    QCOMPARE(list.freeBytes(), size_t(800));
    list.keep(Block(4, 1000));  // exactly the bound: kept, the two others dropped
    QCOMPARE(list.freeBytes(), size_t(1000));
    QCOMPARE(list.freeBlocks(), size_t(1));
    QCOMPARE(gDestroyed.load(), 3);
    list.setMaxBytes(2000);
    list.keep(Block(5, 600));
    list.keep(Block(6, 300));
    QCOMPARE(list.freeBytes(), size_t(1900));
    list.setMaxBytes(850);  // 4 then 5 dropped (900 > 850): 300 left
    QCOMPARE(list.maxBytes(), size_t(850));
    QCOMPARE(list.freeBytes(), size_t(300));
    QCOMPARE(gDestroyed.load(), 5);
    QVERIFY(!takeId(list, 5));
    list.setMaxBytes(0);
    QCOMPARE(list.freeBlocks(), size_t(0));
    list.keep(Block(7, 1));
    QCOMPARE(list.freeBlocks(), size_t(0));
    QCOMPARE(gDestroyed.load(), 7);
    list.setMaxBytes(100);
    list.keep(Block(8, 10));
    list.keep(Block(9, 10));
    list.clear();
    QCOMPARE(list.freeBlocks(), size_t(0));
    QCOMPARE(list.freeBytes(), size_t(0));
    QCOMPARE(gDestroyed.load(), 9);
    QCOMPARE(list.reuses(), uint64_t(0));
  }

  // The lowest score wins wherever it is in the list; of equal scores the newest; none matching
  // takes nothing and counts no reuse.
  void bestFit() {
    List list(1 << 20);
    list.keep(Block(1, 1024 + 64));
    list.keep(Block(2, 1024));
    list.keep(Block(3, 1024 + 16));
    list.keep(Block(4, 2048));
    std::optional<Block> b = takeFit(list, 1024);
    QVERIFY(b && b->id == 2);
    b = takeFit(list, 1020);
    QVERIFY(b && b->id == 3);
    QVERIFY(!takeFit(list, 4000));
    QVERIFY(!takeFit(list, 900));  // 1088 is more than an eighth above
    QCOMPARE(list.reuses(), uint64_t(2));
    QCOMPARE(list.freeBytes(), size_t(1024 + 64 + 2048));
    list.keep(Block(5, 1024 + 64));  // ties block 1: the newer goes first
    b = takeFit(list, 1024);
    QVERIFY(b && b->id == 5);
    b = takeFit(list, 1024);
    QVERIFY(b && b->id == 1);
    QCOMPARE(list.reuses(), uint64_t(4));
  }

  // Dropped blocks are gDestroyed after the lock is released: their destructor calls the list.
  void dropsOutsideTheLock() {
    List list(100);
    list.keep(Block(1, 60, &list));
    list.keep(Block(2, 60, &list));   // drops 1
    list.keep(Block(3, 101, &list));  // refused
    list.setMaxBytes(10);             // drops 2
    list.setMaxBytes(100);
    list.keep(Block(4, 50, &list));
    list.clear();  // drops 4
    QCOMPARE(gDestroyed.load(), 4);
  }

  // Threads keep and take blocks of a few sizes at once: every block ends either taken, kept or
  // gDestroyed exactly once, and the kept bytes stay within the bound and add up.
  void threads() {
    constexpr int kThreads = 4, kRounds = 5000;
    constexpr size_t kBound = 10000;
    List list(kBound);
    std::atomic<int> taken{0}, kept{0};
    std::atomic<bool> overBound{false}, wrongSize{false};
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t)
      pool.emplace_back([&, t] {
        for (int i = 0; i < kRounds; ++i) {
          const size_t bytes = 500 + 500 * ((i + t) % 5);
          if (std::optional<Block> b = takeFit(list, bytes)) {
            ++taken;
            if (b->bytes != bytes) wrongSize = true;  // nothing else within an eighth
            list.keep(std::move(*b));
          } else {
            list.keep(Block(t * kRounds + i, bytes));
            ++kept;
          }
          if (list.freeBytes() > kBound) overBound = true;
        }
      });
    for (std::thread& t : pool) t.join();
    QVERIFY(!overBound);
    QVERIFY(!wrongSize);
    QCOMPARE(taken.load() + kept.load(), kThreads * kRounds);
    QCOMPARE(list.reuses(), uint64_t(taken.load()));
    size_t bytes = 0, blocks = 0;
    for (size_t size = 500; size <= 2500; size += 500)
      while (std::optional<Block> b = takeFit(list, size)) {
        bytes += b->bytes;
        ++blocks;
      }
    QVERIFY(blocks > 0);
    QVERIFY(bytes <= kBound);
    QCOMPARE(list.freeBytes(), size_t(0));
    QCOMPARE(list.freeBlocks(), size_t(0));
    // Every new block was gDestroyed once: by the list or just now, taken out above.
    QCOMPARE(gDestroyed.load(), kept.load());
  }
};

QTEST_GUILESS_MAIN(TestBoundedFreeList)
#include "tst_skelcl_freelist.moc"
