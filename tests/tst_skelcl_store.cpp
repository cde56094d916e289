// SkelCL skeletons taking their kernels from a result store (skelcl/StoredKernel.h): short
// searches of each skeleton's high-level program on the first OpenCL device (PoCL on CPU
// machines) fill a store; a device set given that store runs the stored kernels at the searched
// sizes (their results checked against the host) and the skeletons' own kernels at other sizes
// and over two devices (the device named twice), whose parts have other sizes. For Map, Zip,
// Reduce, Scan, Stencil (1-D and 2-D) and Map over an IndexMatrix also: a store whose best
// record no longer replays (a rule that does not exist) is ignored with a reason, and a device
// set without a store runs the skeleton's own kernel; the same for AllPairs with a general row
// function.
#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <random>

#include "RandomInputs.h"
#include "core/lang/Parser.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchProblem.h"
#include "rewrite/explore/SearchRunner.h"
#include "skelcl/SkelCL.h"
#include "skelcl/programs/GaussianBlur.h"

using namespace lift;
using namespace lift::skelcl;

class TestSkelCLStore : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::shared_ptr<explore::ResultStore> store_;

  // A short search of `liftText` at `sizes` on device 0 into the store; false when it found no
  // valid kernel.
  bool search(const std::string& liftText, const arith::Env& sizes) {
    explore::SearchOptions o;
    o.limits.maxKernels = 3;
    o.limits.seconds = 240;
    o.liftcPath = LIFT_LIFTC;
    o.cacheDir = dir_.filePath("cache").toStdString();
    o.run.repetitions = 2;
    explore::SearchRunner runner(
        explore::SearchProblem::make(lang::parseProgram(liftText, "skeleton"), sizes), o, store_.get());
    return !runner.run().best.empty();
  }

  // A store of its own holding one kernel of `liftText` at `sizes` on device 0, faster than any,
  // whose derivation names a rule that does not exist.
  std::shared_ptr<explore::ResultStore> staleStore(const std::string& liftText, const arith::Env& sizes,
                                                   const std::string& name) {
    auto stale =
        std::make_shared<explore::ResultStore>(dir_.filePath(QString::fromStdString(name)).toStdString());
    const explore::SearchProblem problem =
        explore::SearchProblem::make(lang::parseProgram(liftText, "skeleton"), sizes);
    explore::KernelRecord k;
    k.startHash = problem.startHash;
    k.programHash = problem.startHash;
    k.program = problem.name;
    k.sizes = problem.sizesText;
    k.device = explore::deviceName(DeviceSet::open({"0"})->context(0).device().info());
    k.derivation = "no-such-rule@0";
    k.parameters = "local=1";
    k.strategy = "replay";
    k.sourceHash = explore::hashText(name);
    k.status = "ok";
    k.medianMs = 1e-6;
    stale->addKernel(k);
    return stale;
  }

  // One skeleton and its store: a short search of its high-level program at `sizes`, then
  // `run(devices)` (which applies the skeleton to inputs of those sizes on `devices` and says
  // whether the result is the host's) with that store (the stored kernel runs), with a store
  // whose only kernel no longer replays (the skeleton's own kernel runs, whyNot says why) and
  // with none (the skeleton's own kernel runs).
  void checkStored(const StoredKernels& stored, const arith::Env& sizes, const std::string& name,
                   const std::function<bool(const std::shared_ptr<DeviceSet>&)>& run) {
    QVERIFY2(search(stored.liftText(), sizes), stored.liftText().c_str());
    auto devices = DeviceSet::open({"0"});
    devices->setResultStore(store_);
    QVERIFY2(run(devices), "with the store");
    QVERIFY2(stored.lastUsed() > 0, stored.whyNot().c_str());
    auto staleDevices = DeviceSet::open({"0"});
    staleDevices->setResultStore(staleStore(stored.liftText(), sizes, name + "-stale.sqlite"));
    QVERIFY2(run(staleDevices), "with a stale store");
    QCOMPARE(stored.lastUsed(), int64_t(0));
    QVERIFY2(stored.whyNot().find("no longer replays") != std::string::npos, stored.whyNot().c_str());
    QVERIFY2(stored.whyNot().find("no-such-rule") != std::string::npos, stored.whyNot().c_str());
    QVERIFY2(run(DeviceSet::open({"0"})), "without a store");
    QCOMPARE(stored.lastUsed(), int64_t(0));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    store_ = std::make_shared<explore::ResultStore>(dir_.filePath("store.sqlite").toStdString());
  }

  void zipReduceTakesTheStoredKernel() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    ZipReduce<float(float, float)> dot(sum, mult);
    const StoredKernels& stored = dot.skeleton().storedKernels();
    QVERIFY(stored.liftText().find("reduce(reduced, ") != std::string::npos);
    QVERIFY(search(stored.liftText(), {{"N", 4096}}));
    auto one = DeviceSet::open({"0"}), two = DeviceSet::open({"0", "0"});
    for (auto& devices : {one, two}) devices->setResultStore(store_);
    for (size_t n : {size_t(4096), size_t(8192), size_t(1000)})
      for (auto& devices : {one, two}) {
        const std::vector<float> a = randomFloats(n, 1), b = randomFloats(n, 2);
        double expected = 0;
        for (size_t i = 0; i < n; ++i) expected += double(a[i]) * b[i];
        Vector<float> x(devices, a), y(devices, b);
        const float result = dot(x, y);
        const QString where = QString("n=%1 on %2 devices").arg(n).arg(devices->size());
        QVERIFY2(std::fabs(result - expected) < 1e-3 * std::sqrt(double(n)),
                 qPrintable(where + QString(": %1 vs %2").arg(result).arg(expected)));
        // 4096 elements on one device, or 8192 in two parts of 4096: the stored kernel's size.
        const bool storedSize = n / size_t(devices->size()) == 4096;
        QVERIFY2((stored.lastUsed() > 0) == storedSize,
                 qPrintable(where + " " + QString::fromStdString(stored.whyNot())));
      }
  }

  void allPairsTakesTheStoredKernel() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    AllPairs<float(float, float)> mm(sum, mult);
    const StoredKernels& stored = mm.skeleton().storedKernels();
    const size_t n = 16;
    QVERIFY(search(stored.liftText(), {{"N", n}, {"M", n}, {"D", n}}));
    auto one = DeviceSet::open({"0"});
    one->setResultStore(store_);
    const std::vector<float> a = randomFloats(n * n, 3), b = randomFloats(n * n, 4);
    for (size_t rows : {n, n + 1}) {
      Matrix<float> A(one, rows, n, randomFloats(rows * n, 3)), B(one, n, n, b);
      Matrix<float> C = mm(A, B);
      QCOMPARE(stored.lastUsed() > 0, rows == n);
      for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < n; ++j) {
          double expected = 0;
          for (size_t k = 0; k < n; ++k) expected += double(A(i, k)) * B(k, j);
          QVERIFY2(std::fabs(C(i, j) - expected) < 1e-4,
                   qPrintable(QString("%1 rows (%2, %3)").arg(rows).arg(i).arg(j)));
        }
    }
  }

  // The general form (a row function in the .lift language, a scalar result here): its store
  // program is allPairs(row function)(A, transpose(B)), the map-map nest around its body.
  void generalAllPairsTakesTheStoredKernel() {
    AllPairs<float(float, float)> distance(
        "userfun sqdiff(float x, float y) -> float { return (x - y) * (x - y); }\n"
        "userfun add(float a, float x) -> float { return a + x; }\n"
        "userfun root(float x) -> float { return sqrt(x); }",
        "fun((a, b) => root(get(0, reduce(add, 0.0f) o map(sqdiff) $ zip(a, b))))");
    const StoredKernels& stored = distance.skeleton().storedKernels();
    QVERIFY(stored.liftText().find("allPairs(fun((a, b) => root(get(0, reduce(add, 0.0f)") !=
            std::string::npos);
    const size_t n = 16, d = 8, m = 12;
    const std::vector<float> a = randomFloats(n * d, 8), b = randomFloats(d * m, 9);
    checkStored(stored, {{"N", n}, {"M", m}, {"D", d}}, "allpairs-general",
                [&](const std::shared_ptr<DeviceSet>& devices) {
                  const Matrix<float> C =
                      distance(Matrix<float>(devices, n, d, a), Matrix<float>(devices, d, m, b));
                  for (size_t i = 0; i < n; ++i)
                    for (size_t j = 0; j < m; ++j) {
                      double s = 0;
                      for (size_t k = 0; k < d; ++k)
                        s += (double(a[i * d + k]) - b[k * m + j]) * (double(a[i * d + k]) - b[k * m + j]);
                      if (std::fabs(C(i, j) - std::sqrt(s)) > 1e-5 * std::max(1.0, std::sqrt(s)))
                        return false;
                    }
                  return true;
                });
  }

  void mapTakesTheStoredKernel() {
    Map<float(float)> f("float func(float x) { return 2.0f * x + 1.0f; }");
    const size_t n = 1024;
    const std::vector<float> a = randomFloats(n, 5);
    checkStored(f.skeleton().storedKernels(), {{"N", n}}, "map", [&](const std::shared_ptr<DeviceSet>& d) {
      Vector<float> y = f(Vector<float>(d, a));
      for (size_t i = 0; i < n; ++i)
        if (std::fabs(y[i] - (2.0f * a[i] + 1.0f)) > 1e-6) return false;
      return true;
    });
  }

  void zipTakesTheStoredKernel() {
    Zip<float(float, float)> minus("float func(float x, float y) { return x - y; }");
    const size_t n = 1024;
    const std::vector<float> a = randomFloats(n, 6), b = randomFloats(n, 7);
    checkStored(minus.skeleton().storedKernels(), {{"N", n}}, "zip",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  Vector<float> z = minus(Vector<float>(d, a), Vector<float>(d, b));
                  for (size_t i = 0; i < n; ++i)
                    if (z[i] != a[i] - b[i]) return false;
                  return true;
                });
  }

  void reduceTakesTheStoredKernel() {
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    const size_t n = 4096;
    const std::vector<float> a = randomFloats(n, 8);
    double expected = 0;
    for (float v : a) expected += v;
    checkStored(sum.skeleton().storedKernels(), {{"N", n}}, "reduce",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  return std::fabs(sum(Vector<float>(d, a)) - expected) < 1e-3;
                });
  }

  void scanTakesTheStoredKernel() {
    Scan<float(float)> prefixSum("float func(float x, float y) { return x + y; }", "0");
    const size_t n = 4096;
    const std::vector<float> a = randomFloats(n, 9);
    checkStored(prefixSum.skeleton().storedKernels(), {{"N", n}}, "scan",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  Vector<float> y = prefixSum(Vector<float>(d, a));
                  double sum = 0;
                  for (size_t i = 0; i < n; ++i) {
                    if (std::fabs(y[i] - sum) > 1e-3) return false;
                    sum += a[i];
                  }
                  return true;
                });
    // Over two devices (block): each part starts from the one before it, which a stored scan
    // does not take; the skeleton's own kernels run.
    auto two = DeviceSet::open({"0", "0"});
    two->setResultStore(store_);
    Vector<float> y = prefixSum(Vector<float>(two, randomFloats(2 * n, 10)));
    QCOMPARE(y[0], 0.0f);
    QCOMPARE(prefixSum.skeleton().storedKernels().lastUsed(), int64_t(0));
  }

  void stencilTakesTheStoredKernel() {
    Stencil<float(float)> average(
        "float func(float in) { return (get(in, -1) + get(in, 0) + get(in, 1)) / 3.0f; }", 1,
        OutOfBound::Nearest);
    const size_t n = 256;
    const std::vector<float> a = randomFloats(n, 11);
    checkStored(average.skeleton().storedKernels(1), {{"R", n}}, "stencil1d",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  Vector<float> y = average(Vector<float>(d, a));
                  for (size_t i = 0; i < n; ++i) {
                    const float expected = (a[i == 0 ? 0 : i - 1] + a[i] + a[i + 1 == n ? i : i + 1]) / 3.0f;
                    if (std::fabs(y[i] - expected) > 1e-6) return false;
                  }
                  return true;
                });
    const GaussianBlur gauss;
    const size_t rows = 24, columns = 32;
    const std::vector<float> image = randomFloats(rows * columns, 12);
    checkStored(gauss.stencil().skeleton().storedKernels(2), {{"R", rows}, {"C", columns}}, "stencil2d",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  static const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
                  Matrix<float> out = gauss(Matrix<float>(d, rows, columns, image));
                  for (long r = 0; r < long(rows); ++r)
                    for (long c = 0; c < long(columns); ++c) {
                      double expected = 0;  // 0 outside the image
                      for (long dy = -1; dy <= 1; ++dy)
                        for (long dx = -1; dx <= 1; ++dx)
                          if (r + dy >= 0 && r + dy < long(rows) && c + dx >= 0 && c + dx < long(columns))
                            expected += w[dy + 1][dx + 1] * image[(r + dy) * columns + c + dx];
                      if (std::fabs(out(r, c) - expected / 16) > 1e-5) return false;
                    }
                  return true;
                });
  }

  void indexMapTakesTheStoredKernel() {
    Map<int32_t(IndexPoint)> f("int func(int r, int c) { return r * 100 + c; }");
    const size_t rows = 16, columns = 24;
    checkStored(f.skeleton().storedKernels(), {{"R", rows}, {"C", columns}}, "indexmap",
                [&](const std::shared_ptr<DeviceSet>& d) {
                  Matrix<int32_t> m = f(IndexMatrix(d, rows, columns));
                  for (size_t r = 0; r < rows; ++r)
                    for (size_t c = 0; c < columns; ++c)
                      if (m(r, c) != int32_t(r * 100 + c)) return false;
                  return true;
                });
  }
};

QTEST_GUILESS_MAIN(TestSkelCLStore)
#include "tst_skelcl_store.moc"
