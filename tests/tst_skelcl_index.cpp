// SkelCL's index matrix (skelcl/IndexMatrix.h, Map<R(IndexPoint)>) on the first OpenCL device
// (PoCL on CPU machines), also named twice so that its distributions run in CI: maps of an
// element's row and column at several sizes over every distribution, checked against plain C++;
// the seed's Mandelbrot with the library against its plain OpenCL version and the host
// (skelcl/programs/Mandelbrot.h), and both timed on the device; and the errors.
#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "skelcl/SkelCL.h"
#include "skelcl/WorkGroupShape.h"
#include "skelcl/programs/Mandelbrot.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

const std::vector<Distribution> kDistributions = {Distribution::single(0), Distribution::single(1),
                                                  Distribution::copy(), Distribution::block()};

const std::vector<std::pair<size_t, size_t>> kShapes = {{1, 1}, {5, 3}, {3, 5}, {64, 48}, {101, 77}};

// The Mandelbrot image on the host, with the library's arithmetic (float, the scale rounded once).
std::vector<int32_t> hostMandelbrot(size_t width, size_t height) {
  const float sx = static_cast<float>(3.0 / double(width)), sy = static_cast<float>(3.0 / double(height));
  std::vector<int32_t> out(width * height);
  for (size_t r = 0; r < height; ++r)
    for (size_t c = 0; c < width; ++c) {
      float cr = -2.0f + float(c) * sx, ci = -1.5f + float(r) * sy, x = 0.0f, y = 0.0f;
      int n = 0;
      while (n < kMandelbrotIterations && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cr;
        y = 2.0f * x * y + ci;
        x = t;
        ++n;
      }
      out[r * width + c] = n;
    }
  return out;
}

// How many pixels of two images differ. Near the set's boundary the iteration count depends on
// the last bits (OpenCL may fuse x * x + y * y into an fma, the plain version scales by 3/width
// in float), so a few may.
size_t differing(std::span<const int32_t> a, const std::vector<int32_t>& b) {
  size_t d = 0;
  for (size_t i = 0; i < b.size(); ++i) d += a[i] != b[i];
  return d;
}

double msOf(const std::function<void()>& f) {
  std::vector<double> ms;
  for (int i = 0; i < 4; ++i) {
    auto start = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin() + 1, ms.end());  // the first run builds the kernel
  return ms[2];
}

}  // namespace

class TestSkelCLIndex : public QObject {
  Q_OBJECT

  std::shared_ptr<DeviceSet> one_;  // the first device
  std::shared_ptr<DeviceSet> two_;  // the first device, twice

 private slots:
  void initTestCase() {
    one_ = DeviceSet::open({"0"});
    two_ = DeviceSet::open({"0", "0"});
  }

  // Every element from its row and column, at every shape and distribution; the output has the
  // index matrix's distribution.
  void mapsOfIndicesAllShapesAndDistributions() {
    Map<int32_t(IndexPoint)> code("int func(int row, int column) { return row * 1000 + column; }");
    Map<float(IndexPoint)> diagonal(
        "float func(int row, int column) { return row == column ? 1.5f : 0.0f; }");
    for (auto [rows, cols] : kShapes)
      for (const Distribution& d : kDistributions) {
        IndexMatrix index(two_, rows, cols);
        index.setDistribution(d);
        Matrix<int32_t> m = code(index);
        Matrix<float> e = diagonal(index);
        const QString where = QString("%1x%2 %3").arg(rows).arg(cols).arg(d.describe().c_str());
        QVERIFY2(m.distribution() == d, qPrintable(where));
        QCOMPARE(m.rows(), rows);
        QCOMPARE(m.columns(), cols);
        for (size_t r = 0; r < rows; ++r)
          for (size_t c = 0; c < cols; ++c) {
            QVERIFY2(m(r, c) == int32_t(r * 1000 + c), qPrintable(where));
            QVERIFY2(e(r, c) == (r == c ? 1.5f : 0.0f), qPrintable(where));
          }
      }
  }

  // The seed's Mandelbrot: the library (block-distributed over the device named twice, and on
  // one device) against the plain OpenCL version and the host, at sizes that are no multiples of
  // anything; at most 1 % of the pixels (on the set's boundary) may differ.
  void mandelbrotMatchesPlainOpenCL() {
    OpenCLMandelbrot openclMandelbrot;
    for (auto [width, height] :
         {std::pair<size_t, size_t>{64, 48}, {101, 77}, {256, 256}, {17, 100}, {100, 17}}) {
      // -- SkelCL Mandelbrot use: begin
      Mandelbrot mandelbrot(width, height);
      Matrix<int32_t> image = mandelbrot(one_);
      // -- SkelCL Mandelbrot use: end
      Matrix<int32_t> blocks = mandelbrot(two_);
      const std::vector<int32_t> host = hostMandelbrot(width, height);
      const std::vector<int32_t> plain = openclMandelbrot(width, height);
      const size_t limit = width * height / 100;
      const QString where = QString("%1x%2").arg(width).arg(height);
      QVERIFY2(differing(image.hostData(), host) <= limit, qPrintable(where));
      QVERIFY2(differing(blocks.hostData(), host) <= limit, qPrintable(where));
      QVERIFY2(differing(std::span<const int32_t>(plain), host) <= limit, qPrintable(where));
      QCOMPARE(differing(image.hostData(),
                         std::vector<int32_t>(blocks.hostData().begin(), blocks.hostData().end())),
               size_t(0));
      // The set is there: the centre of the main cardioid never escapes, the corner at once.
      QCOMPARE(image(height / 2, width / 2 - width / 6), kMandelbrotIterations);
      QCOMPARE(image(0, 0), 1);
    }
  }

  // Both versions of a 1024 x 1024 Mandelbrot timed on the device, host to host (the median of
  // three runs after one that builds the kernel), for skelcl/README.md.
  void mandelbrotSpeed() {
    const size_t n = 1024;
    Mandelbrot mandelbrot(n, n);
    OpenCLMandelbrot openclMandelbrot;
    const double library = msOf([&] { mandelbrot(one_).hostData(); });
    const double plain = msOf([&] { openclMandelbrot(n, n); });
    qInfo("Mandelbrot %zux%zu on the first device: library %.1f ms, plain OpenCL %.1f ms", n, n, library,
          plain);
  }

  // The shape a kernel whose program leaves the local size open is launched with: 256 work-items
  // where a shape of them divides the global size (16 x 16 first), each side dividing it, never more
  // than the kernel allows; the runtime's choice where fewer than 32 would be left.
  void workGroupShapes() {
    using S = std::vector<uint64_t>;
    QCOMPARE(workGroupShapeFor({8192, 8192}, 1024), S({16, 16}));
    QCOMPARE(workGroupShapeFor({4096, 8}, 1024), S({32, 8}));
    QCOMPARE(workGroupShapeFor({256, 3}, 1024), S({256, 1}));
    QCOMPARE(workGroupShapeFor({8, 4096}, 1024), S({8, 32}));
    QCOMPARE(workGroupShapeFor({8192, 8192}, 64), S({8, 8}));
    QCOMPARE(workGroupShapeFor({100, 100}, 1024), S({25, 10}));
    QCOMPARE(workGroupShapeFor({7, 13}, 1024), S({7, 13}));
    QCOMPARE(workGroupShapeFor({3, 5}, 1024), S());
    QCOMPARE(workGroupShapeFor({1 << 20}, 1024), S({256}));
    QCOMPARE(workGroupShapeFor({97}, 1024), S({97}));
    QCOMPARE(workGroupShapeFor({1}, 1024), S());
    QCOMPARE(workGroupShapeFor({64, 64, 64}, 1024), S());
    QCOMPARE(workGroupShapeFor({8192, 8192}, 16), S());
    for (uint64_t r : {1u, 5u, 48u, 77u, 640u})
      for (uint64_t c : {1u, 3u, 64u, 101u, 1024u}) {
        S l = workGroupShapeFor({c, r}, 256);
        if (l.empty()) continue;
        QVERIFY(c % l[0] == 0 && r % l[1] == 0 && l[0] * l[1] <= 256 && l[0] * l[1] >= 32);
      }
  }

  void errors() {
    IndexMatrix index(one_, 4, 4);
    QVERIFY_THROWS_EXCEPTION(LiftError, index.setDistribution(Distribution::overlap(1)));
    QVERIFY_THROWS_EXCEPTION(LiftError, index.setDistribution(Distribution::single(3)));
    QVERIFY_THROWS_EXCEPTION(LiftError, Map<int32_t(IndexPoint)>("int func(int row) { return row; }"));
    QVERIFY_THROWS_EXCEPTION(LiftError, Map<int32_t(IndexPoint)>("int func(float r, int c) { return c; }"));
    Matrix<int32_t> empty =
        Map<int32_t(IndexPoint)>("int func(int r, int c) { return r + c; }")(IndexMatrix(one_, 0, 7));
    QCOMPARE(empty.rows(), size_t(0));
  }
};

QTEST_GUILESS_MAIN(TestSkelCLIndex)
#include "tst_skelcl_index.moc"
