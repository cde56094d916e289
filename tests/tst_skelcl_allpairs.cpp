// AllPairs with a general row function (skelcl/AllPairsProgram.h) on the first OpenCL device
// (PoCL on CPU machines) and on that device named twice (A block-distributed, B copied): functions
// that are no zip-reduce (cosine similarity, with a one-element result; the Euclidean distance,
// with a scalar one; an int function) against the host at non-square sizes; the zip-reduce form,
// now a row function, compiled to the very kernel and keyed by the very program it had before,
// and in 16 x 16 local-memory tiles;
// the hashes the store keys its programs by; and the errors, located in the texts the caller gave.
#include <QtTest/QtTest>

#include <cmath>
#include <tuple>

#include "RandomInputs.h"
#include "codegen/Compiler.h"
#include "core/lang/Parser.h"
#include "rewrite/explore/SearchProblem.h"
#include "skelcl/SkelCL.h"
#include "skelcl/programs/CosineSimilarity.h"
#include "skelcl/programs/ManhattanDistance.h"
#include "skelcl/programs/MatrixMultiplication.h"

using namespace lift;
using namespace lift::skelcl;

namespace {

const char* kCosineDefinitions =
    "userfun mult(float x, float y) -> float { return x * y; }\n"
    "userfun add(float a, float x) -> float { return a + x; }\n"
    "userfun sq(float x) -> float { return x * x; }\n"
    "userfun cosine(float ab, float aa, float bb) -> float { return ab / sqrt(aa * bb); }";
const char* kCosine =
    "fun((a, b) => map(cosine) $ zip(reduce(add, 0.0f) o map(mult) $ zip(a, b),\n"
    "                                reduce(add, 0.0f) o map(sq) $ a, reduce(add, 0.0f) o map(sq) $ b))";

// The Euclidean distance, its parameters named as the skeleton's inputs are (renamed there).
const char* kEuclideanDefinitions =
    "userfun sqdiff(float x, float y) -> float { return (x - y) * (x - y); }\n"
    "userfun add(float a, float x) -> float { return a + x; }\n"
    "userfun root(float x) -> float { return sqrt(x); }";
const char* kEuclidean =
    "fun((B: [float]D, A: [float]D) => root(get(0, reduce(add, 0.0f) o map(sqdiff) $ zip(B, A))))";

const std::vector<std::tuple<size_t, size_t, size_t>> kShapes = {
    {3, 5, 7}, {17, 33, 9}, {1, 1, 1}, {1, 40, 2}, {9, 2, 1}};

QString where(size_t n, size_t d, size_t m, int devices, size_t i, size_t j) {
  return QString("%1x%2 * %2x%3 on %4 device(s) at (%5, %6)").arg(n).arg(d).arg(m).arg(devices).arg(i).arg(j);
}

// The message of the LiftError that `f` throws ("" when it throws none).
template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const LiftError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestSkelCLAllPairs : public QObject {
  Q_OBJECT

  std::shared_ptr<DeviceSet> one_;  // the first device
  std::shared_ptr<DeviceSet> two_;  // the first device, twice
  const CosineSimilarity cosine_;

  // Every shape on one device and on two (block): C(i, j) against `host(row i of A, column j of B)`.
  template <class R, class T, class Host>
  void check(const AllPairs<R(T, T)>& allPairs, const Host& host, double tolerance,
             const std::vector<std::tuple<size_t, size_t, size_t>>& shapes = kShapes) {
    for (auto [n, d, m] : shapes)
      for (const auto& devices : {one_, two_}) {
        std::vector<T> a, b;
        if constexpr (std::is_same_v<T, float>) {
          a = randomFloats(n * d, unsigned(n + d));
          b = randomFloats(d * m, unsigned(d + m));
        } else {
          a = randomInts(n * d, unsigned(n + d));
          b = randomInts(d * m, unsigned(d + m));
        }
        Matrix<T> A(devices, n, d, a), B(devices, d, m, b);
        const Matrix<R> C = allPairs(A, B);
        QCOMPARE(C.rows(), n);
        QCOMPARE(C.columns(), m);
        QVERIFY(*C.distribution() == Distribution::block());
        QVERIFY(*B.distribution() == Distribution::copy());
        for (size_t i = 0; i < n; ++i)
          for (size_t j = 0; j < m; ++j) {
            std::vector<T> row(a.begin() + long(i * d), a.begin() + long((i + 1) * d)), column(d);
            for (size_t k = 0; k < d; ++k) column[k] = b[k * m + j];
            const double expected = host(row, column);
            QVERIFY2(std::fabs(double(C(i, j)) - expected) <= tolerance * std::max(1.0, std::fabs(expected)),
                     qPrintable(where(n, d, m, devices->size(), i, j) +
                                QString(": %1 vs %2").arg(double(C(i, j))).arg(expected)));
          }
      }
  }

 private slots:
  void initTestCase() {
    one_ = DeviceSet::open({"0"});
    two_ = DeviceSet::open({"0", "0"});
  }

  // Cosine similarity: three reductions and a user function of their results, [float]1
  // (skelcl/programs/CosineSimilarity.h; the errors below use the same functions).
  void cosineSimilarity() {
    const AllPairs<float(float, float)>& cosine = cosine_.allPairs();  // skelcl/programs/CosineSimilarity.h
    const std::string source = cosine.kernel().compiled().source;
    QVERIFY2(source.find("cosine(") != std::string::npos, source.c_str());
    QVERIFY(cosine.skeleton().storedKernels().liftText().find("allPairs(" + std::string(kCosine) +
                                                              "\n  )(A, transpose(B))") != std::string::npos);
    check(
        cosine,
        [](const std::vector<float>& a, const std::vector<float>& b) {
          double ab = 0, aa = 0, bb = 0;
          for (size_t k = 0; k < a.size(); ++k) {
            ab += double(a[k]) * b[k];
            aa += double(a[k]) * a[k];
            bb += double(b[k]) * b[k];
          }
          return ab / std::sqrt(aa * bb);
        },
        1e-4);
  }

  // A's distribution, whatever it is, is C's (B copied), as for the zip-reduce form.
  void cosineOverEveryDistribution() {
    const size_t n = 7, d = 5, m = 3;
    const std::vector<float> a = randomFloats(n * d, 61), b = randomFloats(d * m, 62);
    for (const Distribution& dist : {Distribution::single(0), Distribution::single(1), Distribution::copy(),
                                     Distribution::block(), Distribution::overlap(1)}) {
      Matrix<float> A(two_, n, d, a), B(two_, d, m, b);
      A.setDistribution(dist);
      B.setDistribution(Distribution::block());  // redistributed to copy
      const Matrix<float> C = cosine_(A, B);
      QVERIFY(C.distribution() == dist);
      QVERIFY(*B.distribution() == Distribution::copy());
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < m; ++j) {
          double ab = 0, aa = 0, bb = 0;
          for (size_t k = 0; k < d; ++k) {
            ab += double(a[i * d + k]) * b[k * m + j];
            aa += double(a[i * d + k]) * a[i * d + k];
            bb += double(b[k * m + j]) * b[k * m + j];
          }
          QVERIFY2(std::fabs(C(i, j) - ab / std::sqrt(aa * bb)) < 1e-5,
                   qPrintable(QString::fromStdString(dist.describe()) + QString(" (%1, %2)").arg(i).arg(j)));
        }
    }
  }

  // The Euclidean distance, a scalar result (get(0, ...) of the reduction's one element), with
  // typed parameters named as the inputs of the skeleton's program are (renamed there).
  void euclideanDistanceScalarResult() {
    AllPairs<float(float, float)> distance(kEuclideanDefinitions, kEuclidean);
    QVERIFY(distance.skeleton().kernelText().find("toGlobal(id)") != std::string::npos);
    check(
        distance,
        [](const std::vector<float>& a, const std::vector<float>& b) {
          double s = 0;
          for (size_t k = 0; k < a.size(); ++k) s += (double(a[k]) - b[k]) * (double(a[k]) - b[k]);
          return std::sqrt(s);
        },
        1e-5);
  }

  // ints: the largest |a_k - b_k| plus the sum of the row's elements.
  void intsLargestDifferencePlusRowSum() {
    AllPairs<int32_t(int32_t, int32_t)> f(
        "userfun absdiff(int x, int y) -> int { return abs(x - y); }\n"
        "userfun biggest(int a, int x) -> int { return max(a, x); }\n"
        "userfun add(int a, int x) -> int { return a + x; }",
        "fun((row, column) =>\n"
        "  map(add) $ zip(reduce(biggest, 0) o map(absdiff) $ zip(row, column), reduce(add, 0) $ row))");
    check(
        f,
        [](const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
          int32_t biggest = 0, sum = 0;
          for (size_t k = 0; k < a.size(); ++k) {
            biggest = std::max(biggest, std::abs(a[k] - b[k]));
            sum += a[k];
          }
          return double(biggest + sum);
        },
        0);
  }

  // The zip-reduce form is the row function fun((a, b) => reduce(reduced, z) o map(zipped) $
  // zip(a, b)) now: its program for the store is the one (the hash) of the text it always was,
  // and its kernel the one the hand-lowered nest it had before compiled to (the texts below, from
  // before the change).
  void zipReduceKernelUnchanged() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    Zip<int32_t(int32_t, int32_t)> absDiff("int func(int x, int y) { return abs(x - y); }");
    Reduce<int32_t(int32_t)> isum("int func(int x, int y) { return x + y; }", "0");
    const AllPairs<float(float, float)> mm(sum, mult);
    const AllPairs<int32_t(int32_t, int32_t)> manhattan(isum, absDiff);
    const auto before = [](const auto& zip, const auto& reduce, const char* type) {
      UserFunction z = zip.skeleton().userFunction(), r = reduce.skeleton().userFunction();
      z.name = "zipped";
      r.name = "reduced";
      const std::string identity = reduce.skeleton().identityLiteral();
      const std::string head = "size N, M, D;\n" + z.liftText() + "\n" + r.liftText() +
                               "\nfun skelcl_allpairs(A: [[" + type + "]D]N, B: [[" + type + "]M]D) =\n";
      return std::pair{
          head +
              "  mapGlb1(fun(a => join o mapGlb0(fun(b =>\n"
              "    toGlobal(mapSeq(id)) o reduceSeq(fun((acc, x, y) => reduced(acc, zipped(x, y))), " +
              identity + ") $ zip(a, b)\n  )) $ transpose(B))) $ A\n",
          head + "  map(fun(a => map(fun(b => reduce(reduced, " + identity +
              ") o map(zipped) $ zip(a, b))) $ transpose(B))) $ A\n"};
    };
    const auto [mmKernel, mmSearch] = before(mult, sum, "float");
    const auto [manhattanKernel, manhattanSearch] = before(absDiff, isum, "int");
    const std::string mmWhat = "AllPairs<float(float, float)>", manhattanWhat = "AllPairs<int(int, int)>";
    QCOMPARE(mm.kernel().compiled().source,
             codegen::compileKernel(lang::parseProgram(mmKernel, mmWhat)).source);
    QCOMPARE(manhattan.kernel().compiled().source,
             codegen::compileKernel(lang::parseProgram(manhattanKernel, manhattanWhat)).source);
    // The store's key: the program's hash (allPairs(...) written by name now).
    const auto hash = [](const std::string& text) {
      return QString::fromStdString(explore::programHash(lang::parseProgram(text, "hashed")));
    };
    QCOMPARE(hash(mm.skeleton().storedKernels().liftText()), hash(mmSearch));
    QCOMPARE(hash(manhattan.skeleton().storedKernels().liftText()), hash(manhattanSearch));
    // The same row function given in the general form: the same kernel.
    const AllPairs<float(float, float)> general(
        "userfun zipped(float x, float y) -> float { return x * y; }\n"
        "userfun reduced(float x, float y) -> float { return x + y; }",
        "fun((a, b) => reduce(reduced, " + sum.skeleton().identityLiteral() + ") o map(zipped) $ zip(a, b))");
    QCOMPARE(general.kernel().compiled().source, mm.kernel().compiled().source);
    // And with a comment after it (the skeleton's text goes on on the next line).
    const AllPairs<float(float, float)> commented(
        "userfun zipped(float x, float y) -> float { return x * y; }\n"
        "userfun reduced(float x, float y) -> float { return x + y; }",
        "fun((a, b) => reduce(reduced, " + sum.skeleton().identityLiteral() +
            ") o map(zipped) $ zip(a, b))  // the dot product");
    QCOMPARE(commented.kernel().compiled().source, mm.kernel().compiled().source);
  }

  // The zip-reduce form in 16 x 16 tiles through local memory (AllPairsTiles.h), here on every
  // device (by default on GPUs only): parts whose sizes are multiples of 16 run the tiled kernel,
  // the others the nest (on two devices, 48 rows make parts of 24); each against the host, for
  // floats and ints. Other row functions have no tiled kernel.
  void zipReduceInLocalTiles() {
    Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
    Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
    Zip<int32_t(int32_t, int32_t)> absDiff("int func(int x, int y) { return abs(x - y); }");
    Reduce<int32_t(int32_t)> isum("int func(int x, int y) { return x + y; }", "0");
    AllPairs<float(float, float)> mm(sum, mult);
    AllPairs<int32_t(int32_t, int32_t)> manhattan(isum, absDiff);
    QCOMPARE(mm.skeleton().localTiles(), LocalTiles::OnGpus);
    for (const AllPairsSkeleton* s : {&mm.skeleton(), &manhattan.skeleton()}) {
      QVERIFY(s->tiledKernel());
      const std::string& source = s->tiledKernel()->compiled().source;
      QVERIFY2(source.find("local ") != std::string::npos && source.find("barrier(") != std::string::npos,
               source.c_str());
    }
    QVERIFY(!cosine_.allPairs().skeleton().tiledKernel());
    mm.setLocalTiles(LocalTiles::Everywhere);
    manhattan.setLocalTiles(LocalTiles::Everywhere);
    const std::vector<std::tuple<size_t, size_t, size_t>> shapes = {
        {16, 16, 16}, {32, 48, 16}, {64, 32, 80}, {48, 16, 32}, {40, 24, 36}};
    const auto dot = [](const auto& row, const auto& column) {
      double s = 0;
      for (size_t k = 0; k < row.size(); ++k) s += double(row[k]) * double(column[k]);
      return s;
    };
    const auto distance = [](const auto& row, const auto& column) {
      double s = 0;
      for (size_t k = 0; k < row.size(); ++k) s += std::abs(double(row[k]) - double(column[k]));
      return s;
    };
    check(mm, dot, 1e-4, shapes);
    check(manhattan, distance, 0, shapes);
    mm.setLocalTiles(LocalTiles::Nowhere);
    check(mm, dot, 1e-4, {{32, 16, 16}});
  }

  // The store keys AllPairs' kernels by the hash of its high-level program (explore::programHash,
  // allPairs printed as its nest), so stores made before keep serving it only while these stay:
  // the hashes of the programs the skeleton wrote out as text before it wrote allPairs(...), for
  // the program as given and specialised to sizes (the key `liftc explore` stores under).
  void storedProgramsKeepTheirHashes() {
    const auto hashes = [](const AllPairsSkeleton& s) {
      const ir::Program p = lang::parseProgram(s.storedKernels().liftText(), "hashed");
      return QString::fromStdString(
          explore::programHash(p) + " " +
          explore::SearchProblem::make(p, {{"N", 16}, {"M", 8}, {"D", 4}}).startHash);
    };
    const Reduce<int32_t(int32_t)> isum("int func(int x, int y) { return x + y; }", "0");
    const Zip<int32_t(int32_t, int32_t)> absDiff("int func(int x, int y) { return abs(x - y); }");
    QCOMPARE(hashes(MatrixMultiplication().allPairs().skeleton()),
             QString("06a6121fb6d777f3 90f130b472e5e85d"));
    QCOMPARE(hashes(ManhattanDistance().allPairs().skeleton()), QString("cc1a5015085732d3 56341d49cbb7a8bd"));
    QCOMPARE(hashes(cosine_.allPairs().skeleton()), QString("eba9da538469c25f 00c9580abac8efe5"));
    QCOMPARE(hashes(AllPairs<float(float, float)>(kEuclideanDefinitions, kEuclidean).skeleton()),
             QString("b8eaa982a9ba7669 e51142cde2871911"));
    QCOMPARE(hashes(AllPairs<int32_t(int32_t, int32_t)>(isum, absDiff).skeleton()),
             QString("511b37f8b0fccb59 93d8a91800e4dc61"));
  }

  void errors() {
    using F = AllPairs<float(float, float)>;
    const std::string what = "AllPairs<float(float, float)>";
    const auto has = [](const std::string& message, const std::string& part) {
      return message.find(part) != std::string::npos;
    };
    // Does not parse: an unknown name in the row function, a syntax error in the definitions.
    std::string e =
        errorOf([&] { F(kCosineDefinitions, "fun((a, b) => reduce(add, 0.0f) o map(mul) $ zip(a, b))"); });
    QVERIFY2(has(e, what + " row function:1:39: error: "), e.c_str());
    QVERIFY2(has(e, "mul"), e.c_str());
    e = errorOf([&] {
      F("userfun mult(float x, float y) -> float { return x * y; }\nuserfun add(float a float x)", kCosine);
    });
    QVERIFY2(has(e, what + " definitions:2:"), e.c_str());
    e = errorOf([&] {
      F("userfun add(float a, float x) -> float { return a + ; }", "fun((a, b) => reduce(add, 0.0f) $ a)");
    });
    QVERIFY2(has(e, what + " definitions:1:"), e.c_str());
    // Does not type-check: a user function applied to the wrong types (ints), at its position.
    e = errorOf([&] {
      F(kCosineDefinitions, "fun((a, b) =>\n  reduce(add, 0.0f) o map(mult) $ zip(a, map(fun(x => 1)) $ b))");
    });
    QVERIFY2(has(e, what + " row function:2:"), e.c_str());
    // The skeleton's inputs are no names of the row function; a requirement that D does not meet.
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b) => reduce(add, 0.0f) $ join $ A)"); });
    QVERIFY2(has(e, what + " row function:1:42: error: unknown name 'A'"), e.c_str());
    e = errorOf([&] {
      F(kCosineDefinitions,
        "fun((a, b) => reduce(add, 0.0f) o join o map(map(mult)) o split(2) $ zip(a, b))");
    });
    QVERIFY2(has(e, what + " row function:1:") && has(e, "divisible"), e.c_str());
    // Parameters: one, three, a type that is not the row's.
    e = errorOf([&] { F(kCosineDefinitions, "fun(a => reduce(add, 0.0f) $ a)"); });
    QVERIFY2(has(e, what + " row function:1:1: error: the function of allPairs takes two parameters") &&
                 has(e, "this one takes 1"),
             e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b, c) => reduce(add, 0.0f) $ a)"); });
    QVERIFY2(has(e, what + " row function:1:1: error: the function of allPairs takes two parameters") &&
                 has(e, "this one takes 3"),
             e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, "fun((a: [int]D, b) => reduce(add, 0.0f) $ b)"); });
    QVERIFY2(has(e, what + " row function:1:"), e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, "map(mult) $ zip(a, b)"); });  // not a lambda
    QVERIFY2(has(e, what + " row function:1:17: error: unknown name 'a'"), e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b) => reduce(add, 0.0f) $ a) extra"); });
    QVERIFY2(has(e, what + " row function:1:38: error: ") && has(e, "'extra'"), e.c_str());
    // Unclosed, closed twice, empty: the skeleton's text around it broken, located in it.
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b) => reduce(add, 0.0f) $ a"); });
    QVERIFY2(has(e, what + " row function:1:36: error: expected ')'"), e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b) => reduce(add, 0.0f) $ a))"); });
    QVERIFY2(has(e, what + " row function:1:1: error: ") && has(e, "not to ')'"), e.c_str());
    e = errorOf([&] { F(kCosineDefinitions, ""); });
    QVERIFY2(has(e, what + " row function:1:1: error: expected an expression"), e.c_str());
    // The result is no element of C: an array of D, a one-element array of int, a tuple.
    e = errorOf([&] { F(kCosineDefinitions, "fun((a, b) => map(mult) $ zip(a, b))"); });
    QVERIFY2(has(e, what + " row function:1:15: error: the row function gives [float]D; " + what +
                        " needs float or [float]1"),
             e.c_str());
    e = errorOf([&] {
      AllPairs<int32_t(float, float)>(kCosineDefinitions,
                                      "fun((a, b) => reduce(add, 0.0f) o map(mult) $ zip(a, b))");
    });
    QVERIFY2(has(e, "gives [float]1; AllPairs<int(float, float)> needs int or [int]1"), e.c_str());
    // Inner dimensions that differ, at the call.
    F cosine(kCosineDefinitions, kCosine);
    Matrix<float> A(two_, 3, 5, randomFloats(15, 1)), B(two_, 4, 7, randomFloats(28, 2));
    e = errorOf([&] { cosine(A, B); });
    QVERIFY2(has(e, "the left matrix is 3x5, so the right one needs 5 rows, not 4"), e.c_str());
    Matrix<float> elsewhere(one_, 5, 7, randomFloats(35, 3));
    QVERIFY2(has(errorOf([&] { cosine(A, elsewhere); }), "different device sets"), "device sets");
  }
};

QTEST_MAIN(TestSkelCLAllPairs)
#include "tst_skelcl_allpairs.moc"
