// The host copies' pool (skelcl/HostStoragePool.h) on the first OpenCL device (PoCL on CPU
// machines), also named twice: a block released is the next same-size (or slightly smaller)
// request's, of the same memory only; a block in use is never handed out (live blocks keep their
// bytes, also while threads allocate, write, check and release at once); the byte limit, trim and
// turning the pool off; and Map, Zip, Reduce, Scan and Stencil stay correct over many runs of
// varying sizes, every distribution and both host memories while their containers' host copies
// come and go through the pool.
#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "RandomInputs.h"
#include "skelcl/HostStorage.h"
#include "skelcl/HostStoragePool.h"
#include "skelcl/SkelCL.h"
#include "skelcl/programs/GaussianBlur.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

bool close(float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)); }

// Every byte of `s` set to `tag`.
void fill(const HostStorage& s, unsigned char tag) { std::memset(s.data(), tag, s.size()); }
bool holds(const HostStorage& s, unsigned char tag) {
  return std::all_of(s.data(), s.data() + s.size(), [tag](std::byte b) { return b == std::byte{tag}; });
}

const std::vector<Distribution> kDistributions = {Distribution::single(0),  Distribution::single(1),
                                                  Distribution::copy(),     Distribution::block(),
                                                  Distribution::overlap(1), Distribution::overlap(3)};

// The blur of a rows x cols image on the host (outside reads 0), as GaussianBlur.h defines it.
std::vector<float> hostBlur(const std::vector<float>& m, long rows, long cols) {
  static const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
  std::vector<float> out(m.size());
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c) {
      float acc = 0;
      for (long dy = -1; dy <= 1; ++dy)
        for (long dx = -1; dx <= 1; ++dx) {
          const long y = r + dy, x = c + dx;
          if (y >= 0 && x >= 0 && y < rows && x < cols) acc += w[dy + 1][dx + 1] * m[y * cols + x];
        }
      out[r * cols + c] = acc / 16;
    }
  return out;
}

}  // namespace

class TestSkelCLHostPool : public QObject {
  Q_OBJECT

 private slots:
  void reuseAfterRelease() {
    auto devices = DeviceSet::open({"0"});
    QVERIFY(devices->hostPooling());
    HostStoragePool& pool = devices->hostPool();
    QCOMPARE(pool.maxBytes(), HostStoragePool::defaultMaxBytes());
    const size_t bytes = 1 << 20;
    std::byte* first = nullptr;
    {
      HostStorage s = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
      QVERIFY(!s.reused());
      QCOMPARE(s.size(), bytes);
      QCOMPARE(s.capacity(), bytes);
      first = s.data();
      fill(s, 7);
    }
    QCOMPARE(pool.freeBlocks(), size_t(1));
    QCOMPARE(pool.freeBytes(), bytes);
    {
      HostStorage s = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
      QVERIFY(s.reused());
      QCOMPARE(s.data(), first);
      QCOMPARE(pool.reuses(), uint64_t(1));
      QCOMPARE(pool.freeBlocks(), size_t(0));
    }
    // Slightly smaller: the same block, its size the request's and its capacity the block's.
    {
      HostStorage s = HostStorage::allocate(bytes - bytes / 10, HostMemory::Pageable, *devices);
      QCOMPARE(s.data(), first);
      QCOMPARE(s.size(), bytes - bytes / 10);
      QCOMPARE(s.capacity(), bytes);
    }
    // Half the size, or larger: a new block (the free one stays).
    {
      HostStorage half = HostStorage::allocate(bytes / 2, HostMemory::Pageable, *devices);
      HostStorage larger = HostStorage::allocate(bytes + 1, HostMemory::Pageable, *devices);
      QVERIFY(!half.reused() && !larger.reused());
      QVERIFY(half.data() != first && larger.data() != first);
      QCOMPARE(pool.freeBlocks(), size_t(1));
    }
    QCOMPARE(pool.reuses(), uint64_t(2));
    // The best fit: of free blocks of 1 MiB, 1 MiB + 1 KiB and 1 MiB + 64 KiB a request of 1 MiB
    // takes the first, one of 1 MiB + 512 bytes the second.
    pool.trim();
    std::byte *exact = nullptr, *near = nullptr;
    {
      HostStorage a = HostStorage::allocate(bytes + (64 << 10), HostMemory::Pageable, *devices);
      HostStorage b = HostStorage::allocate(bytes + 1024, HostMemory::Pageable, *devices);
      HostStorage c = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
      exact = c.data();
      near = b.data();
    }
    {
      HostStorage c = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
      HostStorage b = HostStorage::allocate(bytes + 512, HostMemory::Pageable, *devices);
      QCOMPARE(c.data(), exact);
      QCOMPARE(b.data(), near);
    }
  }

  // Pageable and page-locked blocks are kept apart; a page-locked block comes back mapped.
  void memoriesAreKeptApart() {
    auto devices = DeviceSet::open({"0", "0"});
    HostStoragePool& pool = devices->hostPool();
    const size_t bytes = 256 << 10;
    std::byte *pageable = nullptr, *locked = nullptr;
    {
      HostStorage p = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
      HostStorage l = HostStorage::allocate(bytes, HostMemory::PageLocked, *devices);
      QCOMPARE(l.memory(), HostMemory::PageLocked);
      pageable = p.data();
      locked = l.data();
      fill(l, 3);
    }
    QCOMPARE(pool.freeBlocks(), size_t(2));
    HostStorage l = HostStorage::allocate(bytes, HostMemory::PageLocked, *devices);
    QCOMPARE(l.memory(), HostMemory::PageLocked);
    QCOMPARE(l.data(), locked);
    QVERIFY(holds(l, 3));  // still mapped: its last owner's bytes
    HostStorage p = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
    QCOMPARE(p.memory(), HostMemory::Pageable);
    QCOMPARE(p.data(), pageable);
    HostStorage second = HostStorage::allocate(bytes, HostMemory::PageLocked, *devices);
    QVERIFY(!second.reused());
    QVERIFY(second.data() != locked);
  }

  // Blocks in use are never handed out: each live block keeps the bytes its owner wrote while
  // others are released and allocated.
  void noReuseWhileAlive() {
    auto devices = DeviceSet::open({"0"});
    const size_t bytes = 64 << 10;
    std::vector<HostStorage> live;
    std::vector<unsigned char> tags;
    for (int i = 0; i < 16; ++i) {
      live.push_back(HostStorage::allocate(bytes, HostMemory::Pageable, *devices));
      tags.push_back(static_cast<unsigned char>(i));
      fill(live.back(), tags.back());
    }
    for (int round = 0; round < 8; ++round) {
      std::set<std::byte*> released;
      for (size_t i = round % 2; i < live.size(); i += 2) {
        released.insert(live[i].data());
        live[i] = HostStorage();
      }
      for (size_t i = round % 2; i < live.size(); i += 2) {
        live[i] = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
        QVERIFY(live[i].reused());
        QCOMPARE(released.count(live[i].data()), size_t(1));
        tags[i] = static_cast<unsigned char>(i + 16 * (round + 1));
        fill(live[i], tags[i]);
      }
      std::set<std::byte*> distinct;
      for (const HostStorage& s : live) distinct.insert(s.data());
      QCOMPARE(distinct.size(), live.size());
      for (size_t i = 0; i < live.size(); ++i)
        QVERIFY2(holds(live[i], tags[i]), qPrintable(QString("round %1 block %2").arg(round).arg(i)));
    }
    QCOMPARE(devices->hostPool().reuses(), uint64_t(8 * 8));
  }

  // Threads allocate, tag, check and release blocks of a few sizes at once (as the download
  // threads of several devices may): a block handed to two owners would show the other's tag.
  void threadsNeverShareABlock() {
    auto devices = DeviceSet::open({"0", "0"});
    devices->hostPool().setMaxBytes(4 << 20);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
      threads.emplace_back([&, t] {
        std::mt19937 gen(static_cast<unsigned>(t));
        std::vector<HostStorage> held;
        for (int i = 0; i < 400; ++i) {
          const size_t bytes = size_t(16 << 10) * (1 + gen() % 3) - gen() % 1000;
          HostStorage s = HostStorage::allocate(bytes, HostMemory::Pageable, *devices);
          const auto tag = static_cast<unsigned char>(t * 40 + i % 40);
          fill(s, tag);
          std::this_thread::yield();
          if (!holds(s, tag)) ++wrong;
          held.push_back(std::move(s));
          if (held.size() > 3) {
            const size_t k = gen() % held.size();
            held.erase(held.begin() + static_cast<long>(k));
          }
          for (const HostStorage& h : held)
            if (h.data()[0] != h.data()[h.size() - 1]) ++wrong;
        }
      });
    for (auto& t : threads) t.join();
    QCOMPARE(wrong.load(), 0);
    QVERIFY(devices->hostPool().reuses() > 100);
    QVERIFY(devices->hostPool().freeBytes() <= size_t(4 << 20));
  }

  void limitTrimAndOff() {
    auto devices = DeviceSet::open({"0"});
    HostStoragePool& pool = devices->hostPool();
    const size_t mib = 1 << 20;
    pool.setMaxBytes(3 * mib);
    std::vector<std::byte*> order;
    {
      std::vector<HostStorage> blocks;
      for (int i = 0; i < 5; ++i)
        blocks.push_back(HostStorage::allocate(mib, HostMemory::Pageable, *devices));
      for (const HostStorage& b : blocks) order.push_back(b.data());
    }  // released in order: blocks 0 and 1, freed longest ago, are dropped
    QCOMPARE(pool.freeBlocks(), size_t(3));
    QCOMPARE(pool.freeBytes(), 3 * mib);
    {
      HostStorage newest = HostStorage::allocate(mib, HostMemory::Pageable, *devices);
      QVERIFY(newest.data() == order[2] || newest.data() == order[3] || newest.data() == order[4]);
    }
    {  // a block larger than the limit is not kept
      HostStorage big = HostStorage::allocate(4 * mib, HostMemory::Pageable, *devices);
    }
    QCOMPARE(pool.freeBytes(), 3 * mib);
    pool.setMaxBytes(mib);
    QCOMPARE(pool.freeBlocks(), size_t(1));
    QCOMPARE(pool.freeBytes(), mib);
    pool.trim();
    QCOMPARE(pool.freeBlocks(), size_t(0));
    QCOMPARE(pool.freeBytes(), size_t(0));
    devices->setHostPooling(false);
    QVERIFY(!devices->hostPooling());
    const uint64_t reuses = pool.reuses();
    for (int i = 0; i < 3; ++i) {
      HostStorage s = HostStorage::allocate(mib / 2, HostMemory::Pageable, *devices);
      QVERIFY(!s.reused());
    }
    QCOMPARE(pool.freeBlocks(), size_t(0));
    QCOMPARE(pool.reuses(), reuses);
    devices->setHostPooling(true);
    QCOMPARE(pool.maxBytes(), HostStoragePool::defaultMaxBytes());
    { HostStorage s = HostStorage::allocate(mib / 2, HostMemory::Pageable, *devices); }
    QCOMPARE(pool.freeBlocks(), size_t(1));
    // A storage that outlives its device set's pool frees its block itself.
    HostStorage orphan = HostStorage::allocate(mib, HostMemory::Pageable, *devices);
    devices.reset();
    orphan = HostStorage();
  }

  // Containers take the blocks of containers gone before them; a new container never written is
  // all zeros though its block held other bytes.
  void containersReuseHostCopies() {
    auto devices = DeviceSet::open({"0", "0"});
    HostStoragePool& pool = devices->hostPool();
    Map<float(float)> twice("float func(float x) { return 2.0f * x; }");
    const size_t n = 10000;
    const std::vector<float> in = randomFloats(n, 1);
    for (int run = 0; run < 4; ++run) {
      Vector<float> x(devices, in);
      x.setDistribution(Distribution::block());
      Vector<float> y = twice(x);
      for (size_t i = 0; i < n; ++i) QVERIFY(y[i] == 2.0f * in[i]);
    }
    QCOMPARE(pool.reuses(), uint64_t(2 * 3));
    Vector<float> zeros(DeviceOutput{}, devices, n);
    for (size_t i = 0; i < n; ++i) QCOMPARE(zeros[i], 0.0f);
  }

  // Many runs of varying sizes (neighbouring ones share blocks), each distribution and both host
  // memories, one device and the device twice: Map, Zip, Reduce, Scan and the blur (Stencil)
  // against the host with their containers' host copies from the pool.
  void skeletonsStayCorrectWithThePool() {
    Map<float(float)> inc("float func(float x) { return x + 1.0f; }");
    Zip<float(float, float)> add("float func(float x, float y) { return x + y; }");
    Reduce<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    Scan<int32_t(int32_t)> prefixSum("int func(int x, int y) { return x + y; }", "0");
    const GaussianBlur blur;
    const std::vector<size_t> sizes = {1000, 1023, 1025, 1100, 4099, 4500, 3, 1, 64};
    for (const std::vector<std::string>& names :
         {std::vector<std::string>{"0"}, std::vector<std::string>{"0", "0"}})
      for (HostMemory memory : {HostMemory::Pageable, HostMemory::PageLocked}) {
        auto devices = DeviceSet::open(names);
        devices->setHostMemory(memory);
        int run = 0;
        for (size_t n : sizes)
          for (const Distribution& d : kDistributions) {
            if (d.kind() == Distribution::Kind::Single && d.device() >= devices->size()) continue;
            ++run;
            const QString where = QString("%1 devices, %2, n=%3, %4")
                                      .arg(devices->size())
                                      .arg(describe(memory).c_str())
                                      .arg(n)
                                      .arg(d.describe().c_str());
            const std::vector<float> a = randomFloats(n, static_cast<unsigned>(run)),
                                     b = randomFloats(n, static_cast<unsigned>(run + 1000));
            Vector<float> x(devices, a), y(devices, b);
            x.setDistribution(d);
            Vector<float> z = add(inc(x), y);
            for (size_t i = 0; i < n; ++i) QVERIFY2(close(z[i], a[i] + 1.0f + b[i]), qPrintable(where));
            const std::vector<int32_t> ints = randomInts(n, static_cast<unsigned>(run));
            Vector<int32_t> v(devices, ints);
            v.setDistribution(d);
            int32_t expected = 0;
            for (int32_t k : ints) expected += k;
            QVERIFY2(sum(v) == expected, qPrintable(where));
            if (d.kind() != Distribution::Kind::Overlap) {
              Vector<int32_t> sums = prefixSum(v);
              int32_t running = 0;
              for (size_t i = 0; i < n; ++i) {
                QVERIFY2(sums[i] == running, qPrintable(where));
                running += ints[i];
              }
            }
            const size_t rows = 1 + n / 64, cols = 1 + n % 61;
            const std::vector<float> image = randomFloats(rows * cols, static_cast<unsigned>(run + 7));
            Matrix<float> m(devices, rows, cols, image);
            if (d.kind() == Distribution::Kind::Overlap) m.setDistribution(d);
            Matrix<float> blurred = blur(m);
            const std::vector<float> want = hostBlur(image, long(rows), long(cols));
            for (size_t i = 0; i < want.size(); ++i)
              QVERIFY2(close(blurred.hostData()[i], want[i]), qPrintable(where));
          }
        QVERIFY(devices->hostPool().reuses() > uint64_t(run));
      }
  }
};

QTEST_GUILESS_MAIN(TestSkelCLHostPool)
#include "tst_skelcl_hostpool.moc"
