// SkelCL's Stencil skeleton (skelcl/Stencil.h) on the first OpenCL device (PoCL on CPU machines),
// also named twice so that the overlap distribution runs in CI: 1-D and 2-D stencils with both
// out-of-bound modes over every distribution at several sizes (non-multiples of the device count
// and smaller than the halo included), checked against plain C++; the Gaussian blur with the
// library against its plain OpenCL version (skelcl/programs/GaussianBlur.h); and the errors.
#include <QtTest/QtTest>

#include <algorithm>
#include <random>

#include "RandomInputs.h"
#include "skelcl/SkelCL.h"
#include "skelcl/programs/GaussianBlur.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

// OpenCL may contract a * b + c into one fma: results may differ from the host's in the last bits.
bool close(float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)); }

const std::vector<Distribution> kDistributions = {Distribution::single(0),  Distribution::single(1),
                                                  Distribution::copy(),     Distribution::block(),
                                                  Distribution::overlap(1), Distribution::overlap(3)};

// Element (r, c) of a rows x cols image, or what the out-of-bound mode reads outside.
float at(const std::vector<float>& m, long rows, long cols, long r, long c, OutOfBound mode, float neutral) {
  if (mode == OutOfBound::Nearest) {
    r = std::clamp(r, 0L, rows - 1);
    c = std::clamp(c, 0L, cols - 1);
  } else if (r < 0 || r >= rows || c < 0 || c >= cols) {
    return neutral;
  }
  return m[static_cast<size_t>(r * cols + c)];
}

// An asymmetric 2-D stencil of halo 2, so that rows and columns cannot be swapped unnoticed.
const char* kSkewed = R"(float func(float in) {
  return 3.0f * get(in, 1, 0) - get(in, 0, -2) + 0.5f * get(in, -1, 1) + in * in + get(in, 2, 2); })";

float skewedAt(const std::vector<float>& m, long rows, long cols, long r, long c, OutOfBound mode, float z) {
  auto g = [&](long dx, long dy) { return at(m, rows, cols, r + dy, c + dx, mode, z); };
  return 3.0f * g(1, 0) - g(0, -2) + 0.5f * g(-1, 1) + g(0, 0) * g(0, 0) + g(2, 2);
}

}  // namespace

class TestSkelCLStencil : public QObject {
  Q_OBJECT

  std::shared_ptr<DeviceSet> one_;  // the first device
  std::shared_ptr<DeviceSet> two_;  // the first device, twice

 private slots:
  void initTestCase() {
    one_ = DeviceSet::open({"0"});
    two_ = DeviceSet::open({"0", "0"});
  }

  void vectorAllSizesAndDistributions() {
    Stencil<float(float)> s("float func(float x) { return get(x, -1) - 2.0f * x + 4.0f * get(x, 2); }", 2,
                            OutOfBound::Neutral, 0.5f);
    Stencil<float(float)> nearest("float func(float x) { return get(x, -1) - 2.0f * x + 4.0f * get(x, 2); }",
                                  2, OutOfBound::Nearest);
    for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), size_t(1001)})
      for (const Distribution& d : kDistributions) {
        std::vector<float> in = randomFloats(n, static_cast<unsigned>(n));
        for (auto [stencil, mode] :
             {std::pair{&s, OutOfBound::Neutral}, std::pair{&nearest, OutOfBound::Nearest}}) {
          Vector<float> x(two_, in);
          x.setDistribution(d);
          Vector<float> y = (*stencil)(x);
          const long len = static_cast<long>(n);
          for (long i = 0; i < len; ++i) {
            auto g = [&](long k) { return at(in, 1, len, 0, i + k, mode, 0.5f); };
            float expected = g(-1) - 2.0f * g(0) + 4.0f * g(2);
            QVERIFY2(close(y[static_cast<size_t>(i)], expected),
                     qPrintable(QString("n=%1 %2 element %3").arg(n).arg(d.describe().c_str()).arg(i)));
          }
        }
      }
  }

  void matrixAllSizesAndDistributions() {
    Stencil<float(float)> neutral(kSkewed, 2, OutOfBound::Neutral, -1.0f);
    Stencil<float(float)> nearest(kSkewed, 2, OutOfBound::Nearest);
    for (auto [rows, cols] : {std::pair<size_t, size_t>{1, 1}, {2, 5}, {3, 3}, {7, 4}, {16, 16}, {33, 17}})
      for (const Distribution& d : kDistributions)
        for (auto [stencil, mode] :
             {std::pair{&neutral, OutOfBound::Neutral}, std::pair{&nearest, OutOfBound::Nearest}}) {
          std::vector<float> in = randomFloats(rows * cols, static_cast<unsigned>(rows * 100 + cols));
          Matrix<float> m(two_, rows, cols, in);
          m.setDistribution(d);
          Matrix<float> out = (*stencil)(m);
          QCOMPARE(out.rows(), rows);
          QCOMPARE(out.columns(), cols);
          for (long r = 0; r < static_cast<long>(rows); ++r)
            for (long c = 0; c < static_cast<long>(cols); ++c) {
              float expected =
                  skewedAt(in, static_cast<long>(rows), static_cast<long>(cols), r, c, mode, -1.0f);
              QVERIFY2(close(out(static_cast<size_t>(r), static_cast<size_t>(c)), expected),
                       qPrintable(QString("%1x%2 %3 (%4, %5): %6 vs %7")
                                      .arg(rows)
                                      .arg(cols)
                                      .arg(d.describe().c_str())
                                      .arg(r)
                                      .arg(c)
                                      .arg(out(static_cast<size_t>(r), static_cast<size_t>(c)))
                                      .arg(expected)));
            }
        }
  }

  void distributions() {
    Stencil<float(float)> s("float func(float x) { return get(x, 0, -1) + get(x, 0, 1); }", 1,
                            OutOfBound::Nearest);
    Matrix<float> m(two_, 9, 4, randomFloats(36, 5));
    // Block is redistributed to overlap(halo); the output is block-distributed.
    m.setDistribution(Distribution::block());
    Matrix<float> out = s(m);
    QVERIFY(*m.distribution() == Distribution::overlap(1));
    QVERIFY(*out.distribution() == Distribution::block());
    QCOMPARE(m.parts().at(1).storedBegin, size_t(4));
    // Single and copy are kept.
    m.setDistribution(Distribution::single(1));
    QVERIFY(*s(m).distribution() == Distribution::single(1));
    m.setDistribution(Distribution::copy());
    QVERIFY(*s(m).distribution() == Distribution::copy());
    // A first stencil distributes an undistributed input as overlap.
    Matrix<float> fresh(two_, 9, 4, randomFloats(36, 6));
    s(fresh);
    QVERIFY(*fresh.distribution() == Distribution::overlap(1));
    // The one-device set has a single part, padded at both ends.
    Matrix<float> single(one_, 9, 4, randomFloats(36, 6));
    QCOMPARE(s(single).parts().size(), size_t(1));
  }

  void intsAndDoubles() {
    Stencil<int32_t(int32_t)> maxOf("int func(int x) { return max(get(x, -1), max(x, get(x, 1))); }", 1,
                                    OutOfBound::Neutral, -100);
    std::vector<int32_t> in = {5, -3, 8, 1, 0, -7, 2};
    Vector<int32_t> v(two_, in);
    Vector<int32_t> r = maxOf(v);
    std::vector<int32_t> expected = {5, 8, 8, 8, 1, 2, 2};
    for (size_t i = 0; i < in.size(); ++i) QCOMPARE(r[i], expected[i]);
    Stencil<double(double)> mean("double func(double x) { return (get(x, -1, 0) + get(x, 1, 0)) / 2.0; }", 1,
                                 OutOfBound::Nearest);
    Matrix<double> m(two_, 2, 3, std::vector<double>{1, 2, 3, 4, 5, 6});
    Matrix<double> out = mean(m);
    QCOMPARE(out(0, 0), 1.5);
    QCOMPARE(out(1, 2), 5.5);
  }

  // The seed's Gaussian blur with the library against its plain OpenCL version and the host.
  void gaussianBlur() {
    GaussianBlur blur;
    OpenclGaussianBlur plain;  // set up once, every image uploaded, run and downloaded
    for (auto [rows, cols] :
         {std::pair<size_t, size_t>{1, 1}, {5, 3}, {64, 48}, {101, 77}, {17, 100}, {100, 17}}) {
      std::vector<float> image = randomFloats(rows * cols, static_cast<unsigned>(rows + cols));
      // -- SkelCL Gaussian blur use: begin
      Matrix<float> m(two_, rows, cols, image);
      Matrix<float> out = blur(m);
      // -- SkelCL Gaussian blur use: end
      std::vector<float> reference = plain(image, rows, cols);
      QCOMPARE(openclGaussianBlur(image, rows, cols), reference);
      const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
      for (long r = 0; r < static_cast<long>(rows); ++r)
        for (long c = 0; c < static_cast<long>(cols); ++c) {
          float host = 0.0f;
          for (long dy = -1; dy <= 1; ++dy)
            for (long dx = -1; dx <= 1; ++dx)
              host += w[dy + 1][dx + 1] * at(image, static_cast<long>(rows), static_cast<long>(cols), r + dy,
                                             c + dx, OutOfBound::Neutral, 0.0f);
          host *= 0.0625f;
          const size_t i = static_cast<size_t>(r) * cols + static_cast<size_t>(c);
          QVERIFY2(close(out.hostData()[i], host),
                   qPrintable(QString("%1x%2 (%3, %4)").arg(rows).arg(cols).arg(r).arg(c)));
          QVERIFY2(close(reference[i], host),
                   qPrintable(QString("OpenCL %1x%2 (%3, %4)").arg(rows).arg(cols).arg(r).arg(c)));
        }
    }
  }

  void kernelsComeFromTheLiftCompiler() {
    Stencil<float(float)> s("float func(float x) { return get(x, -1, 1) + x; }", 1, OutOfBound::Nearest);
    const std::string& src = s.skeleton().kernel(2, 1, 1).compiled().source;
    QVERIFY2(src.find("float func(float x_1_1, float x_2_0)") != std::string::npos, src.c_str());
    QVERIFY(src.find("get_global_id(1)") != std::string::npos);
    QCOMPARE(s.skeleton().function().offsets.size(), size_t(2));
  }

  void errors() {
    auto message = [](const std::function<void()>& f) -> std::string {
      try {
        f();
      } catch (const LiftError& e) {
        return e.what();
      }
      return "no error";
    };
    std::string m = message(
        [] { Stencil<float(float)> s("float func(float x) { return get(x, 2); }", 1, OutOfBound::Nearest); });
    QVERIFY2(m.find("reads beyond the halo of 1") != std::string::npos, m.c_str());
    m = message([] {
      Stencil<float(float)> s("float func(float x) { int k = 1; return get(x, k); }", 1, OutOfBound::Nearest);
    });
    QVERIFY2(m.find("constant offsets") != std::string::npos, m.c_str());
    m = message([] {
      Stencil<float(float)> s("float func(float x) { return get(x, 1) + get(x, 1, 0); }", 1,
                              OutOfBound::Nearest);
    });
    QVERIFY2(m.find("both as get(in, dx) and as get(in, dx, dy)") != std::string::npos, m.c_str());
    m = message([] { Stencil<float(float)> s("int func(float x) { return 1; }", 1, OutOfBound::Nearest); });
    QVERIFY2(m.find("the return type is int") != std::string::npos, m.c_str());
    Stencil<float(float)> oneD("float func(float x) { return get(x, 1); }", 1, OutOfBound::Nearest);
    Matrix<float> mat(two_, 3, 3);
    m = message([&] { oneD(mat); });
    QVERIFY2(m.find("reads a 1-D neighbourhood") != std::string::npos, m.c_str());
  }
};

QTEST_GUILESS_MAIN(TestSkelCLStencil)
#include "tst_skelcl_stencil.moc"
