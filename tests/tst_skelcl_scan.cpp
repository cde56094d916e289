// SkelCL's scan in work-groups on the first OpenCL device (PoCL on CPU machines), also named twice
// so that the block distribution combines two parts: the single pass with decoupled look-back
// (skelcl/SinglePassScan.h) and the multi-pass form against a scan on the host — float sums
// within a tolerance scaled by the size, int sums, int max and a composition of affine maps
// (associative, not commutative) exactly — at sizes around the single pass's tile of 4096 and
// over many tiles; repeated runs (the status words zeroed each run, the scratch buffers reused);
// the form chosen per device; and the device buffer pool that new outputs and the scan's scratch
// buffers come from (skelcl/DeviceBufferPool.h).
#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <random>
#include <span>

#include "skelcl/SkelCL.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

constexpr size_t kTile = SinglePassScanKernel::kTile;

// 1 and a few elements (a partial vector), around one tile, around several, and many tiles (more
// than the look-back's window of 32 predecessors).
const std::vector<size_t> kSizes = {1, 2, 5, kTile - 1, kTile, kTile + 1, 3 * kTile + 7, 100 * kTile + 123};

const std::vector<Distribution> kDistributions = {Distribution::single(0), Distribution::block(),
                                                  Distribution::copy()};

const char* kCompose =
    "int func(int a, int b) { return ((a / 16) * (b / 16) % 16) * 16 + ((b / 16) * (a % 16) + b % 16) % 16; "
    "}";

int32_t compose(int32_t a, int32_t b) {
  return ((a / 16) * (b / 16) % 16) * 16 + ((b / 16) * (a % 16) + b % 16) % 16;
}

const char* formName(ScanForm f) { return f == ScanForm::WorkGroups ? "one pass" : "multi-pass"; }

// The exclusive scan of `in` on the host with `f` from `identity`, compared with `out` exactly;
// an empty string when they match, else where they differ first.
template <class T>
QString exactDifference(const std::vector<T>& in, std::span<const T> out, T identity,
                        const std::function<T(T, T)>& f) {
  T acc = identity;
  for (size_t i = 0; i < in.size(); ++i) {
    if (out[i] != acc) return QString("element %1: %2, expected %3").arg(i).arg(out[i]).arg(acc);
    acc = f(acc, in[i]);
  }
  return {};
}

}  // namespace

class TestSkelCLScan : public QObject {
  Q_OBJECT

  std::shared_ptr<DeviceSet> one_;  // the first device
  std::shared_ptr<DeviceSet> two_;  // the first device, twice

 private slots:
  void initTestCase() {
    one_ = DeviceSet::open({"0"});
    two_ = DeviceSet::open({"0", "0"});
  }

  // Auto: chunks on the CPU device, the single pass on GPUs where the device's OpenCL C has the
  // atomics (1.1 and later) and the elements are 32 bits, else work-groups in several passes.
  void formPerDevice() {
    Scan<float(float)> scan("float func(float x, float y) { return x + y; }", "0");
    runtime::DeviceInfo device = one_->context(0).device().info();
    if (device.type == "CPU") QCOMPARE(scan.skeleton().formOn(device), ScanForm::Chunks);
    scan.setForm(ScanForm::WorkGroups);
    QVERIFY(SinglePassScanKernel::supports(device, runtime::ScalarType::Float));
    QVERIFY(!SinglePassScanKernel::supports(device, runtime::ScalarType::Double));
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroups);
    device.openclCVersion = "OpenCL C 1.0";
    QVERIFY(!SinglePassScanKernel::supports(device, runtime::ScalarType::Float));
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroupsMultiPass);
    device.type = "GPU";
    scan.setForm(ScanForm::Auto);
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroupsMultiPass);
    device.openclCVersion = "OpenCL C 3.0 ";
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroups);
    Scan<double(double)> doubles("double func(double x, double y) { return x + y; }", "0");
    QCOMPARE(doubles.skeleton().formOn(device), ScanForm::WorkGroupsMultiPass);
    scan.setForm(ScanForm::WorkGroups);
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroups);
    scan.setForm(ScanForm::WorkGroupsMultiPass);
    QCOMPARE(scan.skeleton().formOn(device), ScanForm::WorkGroupsMultiPass);
  }

  // Float sums near the host's (in double): within 1e-5 of the sum of the magnitudes before.
  void floatSums() {
    Scan<float(float)> prefixSum("float func(float x, float y) { return x + y; }", "0");
    for (ScanForm form : {ScanForm::WorkGroups, ScanForm::WorkGroupsMultiPass})
      for (size_t n : kSizes)
        for (const Distribution& d : kDistributions) {
          prefixSum.setForm(form);
          std::mt19937 gen(static_cast<unsigned>(n));
          std::uniform_real_distribution<float> dist(-1, 1);
          std::vector<float> in(n);
          for (float& v : in) v = dist(gen);
          Vector<float> x(two_, in);
          x.setDistribution(d);
          Vector<float> y = prefixSum(x);
          std::span<const float> out = y.hostData();
          double sum = 0, scale = 0;
          for (size_t i = 0; i < n; ++i) {
            if (std::fabs(out[i] - sum) > 1e-5 * scale + 1e-6)
              QFAIL(qPrintable(QString("n=%1 %2 %3 element %4: %5, expected %6")
                                   .arg(n)
                                   .arg(d.describe().c_str())
                                   .arg(formName(form))
                                   .arg(i)
                                   .arg(out[i])
                                   .arg(sum)));
            sum += in[i];
            scale += std::fabs(in[i]);
          }
        }
  }

  // Int sums, int max (an identity below every element) and the composition of affine maps
  // x -> m*x + c modulo 16 packed as 16*m + c (identity 16): exact, in order.
  void intScansExact() {
    Scan<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    Scan<int32_t(int32_t)> max("int func(int x, int y) { return max(x, y); }", "-1000");
    Scan<int32_t(int32_t)> affine(kCompose, "16");
    for (ScanForm form : {ScanForm::WorkGroups, ScanForm::WorkGroupsMultiPass})
      for (size_t n : kSizes)
        for (const Distribution& d : kDistributions) {
          sum.setForm(form);
          max.setForm(form);
          affine.setForm(form);
          std::mt19937 gen(static_cast<unsigned>(n) + 1);
          std::vector<int32_t> in(n);
          for (int32_t& v : in) v = static_cast<int32_t>(gen() % 256) - 100;
          std::vector<int32_t> maps(n);
          for (int32_t& v : maps) v = static_cast<int32_t>(gen() % 256);
          Vector<int32_t> x(two_, in), m(two_, maps);
          x.setDistribution(d);
          m.setDistribution(d);
          const QString where = QString("n=%1 %2 %3: ").arg(n).arg(d.describe().c_str()).arg(formName(form));
          QString diff = exactDifference<int32_t>(in, sum(x).hostData(), 0, std::plus<int32_t>());
          QVERIFY2(diff.isEmpty(), qPrintable(where + "sum " + diff));
          diff = exactDifference<int32_t>(in, max(x).hostData(), -1000,
                                          [](int32_t a, int32_t b) { return std::max(a, b); });
          QVERIFY2(diff.isEmpty(), qPrintable(where + "max " + diff));
          diff = exactDifference<int32_t>(maps, affine(m).hostData(), 16, compose);
          QVERIFY2(diff.isEmpty(), qPrintable(where + "affine " + diff));
        }
  }

  // Doubles (the kernel enables cl_khr_fp64): sums of small integers, exact.
  void doubleSums() {
    if (!one_->context(0).device().info().doubleSupported) QSKIP("the device has no doubles");
    Scan<double(double)> prefixSum("double func(double x, double y) { return x + y; }", "0");
    prefixSum.setForm(ScanForm::WorkGroups);
    for (size_t n : {size_t(3), kTile + 1, 5 * kTile + 9}) {
      std::vector<double> in(n);
      for (size_t i = 0; i < n; ++i) in[i] = double(i % 7) - 3;
      Vector<double> x(two_, in);
      const QString diff = exactDifference<double>(in, prefixSum(x).hostData(), 0, std::plus<double>());
      QVERIFY2(diff.isEmpty(), qPrintable(QString("n=%1: ").arg(n) + diff));
    }
  }

  // One skeleton run again and again, large and small sizes in turn (its scratch buffers and
  // status words from the run before), into new outputs and into an existing one.
  void repeatedRuns() {
    Scan<int32_t(int32_t)> affine(kCompose, "16");
    affine.setForm(ScanForm::WorkGroups);
    for (int round = 0; round < 3; ++round)
      for (size_t n : {40 * kTile + 5, size_t(7), 40 * kTile + 5, 2 * kTile}) {
        std::mt19937 gen(static_cast<unsigned>(n) + static_cast<unsigned>(round));
        std::vector<int32_t> maps(n);
        for (int32_t& v : maps) v = static_cast<int32_t>(gen() % 256);
        Vector<int32_t> x(two_, maps), y(two_, n);
        x.setDistribution(Distribution::block());
        const QString where = QString("round %1 n=%2: ").arg(round).arg(n);
        QString diff = exactDifference<int32_t>(maps, affine(x).hostData(), 16, compose);
        QVERIFY2(diff.isEmpty(), qPrintable(where + diff));
        for (int again = 0; again < 2; ++again) {
          affine(x, y);
          diff = exactDifference<int32_t>(maps, y.hostData(), 16, compose);
          QVERIFY2(diff.isEmpty(), qPrintable(where + "into an existing output " + diff));
        }
      }
  }

  // A new output takes the device buffer of one that was destroyed (same size, same context),
  // never one that a live container holds.
  void newOutputsReuseFreedBuffers() {
    auto devices = DeviceSet::open({"0"});
    DeviceBufferPool& pool = devices->bufferPool();
    Scan<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    sum.setForm(ScanForm::WorkGroups);
    const size_t n = 10 * kTile + 3;
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i % 5);
    Vector<int32_t> x(devices, in);
    x.prepareOnDevices(Distribution::single(0));
    cl_mem first = nullptr;
    {
      Vector<int32_t> y = sum(x);
      first = y.buffer(0)();
      QVERIFY(first != x.buffer(0)());
      QVERIFY(exactDifference<int32_t>(in, y.hostData(), 0, std::plus<int32_t>()).isEmpty());
    }
    QCOMPARE(pool.freeBytes(), n * sizeof(int32_t));
    const uint64_t reuses = pool.reuses();
    Vector<int32_t> y1 = sum(x);
    QCOMPARE(y1.buffer(0)(), first);  // the destroyed output's
    QCOMPARE(pool.reuses(), reuses + 1);
    QCOMPARE(pool.freeBytes(), size_t(0));
    Vector<int32_t> y2 = sum(x);  // y1 is alive: a buffer of its own
    QVERIFY(y2.buffer(0)() != first && y2.buffer(0)() != x.buffer(0)());
    QVERIFY(exactDifference<int32_t>(in, y1.hostData(), 0, std::plus<int32_t>()).isEmpty());
    QVERIFY(exactDifference<int32_t>(in, y2.hostData(), 0, std::plus<int32_t>()).isEmpty());
    // Assigned over: y1's buffer goes back and the next output of its size takes it.
    y1 = sum(x);
    Vector<int32_t> y3 = sum(x);
    QCOMPARE(y3.buffer(0)(), first);
    QVERIFY(exactDifference<int32_t>(in, y1.hostData(), 0, std::plus<int32_t>()).isEmpty());
    QVERIFY(exactDifference<int32_t>(in, y3.hostData(), 0, std::plus<int32_t>()).isEmpty());
    // Another size, or another context (the device named twice), gets a new buffer.
    Vector<int32_t> small(devices, std::vector<int32_t>(5, 1));
    { Vector<int32_t> gone = sum(x); }
    Vector<int32_t> other = sum(small);
    QCOMPARE(other[4], 4);
    QCOMPARE(pool.freeBytes(), n * sizeof(int32_t));
  }

  // The scan's scratch buffers are leases of the same pool, kept from run to run: a larger size
  // leases larger ones and gives the outgrown ones back; a smaller one reuses what it holds.
  void scratchBuffersLeasedFromPool() {
    auto devices = DeviceSet::open({"0"});
    DeviceBufferPool& pool = devices->bufferPool();
    Scan<int32_t(int32_t)> sum("int func(int x, int y) { return x + y; }", "0");
    sum.setForm(ScanForm::WorkGroups);
    Vector<int32_t> small(devices, std::vector<int32_t>(5, 1));
    small.prepareOnDevices(Distribution::single(0));
    Vector<int32_t> a = sum(small);
    QCOMPARE(a[4], 4);
    QCOMPARE(pool.freeBytes(), size_t(0));  // the scratch buffers are held, not free
    const size_t n = 10 * kTile + 3;
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i % 5);
    Vector<int32_t> big(devices, in);
    big.prepareOnDevices(Distribution::single(0));
    Vector<int32_t> b = sum(big);
    QVERIFY(exactDifference<int32_t>(in, b.hostData(), 0, std::plus<int32_t>()).isEmpty());
    // The small run's scratch given back: the word of its one tile (status and value); the tile
    // counter is one int whatever the size, and kept.
    const size_t outgrown = sizeof(cl_ulong);
    QCOMPARE(pool.freeBytes(), outgrown);
    Vector<int32_t> c = sum(small);
    QCOMPARE(c[4], 4);
    QCOMPARE(pool.freeBytes(), outgrown);  // the large scratch buffers fit
  }

  // The pool alone: exact sizes and contexts, the oldest free buffers dropped past its limit.
  void poolLimits() {
    auto pool = DeviceBufferPool::create(3500);
    const cl::Context& a = two_->context(0).context();
    const cl::Context& b = two_->context(1).context();
    cl_mem first = nullptr;
    {
      DeviceBufferPool::Lease l = pool->acquire(a, 1000);
      first = l.buffer()();
    }
    QCOMPARE(pool->freeBytes(), size_t(1000));
    QVERIFY(pool->acquire(b, 1000).buffer()() != first);     // another context
    QVERIFY(pool->acquire(a, 1001).buffer()() != first);     // another size
    DeviceBufferPool::Lease again = pool->acquire(a, 1000);  // freed by the two lines above: 1000 (b), 1001
    QCOMPARE(again.buffer()(), first);
    {
      DeviceBufferPool::Lease big = pool->acquire(a, 2000);
      DeviceBufferPool::Lease moved = std::move(big);  // one owner: given back once
    }
    QCOMPARE(pool->freeBytes(), size_t(2000 + 1001));  // 4001 > 3500: b's 1000, the oldest, dropped
    QCOMPARE(pool->reuses(), uint64_t(1));
    { DeviceBufferPool::Lease huge = pool->acquire(a, 4000); }  // above the limit: not kept
    QCOMPARE(pool->freeBytes(), size_t(3001));
  }
};

QTEST_GUILESS_MAIN(TestSkelCLScan)
#include "tst_skelcl_scan.moc"
