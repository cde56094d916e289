// SkelCL skeletons taking their kernels from a result store (skelcl/StoredKernel.h): short
// searches of ZipReduce's and AllPairs' high-level programs on the first OpenCL device (PoCL on
// CPU machines) fill a store; a device set given that store runs the stored kernels at the
// searched sizes (their results checked against the host) and the skeletons' own kernels at
// other sizes and over two devices (the device named twice), whose parts have other sizes.
#include <QtTest/QtTest>

#include <cmath>
#include <random>

#include "core/lang/Parser.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchProblem.h"
#include "rewrite/explore/SearchRunner.h"
#include "skelcl/SkelCL.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

}  // namespace

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
};

QTEST_GUILESS_MAIN(TestSkelCLStore)
#include "tst_skelcl_store.moc"
