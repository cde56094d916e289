// The SkelCL library (skelcl/) on the first OpenCL device (PoCL on CPU machines), also named
// twice so that the multi-device distributions run in CI: Map, Zip and Reduce against host
// computations on random inputs at several sizes, the lazy transfers, every distribution and
// redistribution, matrices, the dot product, and the errors.
#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <span>
#include <tuple>
#include <utility>

#include "RandomInputs.h"
#include "skelcl/SkelCL.h"
#include "skelcl/Transfers.h"
#include "skelcl/programs/DotProduct.h"
#include "skelcl/programs/ManhattanDistance.h"
#include "skelcl/programs/MatrixMultiplication.h"
#include "skelcl/programs/PrefixSum.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

// OpenCL may contract a * b + c into one fma: results may differ from the host's in the last bit.
bool close(float a, float b) { return std::fabs(a - b) <= 1e-6f * std::max(1.0f, std::fabs(b)); }

// Sizes around the device count and the reduction's chunking: 1, primes, not multiples of 2
// or 3, more than kMaxChunks, and not a multiple of it.
const std::vector<size_t> kSizes = {1, 2, 3, 7, 64, 1000, 1023, 1025, 4099, 100003};

const std::vector<Distribution> kDistributions = {Distribution::single(0),  Distribution::single(1),
                                                  Distribution::copy(),     Distribution::block(),
                                                  Distribution::overlap(1), Distribution::overlap(5)};

// The dot product written directly against OpenCL, for comparison with the library's five lines
// (TestSkelCL::dotProduct): skelcl/programs/DotProduct.h.
float openclDotProduct(const std::vector<float>& a, const std::vector<float>& b) {
  return OpenclDotProduct()(a, b);
}

// The exclusive prefix sum written directly against OpenCL, for comparison with the library's
// two lines (TestSkelCL::prefixSum): skelcl/programs/PrefixSum.h.
std::vector<float> openclPrefixSum(const std::vector<float>& a) { return OpenclPrefixSum()(a); }

}  // namespace

class TestSkelCL : public QObject {
  Q_OBJECT

  std::shared_ptr<DeviceSet> one_;  // the first device
  std::shared_ptr<DeviceSet> two_;  // the first device, twice

 private slots:
  void initTestCase() {
    one_ = DeviceSet::open({"0"});
    two_ = DeviceSet::open({"0", "0"});
    QCOMPARE(two_->size(), 2);
  }

  void distributionParts() {
    auto parts = partsOf(Distribution::block(), 7, 2);
    QCOMPARE(parts.size(), size_t(2));
    QCOMPARE(parts[0].begin, size_t(0));
    QCOMPARE(parts[0].end, size_t(4));
    QCOMPARE(parts[1].begin, size_t(4));
    QCOMPARE(parts[1].end, size_t(7));
    parts = partsOf(Distribution::overlap(2), 7, 2);
    QCOMPARE(parts[0].storedBegin, size_t(0));
    QCOMPARE(parts[0].storedEnd, size_t(6));
    QCOMPARE(parts[1].storedBegin, size_t(2));
    QCOMPARE(parts[1].storedEnd, size_t(7));
    QCOMPARE(partsOf(Distribution::block(), 1, 2).size(), size_t(1));  // a device without rows
    QCOMPARE(partsOf(Distribution::copy(), 5, 3).size(), size_t(3));
    QCOMPARE(partsOf(Distribution::single(2), 5, 3).at(0).device, 2);
    QVERIFY_THROWS_EXCEPTION(LiftError, partsOf(Distribution::single(3), 5, 3));
  }

  void mapAllSizesAndDistributions() {
    Map<float(float)> f("float func(float x) { return x * x - 2.0f * x; }");
    for (size_t n : kSizes)
      for (const Distribution& d : kDistributions) {
        std::vector<float> in = randomFloats(n, static_cast<unsigned>(n));
        Vector<float> x(two_, in);
        x.setDistribution(d);
        Vector<float> y = f(x);
        QVERIFY(y.distribution() == d);
        std::span<const float> out = y.hostData();
        for (size_t i = 0; i < n; ++i)
          QVERIFY2(close(out[i], in[i] * in[i] - 2.0f * in[i]),
                   qPrintable(QString("n=%1 %2 element %3").arg(n).arg(d.describe().c_str()).arg(i)));
      }
  }

  void mapChangesType() {
    Map<int32_t(float)> sign("int func(float x) { return x < 0.0f ? -1 : 1; }");
    std::vector<float> in = randomFloats(333, 3);
    Vector<float> x(two_, in);
    Vector<int32_t> s = sign(x);
    for (size_t i = 0; i < in.size(); ++i) QCOMPARE(s[i], in[i] < 0.0f ? -1 : 1);
  }

  void zipAllSizesAndDistributions() {
    Zip<float(float, int32_t)> scale("float func(float x, int k) { return x * k + 1.0f; }");
    for (size_t n : kSizes)
      for (const Distribution& d : kDistributions) {
        std::vector<float> a = randomFloats(n, 11);
        std::vector<int32_t> b = randomInts(n, 12);
        Vector<float> x(two_, a);
        Vector<int32_t> k(two_, b);
        x.setDistribution(d);
        Vector<float> z = scale(x, k);
        QVERIFY(z.distribution() == d);
        QVERIFY(k.distribution() == d);  // the second input follows the first
        for (size_t i = 0; i < n; ++i) QVERIFY(close(z[i], a[i] * static_cast<float>(b[i]) + 1.0f));
      }
  }

  void zipRedistributesTheSecondInput() {
    Zip<float(float, float)> add("float func(float x, float y) { return x + y; }");
    std::vector<float> a = randomFloats(1001, 1), b = randomFloats(1001, 2);
    Vector<float> x(two_, a), y(two_, b);
    x.setDistribution(Distribution::block());
    y.setDistribution(Distribution::single(1));
    Vector<float> z = add(x, y);
    QVERIFY(*y.distribution() == Distribution::block());
    for (size_t i = 0; i < a.size(); ++i) QCOMPARE(z[i], a[i] + b[i]);
  }

  void reduceAllSizesAndDistributions() {
    Reduce<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    Reduce<int32_t(int32_t)> max("int func(int x, int y) { return max(x, y); }", "-1000");
    for (size_t n : kSizes)
      for (const Distribution& d : kDistributions) {
        std::vector<int32_t> in = randomInts(n, static_cast<unsigned>(n) + 5);
        Vector<int32_t> x(two_, in);
        x.setDistribution(d);
        const QString where = QString("n=%1 %2").arg(n).arg(d.describe().c_str());
        QVERIFY2(sum(x) == std::accumulate(in.begin(), in.end(), 0), qPrintable(where));
        QVERIFY2(max(x) == *std::max_element(in.begin(), in.end()), qPrintable(where));
      }
  }

  void reduceFloatsAndIdentity() {
    Reduce<float(float)> product("float func(float x, float y) { return x * y; }", "1.0f");
    Vector<float> x(one_, std::vector<float>(777, 1.0f));
    x.set(5, 2.0f);
    x.set(700, -3.0f);
    QCOMPARE(product(x), -6.0f);
    Vector<float> empty(one_, 0);
    QCOMPARE(product(empty), 1.0f);
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }");
    std::vector<float> in = randomFloats(100003, 9);
    Vector<float> v(two_, in);
    double expected = std::accumulate(in.begin(), in.end(), 0.0);
    QVERIFY(std::fabs(sum(v) - expected) < 1e-2);
  }

  void scanAllSizesAndDistributions() {
    Scan<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    Scan<int32_t(int32_t)> max("int func(int x, int y) { return max(x, y); }", "-1000");
    for (ScanForm form : {ScanForm::Chunks, ScanForm::WorkGroups, ScanForm::WorkGroupsMultiPass})
      for (size_t n : kSizes)
        for (const Distribution& d : kDistributions) {
          sum.setForm(form);
          max.setForm(form);
          std::vector<int32_t> in = randomInts(n, static_cast<unsigned>(n) + 7);
          Vector<int32_t> x(two_, in);
          x.setDistribution(d);
          const QString where = QString("n=%1 %2 %3").arg(n).arg(d.describe().c_str()).arg(int(form));
          if (d.kind() == Distribution::Kind::Overlap) {
            QVERIFY_THROWS_EXCEPTION(LiftError, sum(x));
            continue;
          }
          Vector<int32_t> s = sum(x), m = max(x);
          QVERIFY2(s.distribution() == d, qPrintable(where));
          int32_t accSum = 0, accMax = -1000;
          for (size_t i = 0; i < n; ++i) {
            if (s[i] != accSum || m[i] != accMax) QFAIL(qPrintable(where + QString(" element %1").arg(i)));
            accSum += in[i];
            accMax = std::max(accMax, in[i]);
          }
        }
  }

  // A scan combines in order (the tiles' sums, the work-group's scan of them in local memory,
  // the devices' parts): an associative function that is not commutative — the composition of
  // affine maps x -> m*x + c modulo 16, packed as 16*m + c, identity 16 (m = 1, c = 0) — against
  // a sequential scan on the host, at sizes below, at and above a work-group's 256 elements and
  // with several elements a work-item (more than 1024 chunks; in work-groups more than 256 tiles
  // of 1024, so that each work-item of the totals' scan has two, and more than 1024 tiles, so
  // that the tiles' totals are scanned in tiles of their own), in every form (the single pass
  // has tiles of 4096: tst_skelcl_scan tests it around them).
  void scanCombinesInOrder() {
    const char* compose =
        "int func(int a, int b) { return ((a / 16) * (b / 16) % 16) * 16 + ((b / 16) * (a % 16) + b % 16) % "
        "16; }";
    auto host = [](int32_t a, int32_t b) {
      return ((a / 16) * (b / 16) % 16) * 16 + ((b / 16) * (a % 16) + b % 16) % 16;
    };
    Scan<int32_t(int32_t)> scan(compose, "16");
    for (ScanForm form : {ScanForm::Chunks, ScanForm::WorkGroups, ScanForm::WorkGroupsMultiPass})
      for (size_t n :
           {size_t(1), size_t(255), size_t(256), size_t(257), size_t(4099), size_t(300007), size_t(1052675)})
        for (const Distribution& d : kDistributions) {
          if (d.kind() == Distribution::Kind::Overlap) continue;
          scan.setForm(form);
          std::mt19937 gen(static_cast<unsigned>(n));
          std::vector<int32_t> in(n);
          for (int32_t& v : in) v = static_cast<int32_t>(gen() % 256);
          Vector<int32_t> x(two_, in);
          x.setDistribution(d);
          Vector<int32_t> y = scan(x);
          std::span<const int32_t> out = y.hostData();
          int32_t acc = 16;
          for (size_t i = 0; i < n; ++i) {
            if (out[i] != acc)  // the message only on a failure: it costs more than the check
              QFAIL(qPrintable(QString("n=%1 %2 form %6 element %3: %4, expected %5")
                                   .arg(n)
                                   .arg(d.describe().c_str())
                                   .arg(i)
                                   .arg(out[i])
                                   .arg(acc)
                                   .arg(int(form))));
            acc = host(acc, in[i]);
          }
        }
  }

  // SkelCL's prefix sum in two lines, against the plain OpenCL version and the host (all three
  // near the host's sums: the library adds in another order, its work-groups' scans).
  void prefixSum() {
    for (size_t n :
         {size_t(1), size_t(255), size_t(1000), size_t(4096), size_t(4097), size_t(65537), size_t(100003)}) {
      std::vector<float> a = randomFloats(n, 3);
      // -- SkelCL prefix sum: begin
      Scan<float(float)> prefixSum("float func(float x, float y) { return x + y; }", "0");
      Vector<float> y = prefixSum(Vector<float>(one_, a));
      // -- SkelCL prefix sum: end
      const std::vector<float> plain = openclPrefixSum(a);
      std::span<const float> library = y.hostData();
      Vector<float> x2(two_, a);  // block-distributed over the device named twice
      Vector<float> y2 = prefixSum(x2);
      std::span<const float> blocks = y2.hostData();
      double expected = 0;
      for (size_t i = 0; i < n; ++i) {
        const double tolerance = 1e-4 * std::max(1.0, std::sqrt(double(i)));
        QVERIFY2(std::fabs(plain[i] - expected) < tolerance && std::fabs(library[i] - expected) < tolerance &&
                     std::fabs(blocks[i] - expected) < tolerance,
                 qPrintable(QString("n=%1 element %2: %3, %4, %5 vs %6")
                                .arg(n)
                                .arg(i)
                                .arg(plain[i])
                                .arg(library[i])
                                .arg(blocks[i])
                                .arg(expected)));
        expected += a[i];
      }
    }
  }

  void lazyTransfers() {
    Map<float(float)> neg("float func(float x) { return -x; }");
    std::vector<float> in = randomFloats(1000, 4);
    Vector<float> x(two_, in);
    x.setDistribution(Distribution::block());
    QCOMPARE(x.transfers().uploads, uint64_t(0));  // nothing moves before a skeleton needs it

    Vector<float> y = neg(x);
    QCOMPARE(x.transfers().uploads, uint64_t(2));  // one per device part
    QCOMPARE(x.transfers().uploadedBytes, uint64_t(4000));
    QCOMPARE(y.transfers().uploads + y.transfers().downloads, uint64_t(0));
    QVERIFY(!y.hostIsCurrent());

    Vector<float> z = neg(y);  // y is on the devices: nothing uploaded
    Vector<float> w = neg(x);  // nor is x again
    QCOMPARE(y.transfers().uploads, uint64_t(0));
    QCOMPARE(x.transfers().uploads, uint64_t(2));

    // A host read after a device write downloads once.
    for (size_t i = 0; i < in.size(); ++i) QCOMPARE(z[i], in[i]);
    QCOMPARE(z.transfers().downloads, uint64_t(2));
    QCOMPARE(z.transfers().downloadedBytes, uint64_t(4000));
    QCOMPARE(z[0], in[0]);
    QCOMPARE(z.transfers().downloads, uint64_t(2));

    // Reading on the host keeps the device copies current: the next skeleton uploads nothing.
    Vector<float> again = neg(z);
    QCOMPARE(z.transfers().uploads, uint64_t(0));
    // A host write makes them stale: the next skeleton uploads again.
    z.set(3, 42.0f);
    Vector<float> after = neg(z);
    QCOMPARE(z.transfers().uploads, uint64_t(2));
    QCOMPARE(after[3], -42.0f);
    QCOMPARE(again[3], -in[3]);

    // Reduce reads its input where it is.
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }");
    sum(w);
    QCOMPARE(w.transfers().uploads + w.transfers().downloads, uint64_t(0));
  }

  void copyDownloadsOnce() {
    Map<float(float)> twice("float func(float x) { return 2.0f * x; }");
    Vector<float> x(two_, randomFloats(100, 1));
    x.setDistribution(Distribution::copy());
    Vector<float> y = twice(x);
    QCOMPARE(x.transfers().uploads, uint64_t(2));  // a copy to each device
    (void)y[0];
    QCOMPARE(y.transfers().downloads, uint64_t(1));  // every copy is whole: one download
  }

  void everyRedistribution() {
    Map<float(float)> inc("float func(float x) { return x + 1.0f; }");
    std::vector<float> in = randomFloats(1001, 8);
    for (const Distribution& from : kDistributions)
      for (const Distribution& to : kDistributions) {
        Vector<float> x(two_, in);
        x.setDistribution(from);
        Vector<float> y = inc(x);  // newest data on the devices, distributed as `from`
        y.setDistribution(to);
        QCOMPARE(y.hostIsCurrent(), from != to);  // a change goes through the host
        Vector<float> z = inc(y);
        QVERIFY(z.distribution() == to);
        std::span<const float> out = z.hostData();
        for (size_t i = 0; i < in.size(); ++i)
          QVERIFY2(
              out[i] == in[i] + 1.0f + 1.0f,
              qPrintable(
                  QString("%1 -> %2 element %3").arg(from.describe().c_str(), to.describe().c_str()).arg(i)));
      }
  }

  void redistributionOfCurrentHostDataDownloadsNothing() {
    Vector<float> x(two_, randomFloats(50, 1));
    x.setDistribution(Distribution::block());
    x.setDistribution(Distribution::copy());
    x.setDistribution(Distribution::single(1));
    QCOMPARE(x.transfers().uploads + x.transfers().downloads, uint64_t(0));
  }

  void overlapHalosAreConsistent() {
    // Map computes the halos too, so that a later redistribution or stencil reads them right.
    Map<float(float)> sq("float func(float x) { return x * x; }");
    std::vector<float> in = randomFloats(10, 2);
    Matrix<float> m(two_, 10, 1, in);
    m.setDistribution(Distribution::overlap(3));
    Matrix<float> r = sq(m);
    QCOMPARE(r.parts().size(), size_t(2));
    QCOMPARE(r.parts()[1].storedBegin, size_t(2));
    for (size_t i = 0; i < 10; ++i) QCOMPARE(r(i, 0), in[i] * in[i]);
  }

  void matrices() {
    const size_t rows = 37, cols = 13;
    std::vector<float> a = randomFloats(rows * cols, 21), b = randomFloats(rows * cols, 22);
    Matrix<float> A(two_, rows, cols, a), B(two_, rows, cols, b);
    Zip<float(float, float)> sub("float func(float x, float y) { return x - y; }");
    for (const Distribution& d : kDistributions) {
      A.setDistribution(d);
      Matrix<float> C = sub(A, B);
      QCOMPARE(C.rows(), rows);
      QCOMPARE(C.columns(), cols);
      for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) QCOMPARE(C(r, c), a[r * cols + c] - b[r * cols + c]);
      Reduce<float(float)> max("float func(float x, float y) { return fmax(x, y); }", "-1e30");
      QCOMPARE(max(A), *std::max_element(a.begin(), a.end()));
    }
  }

  // Transfers to and from several devices run at once: every operation runs, and the first
  // failure comes back once all have finished.
  void concurrentOperationsAllRunAndFailuresComeBack() {
    std::atomic<int> ran{0};
    std::vector<std::function<void()>> ops;
    for (int i = 0; i < 4; ++i)
      ops.push_back([&ran, i] {
        ++ran;
        if (i == 2) throw LiftError("part 2 failed");
      });
    QVERIFY_THROWS_EXCEPTION(LiftError, DeviceSet::concurrently(ops));
    QCOMPARE(ran.load(), 4);
    ops.pop_back();
    ops.erase(ops.begin() + 2);
    DeviceSet::concurrently(ops);
    QCOMPARE(ran.load(), 6);
  }

  // A container counts a transfer once it has completed: a part whose copy failed is not in
  // the statistics (runTransfers is what uploads and downloads go through).
  void failedTransfersAreNotCounted() {
    TransferStats stats;
    std::vector<Transfer> copies;
    for (uint64_t bytes : {100, 200, 400})
      copies.push_back({bytes, [bytes] {
                          if (bytes == 200) throw LiftError("part 1 failed");
                        }});
    QVERIFY_THROWS_EXCEPTION(LiftError, runTransfers(copies, TransferDirection::Download, stats));
    QCOMPARE(stats.downloads, uint64_t(2));
    QCOMPARE(stats.downloadedBytes, uint64_t(500));
    QCOMPARE(stats.uploads + stats.uploadedBytes, uint64_t(0));
    copies.erase(copies.begin() + 1);
    runTransfers(copies, TransferDirection::Upload, stats);
    QCOMPARE(stats.uploads, uint64_t(2));
    QCOMPARE(stats.uploadedBytes, uint64_t(500));
    // One copy alone runs on the calling thread; its failure is not counted either.
    QVERIFY_THROWS_EXCEPTION(
        LiftError, runTransfers({{8, [] { throw LiftError("failed"); }}}, TransferDirection::Upload, stats));
    QCOMPARE(stats.uploads, uint64_t(2));
  }

  // Host copies in page-locked memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer): the same values
  // and the same lazy transfers as pageable ones, through every distribution and the skeletons
  // that download (Map's output), combine on the host (Reduce, Scan) and redistribute.
  void pageLockedHostMemory() {
    auto pinned = DeviceSet::open({"0", "0"});
    pinned->setHostMemory(HostMemory::PageLocked);
    Map<float(float)> inc("float func(float x) { return x + 1.0f; }");
    Reduce<float(float)> max("float func(float x, float y) { return fmax(x, y); }", "-1e30");
    Scan<int32_t(int32_t)> prefixSum("int func(int x, int y) { return x + y; }", "0");
    for (size_t n : {size_t(1), size_t(1000), size_t(4099)})
      for (const Distribution& d : kDistributions) {
        const QString where = QString("n=%1 %2").arg(n).arg(d.describe().c_str());
        std::vector<float> in = randomFloats(n, 9);
        Vector<float> x(pinned, in);
        x.setDistribution(d);
        Vector<float> y = inc(x);
        Vector<float> z = inc(y);
        QCOMPARE(z.transfers().downloads, uint64_t(0));
        for (size_t i = 0; i < n; ++i) QVERIFY2(z[i] == in[i] + 2.0f, qPrintable(where));
        QVERIFY2(z.transfers().downloads > 0, qPrintable(where));
        QCOMPARE(max(x), *std::max_element(in.begin(), in.end()));
        z.setDistribution(Distribution::block());
        z.set(0, 5.0f);
        QCOMPARE(inc(z)[0], 6.0f);
        if (d.kind() == Distribution::Kind::Overlap) continue;  // Scan refuses overlap
        std::vector<int32_t> ints = randomInts(n, 10);
        Vector<int32_t> a(pinned, ints);
        a.setDistribution(d);
        Vector<int32_t> sums = prefixSum(a);
        int32_t expected = 0;
        for (size_t i = 0; i < n; ++i) {
          QVERIFY2(sums[i] == expected, qPrintable(where));
          expected += ints[i];
        }
      }
    Vector<float> zeros(pinned, 3);
    QCOMPARE(zeros[2], 0.0f);
    QCOMPARE(hostMemoryNamed("page-locked"), std::optional<HostMemory>(HostMemory::PageLocked));
    QCOMPARE(hostMemoryNamed("pinned"), std::optional<HostMemory>());
  }

  void allPairsMatrixMultiplication() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    AllPairs<float(float, float)> mm(sum, mult);
    for (auto [n, d, m] : {std::tuple<size_t, size_t, size_t>{1, 1, 1}, {7, 5, 3}, {33, 17, 65}})
      for (const Distribution& dist : kDistributions) {
        std::vector<float> a = randomFloats(n * d, 31), b = randomFloats(d * m, 32);
        Matrix<float> A(two_, n, d, a), B(two_, d, m, b);
        A.setDistribution(dist);
        B.setDistribution(Distribution::block());  // redistributed to copy
        Matrix<float> C = mm(A, B);
        QCOMPARE(C.rows(), n);
        QCOMPARE(C.columns(), m);
        QVERIFY(C.distribution() == dist);
        QVERIFY(*B.distribution() == Distribution::copy());
        for (size_t i = 0; i < n; ++i)
          for (size_t j = 0; j < m; ++j) {
            float expected = 0;
            for (size_t k = 0; k < d; ++k) expected += a[i * d + k] * b[k * m + j];
            QVERIFY2(std::fabs(C(i, j) - expected) < 1e-4f, qPrintable(QString("%1x%2x%3 %4 (%5, %6)")
                                                                           .arg(n)
                                                                           .arg(d)
                                                                           .arg(m)
                                                                           .arg(dist.describe().c_str())
                                                                           .arg(i)
                                                                           .arg(j)));
          }
      }
  }

  // Pairwise Manhattan distance (SkelCL's second allpairs example), int elements, A with itself.
  void allPairsManhattanDistance() {
    Zip<int32_t(int32_t, int32_t)> absDiff("int func(int x, int y) { return abs(x - y); }");
    Reduce<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    AllPairs<int32_t(int32_t, int32_t)> manhattan(sum, absDiff);
    const size_t n = 9, d = 4, m = 11;
    std::vector<int32_t> a = randomInts(n * d, 41), b = randomInts(d * m, 42);
    Matrix<int32_t> A(two_, n, d, a), B(two_, d, m, b);
    Matrix<int32_t> C = manhattan(A, B);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < m; ++j) {
        int32_t expected = 0;
        for (size_t k = 0; k < d; ++k) expected += std::abs(a[i * d + k] - b[k * m + j]);
        QCOMPARE(C(i, j), expected);
      }
    Matrix<int32_t> S(two_, d, d, randomInts(d * d, 43));
    S.setDistribution(Distribution::block());
    Matrix<int32_t> SS = manhattan(S, S);  // the same matrix on both sides
    for (size_t i = 0; i < d; ++i)
      for (size_t j = 0; j < d; ++j) {
        int32_t expected = 0;
        for (size_t k = 0; k < d; ++k) expected += std::abs(S(i, k) - S(k, j));
        QCOMPARE(SS(i, j), expected);
      }
    Matrix<int32_t> wrong(two_, d + 1, m);
    QVERIFY_THROWS_EXCEPTION(LiftError, manhattan(A, wrong));
  }

  // The seed's matrix multiplication and Manhattan distances (skelcl/programs/): the library over
  // the device named twice and the plain OpenCL versions (16 x 16 tiles through local memory, one
  // object for every shape) against the host, at shapes that are no multiples of the tile.
  void allPairsProgramsAgainstPlainOpenCL() {
    const MatrixMultiplication mm;
    const ManhattanDistance manhattan;
    OpenclMatrixMultiplication plainMm;
    OpenclManhattanDistance plainManhattan;
    for (auto [n, d, m] : {std::tuple<size_t, size_t, size_t>{1, 1, 1},
                           {17, 64, 100},
                           {100, 17, 64},
                           {64, 100, 17},
                           {16, 16, 16},
                           {1, 100, 1},
                           {33, 1, 17}}) {
      const std::vector<float> a = randomFloats(n * d, 51), b = randomFloats(d * m, 52);
      // -- SkelCL matrix multiplication and Manhattan distance use: begin
      Matrix<float> A(two_, n, d, a), B(two_, d, m, b);
      const Matrix<float> product = mm(A, B), distances = manhattan(A, B);
      // -- SkelCL matrix multiplication and Manhattan distance use: end
      const std::vector<float> plainProduct = plainMm(a, b, n, d, m);
      std::vector<float> plainDistances(3, 7.0f);  // resized by the download
      plainManhattan.upload(a, b, n, d, m);
      plainManhattan.run();
      plainManhattan.download(plainDistances);
      QCOMPARE(plainProduct.size(), n * m);
      QCOMPARE(plainDistances.size(), n * m);
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < m; ++j) {
          double p = 0, dist = 0;
          for (size_t k = 0; k < d; ++k) {
            p += double(a[i * d + k]) * b[k * m + j];
            dist += std::fabs(double(a[i * d + k]) - b[k * m + j]);
          }
          const QString where = QString("%1x%2x%3 (%4, %5)").arg(n).arg(d).arg(m).arg(i).arg(j);
          QVERIFY2(
              std::fabs(product(i, j) - p) < 1e-4 && std::fabs(plainProduct[i * m + j] - p) < 1e-4,
              qPrintable(where +
                         QString(": %1, %2 vs %3").arg(product(i, j)).arg(plainProduct[i * m + j]).arg(p)));
          QVERIFY2(
              std::fabs(distances(i, j) - dist) < 1e-4 && std::fabs(plainDistances[i * m + j] - dist) < 1e-4,
              qPrintable(
                  where +
                  QString(": %1, %2 vs %3").arg(distances(i, j)).arg(plainDistances[i * m + j]).arg(dist)));
        }
    }
  }

  // SkelCL's example: the dot product in five lines, one fused kernel per device (ZipReduce),
  // against Reduce applied to Zip's result, the plain OpenCL version and the host, block-distributed
  // over the device named twice.
  void dotProduct() {
    for (size_t n : {size_t(1), size_t(2), size_t(1000), size_t(1025), size_t(4099), size_t(65537)}) {
      std::vector<float> a = randomFloats(n, 1), b = randomFloats(n, 2);
      // -- SkelCL dot product: begin
      Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
      Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
      ZipReduce<float(float, float)> dotProduct(sum, mult);
      Vector<float> x(two_, a), y(two_, b);
      float dot = dotProduct(x, y);
      // -- SkelCL dot product: end
      double expected = 0;
      for (size_t i = 0; i < n; ++i) expected += double(a[i]) * b[i];
      const double tolerance = 1e-3 * std::max(1.0, std::sqrt(double(n)));
      QVERIFY2(std::fabs(dot - expected) < tolerance,
               qPrintable(QString("n=%1: %2 vs %3").arg(n).arg(dot).arg(expected)));
      QCOMPARE(x.parts().size(), size_t(n > 1 ? 2 : 1));
      QVERIFY(std::fabs(sum(mult(x, y)) - expected) < tolerance);
      QVERIFY(std::fabs(openclDotProduct(a, b) - expected) < tolerance);
      Vector<float> x1(one_, a), y1(one_, b);
      QVERIFY(std::fabs(dotProduct(x1, y1) - expected) < tolerance);
    }
  }

  // ZipReduce over every distribution (an overlap part's halo not counted twice, a copy folded
  // once), a second input distributed otherwise, matrices, ints with another identity, the
  // identity of empty vectors, and its errors.
  void zipReduce() {
    Zip<int32_t(int32_t, int32_t)> diff("int func(int x, int y) { return abs(x - y); }");
    Reduce<int32_t(int32_t)> max("int func(int x, int y) { return max(x, y); }", "-1");
    ZipReduce<int32_t(int32_t, int32_t)> maxDistance(max, diff);
    Zip<int32_t(int32_t, int32_t)> mult("int func(int x, int y) { return x * y; }");
    Reduce<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    ZipReduce<int32_t(int32_t, int32_t)> dot(sum, mult);
    for (ZipReduceForm form : {ZipReduceForm::Chunks, ZipReduceForm::Coalesced})
      for (size_t n : kSizes)
        for (const Distribution& d : kDistributions) {
          dot.setForm(form);
          maxDistance.setForm(form);
          const std::vector<int32_t> a = randomInts(n, 7), b = randomInts(n, 8);
          int32_t expectedDot = 0, expectedMax = -1;
          for (size_t i = 0; i < n; ++i) {
            expectedDot += a[i] * b[i];
            expectedMax = std::max(expectedMax, std::abs(a[i] - b[i]));
          }
          Vector<int32_t> x(two_, a), y(two_, b);
          x.setDistribution(d);
          const QString where = QString("n=%1 %2 %3")
                                    .arg(n)
                                    .arg(QString::fromStdString(d.describe()))
                                    .arg(form == ZipReduceForm::Coalesced ? "coalesced" : "chunks");
          QVERIFY2(dot(x, y) == expectedDot, qPrintable(where));
          QVERIFY2(maxDistance(x, y) == expectedMax, qPrintable(where));
          QVERIFY2(x.transfers().downloads == 0, qPrintable(where));  // nothing came back but the result
        }
    const size_t rows = 37, columns = 29;
    const std::vector<int32_t> a = randomInts(rows * columns, 9), b = randomInts(rows * columns, 10);
    Matrix<int32_t> A(two_, rows, columns, a), B(two_, rows, columns, b);
    B.setDistribution(Distribution::copy());
    QCOMPARE(dot(A, B), std::inner_product(a.begin(), a.end(), b.begin(), 0));
    Vector<int32_t> empty1(two_, 0), empty2(two_, 0);
    QCOMPARE(dot(empty1, empty2), 0);
    QCOMPARE(maxDistance(empty1, empty2), -1);
    Vector<int32_t> p(two_, 10), q(two_, 11), r(one_, 10);
    QVERIFY_THROWS_EXCEPTION(LiftError, dot(p, q));
    QVERIFY_THROWS_EXCEPTION(LiftError, dot(p, r));
  }

  // The fused kernel: one launch reads both inputs and never stores a product; GPUs get the
  // coalesced form.
  void zipReduceIsOneFusedKernel() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    ZipReduce<float(float, float)> dot(sum, mult);
    for (const SkeletonKernel* k : {&dot.skeleton().coalescedKernel(), &dot.skeleton().chunkedKernel()}) {
      QCOMPARE(QString::fromStdString(k->compiled().kernelName), QString("skelcl_zipreduce"));
      QCOMPARE(k->compiled().params.size(), size_t(5));  // x, y, the partial results, G, C
      QVERIFY(k->compiled().source.find("reduced(") != std::string::npos);
      QVERIFY(k->compiled().source.find("zipped(") != std::string::npos);
    }
    QVERIFY(zipReduceProgram(mult.skeleton().userFunction(), sum.skeleton().userFunction(), "0.0f", true)
                .find("transpose o split(G) $ zip(x, y)") != std::string::npos);
  }

  void kernelsComeFromTheLiftCompiler() {
    Map<float(float)> neg("float func(float x) { return -x; }");
    QCOMPARE(QString::fromStdString(neg.kernel().compiled().kernelName), QString("skelcl_map"));
    QVERIFY(neg.kernel().compiled().source.find("float func(float x) { return -x; }") != std::string::npos);
    QVERIFY(neg.kernel().compiled().source.find("get_global_id(0)") != std::string::npos);
    Reduce<float(float)> sum("float func(float a, float b) { return a + b; }");
    QVERIFY(sum.kernel().compiled().source.find("acc1 = 0.000000000e+00f") != std::string::npos);
  }

  void errors() {
    // Sizes that do not match.
    Zip<float(float, float)> add("float func(float x, float y) { return x + y; }");
    Vector<float> a(two_, 10), b(two_, 11);
    QVERIFY_THROWS_EXCEPTION(LiftError, add(a, b));
    Matrix<float> m(two_, 2, 6), n(two_, 3, 4);
    QVERIFY_THROWS_EXCEPTION(LiftError, add(m, n));
    QVERIFY_THROWS_EXCEPTION(LiftError, Matrix<float>(two_, 2, 3, std::vector<float>(5)));
    // Containers on different device sets.
    Vector<float> c(one_, 10);
    QVERIFY_THROWS_EXCEPTION(LiftError, add(a, c));
    // Unknown devices.
    QVERIFY_THROWS_EXCEPTION(LiftError, a.setDistribution(Distribution::single(2)));
    QVERIFY_THROWS_EXCEPTION(LiftError, a.setDistribution(Distribution::single(-1)));
    QVERIFY(!a.distribution());  // unchanged
    QVERIFY_THROWS_EXCEPTION(LiftError, DeviceSet::open({"no-such-device-anywhere"}));
    QVERIFY_THROWS_EXCEPTION(LiftError, DeviceSet::open({}));
    QVERIFY_THROWS_EXCEPTION(LiftError, two_->context(2));
    // A device that fails: its OpenCL error names the device and what it was doing.
    try {
      two_->guarded(1, "uploading 4 bytes",
                    [] { throw cl::Error(CL_OUT_OF_RESOURCES, "clEnqueueWriteBuffer"); });
      QFAIL("no DeviceError");
    } catch (const DeviceError& e) {
      QCOMPARE(e.device(), 1);
      QVERIFY2(std::string(e.what()).find("device 1 (") != std::string::npos, e.what());
      QVERIFY2(
          std::string(e.what()).find("uploading 4 bytes failed: CL_OUT_OF_RESOURCES") != std::string::npos,
          e.what());
    }
    // Out of range.
    QVERIFY_THROWS_EXCEPTION(LiftError, a[10]);
    QVERIFY_THROWS_EXCEPTION(LiftError, m(2, 0));
  }

  void userFunctionErrors() {
    auto message = [](const std::function<void()>& f) -> std::string {
      try {
        f();
      } catch (const LiftError& e) {
        return e.what();
      }
      return "no error";
    };
    std::string m = message([] { Map<float(float)> f("int func(float x) { return 1; }"); });
    QVERIFY2(m.find("Map<float(float)>: the return type is int") != std::string::npos, m.c_str());
    m = message([] { Map<float(float)> f("float func(float x, float y) { return x; }"); });
    QVERIFY2(m.find("2 parameters, the skeleton passes 1") != std::string::npos, m.c_str());
    m = message([] { Zip<float(float, int32_t)> f("float func(float x, float y) { return x; }"); });
    QVERIFY2(m.find("parameter 2 (y) is float, the skeleton passes int") != std::string::npos, m.c_str());
    m = message([] { Map<float(float)> f("float func(float x) return x;"); });
    QVERIFY2(m.find("no body in braces") != std::string::npos, m.c_str());
    m = message([] { Map<float(float)> f("float func(float x) { return y; }"); });  // the C subset's checks
    QVERIFY2(m.find("'y'") != std::string::npos, m.c_str());
    m = message([] { Reduce<float(float)> f("float func(float x, float y) { return x + y; }", "zero"); });
    QVERIFY2(m.find("the identity \"zero\" is not a finite float literal") != std::string::npos, m.c_str());
    m = message([] { Scan<float(float)> f("float func(float x) { return x; }"); });
    QVERIFY2(m.find("Scan<float(float)>") != std::string::npos && m.find("1 parameter") != std::string::npos,
             m.c_str());
    m = message([] { Scan<int32_t(int32_t)> f("int func(int x, int y) { return x + y; }", "1.5"); });
    QVERIFY2(m.find("the identity \"1.5\" is not a finite int literal") != std::string::npos, m.c_str());
    m = message([this] {
      Scan<float(float)> f("float func(float x, float y) { return x + y; }");
      Vector<float> x(two_, 10);
      x.setDistribution(Distribution::overlap(1));
      f(x);
    });
    QVERIFY2(m.find("distributed as overlap(1)") != std::string::npos, m.c_str());
  }
};

QTEST_GUILESS_MAIN(TestSkelCL)
#include "tst_skelcl.moc"
