// The reference interpreter: each pattern's meaning on small concrete inputs, runtime errors,
// random inputs, comparison, and the inference, checking and choice of sizes.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include <atomic>
#include <numeric>

#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/support/ParallelFor.h"

using namespace lift;
using namespace lift::interp;

namespace {

const char* const kUserFuns = R"(
userfun add(float a, float b) -> float { return a + b; }
userfun mult(float a, float b) -> float { return a * b; }
userfun neg(float x) -> float { return -x; }
userfun twice(float x) -> float { return 2.0f * x; }
userfun multAndSumUp(float acc, float x, float y) -> float { return acc + x * y; }
userfun iadd(int a, int b) -> int { return a + b; }
userfun idiv(int a, int b) -> int { return a / b; }
userfun swap(float x, int i) -> (int, float) { return (Tuple2_int_float){i, x}; }
)";

ir::Program parse(const std::string& program) {
  return lang::parseProgram(std::string(kUserFuns) + program, "test.lift");
}

Value floats(std::vector<float> xs) {
  std::vector<Scalar> data;
  for (float x : xs) {
    Scalar s{};
    s.f = x;
    data.push_back(s);
  }
  return Value::flatArray(ScalarKind::Float, 1, {static_cast<int64_t>(xs.size())}, std::move(data));
}

Value ints(std::vector<int32_t> xs) {
  std::vector<Scalar> data;
  for (int32_t x : xs) {
    Scalar s{};
    s.i = x;
    data.push_back(s);
  }
  return Value::flatArray(ScalarKind::Int, 1, {static_cast<int64_t>(xs.size())}, std::move(data));
}

Value iota(int n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return ints(v);
}

// Runs `program` (after the shared user functions) on inputs; sizes are inferred from them.
Value run(const std::string& program, const std::vector<Value>& inputs, arith::Env sizes = {}) {
  ir::Program p = parse(program);
  arith::Env inferred = inferSizes(p, inputs);
  inferred.insert(sizes.begin(), sizes.end());
  return interpret(p, inputs, inferred);
}

QString str(const Value& v) { return QString::fromStdString(v.toString(64)); }

// The error an interpretation throws.
InterpError failure(const std::string& program, const std::vector<Value>& inputs, arith::Env sizes = {}) {
  try {
    run(program, inputs, sizes);
  } catch (const InterpError& e) {
    return e;
  }
  return InterpError(InterpError::Kind::Unbound,
                     Diagnostic{Diagnostic::Severity::Error, {}, "<no error>", ""});
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

class TestInterpreter : public QObject {
  Q_OBJECT
 private slots:
  // ----- maps and reductions -----

  void mapsOfEveryFlavourAgree() {
    Value x = floats({1, -2, 3});
    for (const char* m : {"map", "mapSeq", "mapSeqUnroll", "mapGlb", "mapGlb1"})
      QCOMPARE(str(run(fmt::format("size N; fun f(x: [float]N) = {}(neg) $ x", m), {x})),
               QString("[-1, 2, -3]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = mapWrg(mapLcl(neg)) o split(1) $ x", {x})),
             QString("[[-1], [2], [-3]]"));
  }

  void mapsNest() {
    Value m = Value::array({floats({1, 2}), floats({3, 4}), floats({5, 6})});
    QCOMPARE(str(run("size N, M; fun f(m: [[float]M]N) = map(map(twice)) $ m", {m})),
             QString("[[2, 4], [6, 8], [10, 12]]"));
  }

  void reduceGivesAnArrayOfOne() {
    Value x = floats({1, 2, 3, 4});
    QCOMPARE(str(run("size N; fun f(x: [float]N) = reduce(add, 0.5f) $ x", {x})), QString("[10.5]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = reduceSeq(0.0f, add) $ x", {x})), QString("[10]"));
    // Left fold: ((z - a) - b) ...; a lambda reducer with named parameters.
    QCOMPARE(
        str(run("size N; fun f(x: [float]N) = reduceSeqUnroll(fun((acc, y) => add(acc, neg(y))), 0.0f) $ x",
                {x})),
        QString("[-10]"));
  }

  void partialReductionReducesParts() {
    QCOMPARE(str(run("size N; fun f(x: [float]N) = partRed(add, 0.0f, 2) $ x", {floats({1, 2, 3, 4, 5, 6})})),
             QString("[3, 7, 11]"));
  }

  void scansAreExclusive() {
    Value x = floats({1, 2, 3, 4});
    QCOMPARE(str(run("size N; fun f(x: [float]N) = scan(add, 0.0f) $ x", {x})), QString("[0, 1, 3, 6]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = scanSeq(0.5f, add) $ x", {x})),
             QString("[0.5, 1.5, 3.5, 6.5]"));
    // scanSeq may carry another type: the running dot product of pairs.
    QCOMPARE(str(run("size N; fun f(x: [float]N, y: [float]N) = scanSeq(multAndSumUp, 0.0f) $ zip(x, y)",
                     {floats({1, 2, 3}), floats({4, 5, 6})})),
             QString("[0, 4, 14]"));
  }

  void reduceFlattensPairs() {
    // multAndSumUp(acc, x, y) reduces an array of pairs (the CGO dot product).
    Value x = floats({1, 2, 3}), y = floats({4, 5, 6});
    QCOMPARE(str(run("size N; fun f(x: [float]N, y: [float]N) = reduceSeq(multAndSumUp, 0.0f) $ zip(x, y)",
                     {x, y})),
             QString("[32]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, y: [float]N) = map(mult) $ zip(x, y)", {x, y})),
             QString("[4, 10, 18]"));
  }

  void reduceWithArrayAccumulator() {
    // zeros(...) as the initial value; element-wise addition of rows.
    Value m = Value::array({floats({1, 2}), floats({3, 4}), floats({5, 6})});
    QCOMPARE(str(run("size N; fun f(m: [[float]2]N) = reduce(fun((acc, row) => map(add) $ zip(acc, row)), "
                     "zeros([float]2)) $ m",
                     {m})),
             QString("[[9, 12]]"));
  }

  // ----- data layout -----

  void zipUnzipGetTuple() {
    Value x = floats({1, 2}), i = ints({7, 8});
    QCOMPARE(str(run("size N; fun f(x: [float]N, i: [int]N) = zip(x, i)", {x, i})),
             QString("[(1, 7), (2, 8)]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, i: [int]N) = unzip $ zip(x, i)", {x, i})),
             QString("([1, 2], [7, 8])"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, i: [int]N) = map(fun(p => get(1, p))) $ zip(x, i)", {x, i})),
             QString("[7, 8]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, i: [int]N) = map(swap) $ zip(x, i)", {x, i})),
             QString("[(7, 1), (8, 2)]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = map(fun(a => tuple(a, neg(a)))) $ x", {x})),
             QString("[(1, -1), (2, -2)]"));
  }

  void splitJoinTranspose() {
    Value x = iota(6);
    QCOMPARE(str(run("size N; fun f(x: [int]N) = split(2) $ x", {x})), QString("[[0, 1], [2, 3], [4, 5]]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = join o split(3) $ x", {x})), QString("[0, 1, 2, 3, 4, 5]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = transpose o split(3) $ x", {x})),
             QString("[[0, 3], [1, 4], [2, 5]]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = transpose o transpose o split(3) $ x", {x})),
             QString("[[0, 1, 2], [3, 4, 5]]"));
    // Transposing arrays of pairs (boxed storage) and 3-D arrays (blocks move whole).
    Value t = run("size N; fun f(x: [int]N) = transpose o split(2) $ zip(x, x)", {x});
    QCOMPARE(str(t), QString("[[(0, 0), (2, 2), (4, 4)], [(1, 1), (3, 3), (5, 5)]]"));
    Value cube = run("size N; fun f(x: [int]N) = transpose o split(2) o split(3) $ x", {iota(12)});
    QCOMPARE(str(cube), QString("[[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]]]"));
  }

  void gatherAndScatter() {
    Value x = iota(8);
    QCOMPARE(str(run("size N; fun f(x: [int]N) = gather(reverse) $ x", {x})),
             QString("[7, 6, 5, 4, 3, 2, 1, 0]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = gather(reorderStride(2)) $ x", {x})),
             QString("[0, 2, 4, 6, 1, 3, 5, 7]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = reorderStride(2) $ x", {x})),
             QString("[0, 2, 4, 6, 1, 3, 5, 7]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = scatter(reorderStride(2)) $ x", {x})),
             QString("[0, 4, 1, 5, 2, 6, 3, 7]"));
    QCOMPARE(str(run("size N; fun f(x: [int]N) = scatter(reverse) $ x", {x})),
             QString("[7, 6, 5, 4, 3, 2, 1, 0]"));
    // The CGO transposition: a 2 x 3 matrix read column by column.
    Value m = Value::array({ints({0, 1, 2}), ints({3, 4, 5})});
    QCOMPARE(str(run("size M, N; fun f(x: [[int]M]N) = split(N) o gather(transpose(N, M)) o join $ x", {m})),
             QString("[[0, 3], [1, 4], [2, 5]]"));
  }

  void slideAndPad() {
    Value x = floats({1, 2, 3, 4, 5});
    QCOMPARE(str(run("size N; fun f(x: [float]N) = slide(3, 1) $ x", {x})),
             QString("[[1, 2, 3], [2, 3, 4], [3, 4, 5]]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = slide(2, 2) $ x", {x})), QString("[[1, 2], [3, 4]]"));
    Value y = floats({1, 2, 3});
    QCOMPARE(str(run("size N; fun f(x: [float]N) = pad(2, 2, clamp) $ x", {y})),
             QString("[1, 1, 1, 2, 3, 3, 3]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = pad(2, 2, mirror) $ x", {y})),
             QString("[2, 1, 1, 2, 3, 3, 2]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = pad(2, 2, wrap) $ x", {y})),
             QString("[2, 3, 1, 2, 3, 1, 2]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = pad(1, 2, 0.5f) $ x", {y})),
             QString("[0.5, 1, 2, 3, 0.5, 0.5]"));
    // A 3-point stencil: slide over the clamped array.
    QCOMPARE(str(run("size N; fun f(x: [float]N) = map(fun(w => reduceSeq(add, 0.0f) $ w)) o slide(3, 1) o "
                     "pad(1, 1, clamp) $ x",
                     {y})),
             QString("[[4], [6], [8]]"));
  }

  void iterateAndId() {
    QCOMPARE(str(run("size N; fun f(x: [float]N) = iterate(3, map(twice)) $ x", {floats({1, 2})})),
             QString("[8, 16]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = iterate2(join o map(reduceSeq(add, 0.0f)) o split(2)) $ x",
                     {floats({1, 2, 3, 4, 5, 6, 7, 8})})),
             QString("[10, 26]"));
    QCOMPARE(
        str(run("size N; fun f(x: [float]N) = toGlobal(mapSeq(id)) o toLocal(mapSeq(id)) o toPrivate(id) $ x",
                {floats({1, 2})})),
        QString("[1, 2]"));
  }

  void vectors() {
    Value x = floats({1, 2, 3, 4, 5, 6, 7, 8}), y = floats({1, 1, 1, 1, 2, 2, 2, 2});
    QCOMPARE(str(run("size N; fun f(x: [float]N) = asVector(4) $ x", {x})),
             QString("[(float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8)]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = asScalar o asVector4 $ x", {x})),
             QString("[1, 2, 3, 4, 5, 6, 7, 8]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, y: [float]N) = asScalar o map(vectorize(4, mult)) $ "
                     "zip(asVector(4) $ x, asVector(4) $ y)",
                     {x, y})),
             QString("[1, 2, 3, 4, 10, 12, 14, 16]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N) = map(mapVec(neg)) o asVector(2) $ x", {floats({1, 2})})),
             QString("[(float2)(-1, -2)]"));
    QCOMPARE(str(run("size N; fun f(x: [float]N, y: [float]N) = map(fun(p => dot(get(0, p), get(1, p)))) $ "
                     "zip(asVector(4) $ x, asVector(4) $ y)",
                     {x, y})),
             QString("[10, 52]"));
    // A vector literal as the initial value of a vectorised reduction.
    QCOMPARE(
        str(run("size N; fun f(x: [float]N) = reduceSeq(vectorize(4, add), (float4)0.5f) o asVector(4) $ x",
                {x})),
        QString("[(float4)(6.5, 8.5, 10.5, 12.5)]"));
  }

  void dataLayoutKeepsFlatStorage() {
    Value x = floats({1, 2, 3, 4, 5, 6});
    Value r = run("size N; fun f(x: [float]N) = join o split(2) o asScalar o asVector(2) $ x", {x});
    QVERIFY(r.isFlat());
    QCOMPARE(r.flatData().data(), x.flatData().data());  // no copy was made
  }

  // ----- errors -----

  void inputsMustMatchTheirTypes() {
    ir::Program p = parse("size N; fun f(x: [float]N, y: [float]N) = map(mult) $ zip(x, y)");
    try {
      interpret(p, {floats({1, 2}), floats({1, 2, 3})}, {{"N", 2}});
      QFAIL("no error");
    } catch (const InterpError& e) {
      QCOMPARE(e.kind(), InterpError::Kind::Input);
      QVERIFY(contains(e.diagnostic().message, "input 'y' has type [float]3"));
      QVERIFY(e.diagnostic().loc.known());
    }
    auto inferred = failure("size N; fun f(x: [float]N, y: [float]N) = map(mult) $ zip(x, y)",
                            {floats({1, 2}), floats({1, 2, 3})});
    QCOMPARE(inferred.kind(), InterpError::Kind::Input);
    QVERIFY(contains(inferred.diagnostic().message, "N = 2"));
    QVERIFY_THROWS_EXCEPTION(InterpError, interpret(p, {floats({1, 2})}, {{"N", 2}}));
    QVERIFY_THROWS_EXCEPTION(InterpError, interpret(p, {ints({1, 2}), ints({1, 2})}, {{"N", 2}}));
  }

  void shapeErrorsAtRunTime() {
    // Valid for N divisible by 4, run with N = 6: located at the split.
    auto e = failure("size N; fun f(x: [float]N) = split(4) $ x", {floats({1, 2, 3, 4, 5, 6})});
    QCOMPARE(e.kind(), InterpError::Kind::Shape);
    QVERIFY(contains(e.diagnostic().message, "split 4 of an array of length 6"));
    QCOMPARE(e.diagnostic().loc.line, 10);  // the program's line, after the user functions
    QCOMPARE(e.diagnostic().loc.col, 30);
  }

  void indexFunctionsOutOfBounds() {
    auto e = failure("size N; fun f(x: [float]N) = pad(5, 0, mirror) $ x", {floats({1, 2})});
    QVERIFY2(e.kind() == InterpError::Kind::OutOfBounds, e.what());
    QVERIFY(contains(e.diagnostic().message, "more than the array's length"));
  }

  void indexFunctionsNeedFittingLengths() {
    // Well-typed only for N = R*C; run at other lengths, the interpreter says so.
    auto e = failure("size N, R, C; fun f(x: [int]N) = gather(transpose(R, C)) $ x", {iota(6)},
                     {{"R", 2}, {"C", 2}});
    QCOMPARE(e.kind(), InterpError::Kind::Shape);
    QVERIFY2(contains(e.diagnostic().message,
                      "gather(transpose(2, 2)) of an array of length 6: the length must be 4"),
             e.what());
    auto s = failure("size N; fun f(x: [int]N) = scatter(reorderStride(4)) $ x", {iota(6)});
    QVERIFY2(contains(s.diagnostic().message, "not divisible by 4"), s.what());
  }

  void userFunctionErrorsAreLocated() {
    auto e =
        failure("size N; fun f(x: [int]N, y: [int]N) = map(idiv) $ zip(x, y)", {ints({1, 2}), ints({1, 0})});
    QCOMPARE(e.kind(), InterpError::Kind::UserFunction);
    QVERIFY(contains(e.diagnostic().message, "integer division by zero (in user function 'idiv')"));
    QCOMPARE(e.diagnostic().loc.line, 8);  // the user function's body
  }

  void longRunsCanBeLimitedAndCancelled() {
    ir::Program p = parse("size N; fun f(x: [float]N) = iterate(100000, map(twice)) $ x");
    arith::Env sizes{{"N", 4}};
    InterpOptions limited;
    limited.maxApplications = 5000;
    try {
      interpret(p, {floats({1, 2, 3, 4})}, sizes, limited);
      QFAIL("no error");
    } catch (const InterpError& e) {
      QCOMPARE(e.kind(), InterpError::Kind::Limit);
    }
    std::atomic<bool> cancel{true};
    InterpOptions cancelled;
    cancelled.cancel = &cancel;
    try {
      interpret(p, {floats({1, 2, 3, 4})}, sizes, cancelled);
      QFAIL("no error");
    } catch (const InterpError& e) {
      QCOMPARE(e.kind(), InterpError::Kind::Cancelled);
    }
  }

  // ----- random inputs, comparison -----

  void randomInputsAreReproducibleAndNonZero() {
    ir::Program p = parse("size N, M; fun f(a: [[float]M]N, b: [int]N, c: [float4]M) = a");
    arith::Env sizes{{"N", 5}, {"M", 3}};
    auto in1 = randomInputs(p, sizes, 7), in2 = randomInputs(p, sizes, 7), in3 = randomInputs(p, sizes, 8);
    QCOMPARE(in1.size(), size_t(3));
    QCOMPARE(QString::fromStdString(in1[0].type().toString()), QString("[[float]3]5"));
    QCOMPARE(QString::fromStdString(in1[2].type().toString()), QString("[float4]3"));
    QVERIFY(approxEqual(in1[0], in2[0], 0, 0));
    QVERIFY(!approxEqual(in1[0], in3[0]));
    for (auto& v : in1)
      for (Scalar s : v.flatData()) QVERIFY(s.i != 0);  // floats in [-1, 1) and ints: never 0 bits
    for (Scalar s : in1[0].flatData()) QVERIFY(s.f >= -1.0f && s.f < 1.0f && std::abs(s.f) >= 1.0f / 64);
    for (Scalar s : in1[1].flatData()) QVERIFY(s.i >= -9 && s.i <= 9);
    checkInputs(p, in1, sizes);
  }

  // A flat array's scalars depend on the seed, the array and the index only: made by several
  // threads (2^20 scalars and more) they are those made by one, and their distribution holds.
  void bigRandomInputsAreTheSmallOnesPrefix() {
    ir::Program p = parse("size N; fun f(a: [float]N, b: [int]N) = a");
    const int64_t big = (int64_t(1) << 20) + 7;
    auto small = randomInputs(p, {{"N", 1000}}, 11), large = randomInputs(p, {{"N", big}}, 11),
         again = randomInputs(p, {{"N", big}}, 11);
    QVERIFY(approxEqual(large[0], again[0], 0, 0));
    for (size_t input = 0; input < 2; ++input)
      for (size_t i = 0; i < 1000; ++i) QCOMPARE(large[input].flatData()[i].i, small[input].flatData()[i].i);
    double sum = 0;
    for (Scalar s : large[0].flatData()) {
      QVERIFY(s.f >= -1.0f && s.f < 1.0f && std::abs(s.f) >= 1.0f / 64);
      sum += s.f;
    }
    QVERIFY2(std::abs(sum / double(big)) < 0.01, qPrintable(QString::number(sum / double(big))));
    std::vector<int> counts(19);
    for (Scalar s : large[1].flatData()) {
      QVERIFY(s.i >= -9 && s.i <= 9 && s.i != 0);
      ++counts[static_cast<size_t>(s.i + 9)];
    }
    for (int v = -9; v <= 9; ++v)
      if (v != 0) QVERIFY(std::abs(counts[static_cast<size_t>(v + 9)] - big / 18) < big / 180);
  }

  // parallelFor runs the body on every index once, over ranges that cover [0, n).
  void parallelForCoversEveryIndexOnce() {
    for (size_t n : {size_t(0), size_t(1), size_t(999), (size_t(1) << 20) + 3}) {
      std::vector<std::atomic<int>> hits(n);
      support::parallelFor(n, [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) hits[i].fetch_add(1);
      });
      for (size_t i = 0; i < n; ++i) QCOMPARE(hits[i].load(), 1);
    }
  }

  // A cancel flag that stays false changes nothing; one that is set stops the inputs (a search
  // that ends stops its reference's thread; a 2^14 x 2^14 matrix took seconds, most of it in the
  // first touch of its pages).
  void randomInputsStopWhenCancelled() {
    ir::Program p = parse("size N, M; fun f(a: [[float]M]N, b: [[int]N]M) = a");
    arith::Env sizes{{"N", 300}, {"M", 700}};
    std::atomic<bool> cancel{false};
    auto plain = randomInputs(p, sizes, 3), watched = randomInputs(p, sizes, 3, &cancel);
    QVERIFY(approxEqual(plain[0], watched[0], 0, 0));
    QVERIFY(approxEqual(plain[1], watched[1], 0, 0));
    cancel = true;
    QVERIFY_THROWS_EXCEPTION(LiftError, randomInputs(p, sizes, 3, &cancel));
    QVERIFY_THROWS_EXCEPTION(LiftError, randomInputs(p, arith::Env{{"N", 1}, {"M", 1}}, 3, &cancel));
  }

  void approxEqualReports() {
    Value a = Value::array({floats({1, 2}), floats({3, 4})});
    Value b = Value::array({floats({1, 2}), floats({3, 4.5f})});
    auto c = approxEqual(a, b);
    QVERIFY(!c);
    QCOMPARE(c.mismatches, size_t(1));
    QCOMPARE(c.compared, size_t(4));
    QVERIFY(contains(c.report(), "1 of 4 values differ; first at [1][1]: 4 vs 4.5"));
    QVERIFY(approxEqual(a, Value::array({floats({1, 2}), floats({3, 4.0001f})}), 1e-4));
    auto shape = approxEqual(a, floats({1, 2, 3, 4}));
    QVERIFY(!shape);
    QVERIFY(contains(shape.report(), "different shapes"));
    QVERIFY(approxEqual(Value::tuple({Value::ofInt(1), Value::ofBool(true)}),
                        Value::tuple({Value::ofInt(1), Value::ofBool(true)})));
    QVERIFY(!approxEqual(Value::ofInt(1), Value::ofInt(2)));
    QVERIFY(!approxEqual(Value::ofFloat(1), Value::ofInt(1)));
  }

  // ----- sizes -----

  void infersSizesFromInputs() {
    ir::Program p = parse("size M, K; fun f(a: [[float]K]M, v: [float]K*2) = a");
    Value a = Value::array({floats({1, 2, 3}), floats({4, 5, 6})});
    auto env = inferSizes(p, {a, floats({1, 2, 3, 4, 5, 6})});
    QCOMPARE(env.at("M"), int64_t(2));
    QCOMPARE(env.at("K"), int64_t(3));
    ir::Program q = parse("size N; fun f(v: [float]N/4) = v");
    QCOMPARE(inferSizes(q, {floats({1, 2})}).at("N"), int64_t(8));
    QVERIFY_THROWS_EXCEPTION(InterpError, inferSizes(p, {a, floats({1, 2, 3})}));
  }

  void checksSizesAgainstTheTypes() {
    ir::Program p = parse("size N; fun f(x: [float]N) = join o map(reduceSeq(add, 0.0f)) o split(128) $ x");
    QVERIFY(!sizeProblem(p, {{"N", 256}}));
    auto problem = sizeProblem(p, {{"N", 100}});
    QVERIFY(problem);
    QVERIFY(contains(problem->message, "divisible by 128"));
    QVERIFY(problem->loc.known());
    QVERIFY(sizeProblem(p, {{"N", 0}}));
    QVERIFY(sizeProblem(p, {}));
  }

  void choosesSmallValidSizes() {
    ir::Program dot = parse(R"(size N;
      fun f(x: [float]N, y: [float]N) =
        join o mapWrg(join o mapLcl(reduceSeq(multAndSumUp, 0.0f)) o split(2)) o split(128) $ zip(x, y))");
    auto env = chooseSizes(dot);
    QCOMPARE(env.at("N"), int64_t(128));
    ir::Program vec = parse("size N, M; fun f(m: [[float]M]N) = split(3) o map(asVector(4)) $ m");
    auto v = chooseSizes(vec);
    QVERIFY(!sizeProblem(vec, v));
    QCOMPARE(v.at("N"), int64_t(9));
    QCOMPARE(v.at("M"), int64_t(8));
    ir::Program plain = parse("size N; fun f(x: [float]N) = map(neg) $ x");
    QCOMPARE(chooseSizes(plain).at("N"), int64_t(8));
    SizeHint hint;
    hint.atLeast = 1;
    QCOMPARE(chooseSizes(plain, hint).at("N"), int64_t(1));
    // Fixed sizes are kept and checked.
    hint.fixed = {{"N", 100}};
    QVERIFY_THROWS_EXCEPTION(LiftError, chooseSizes(dot, hint));
    // Defaults, when asked for.
    ir::Program withDefault = parse("size N = 64; fun f(x: [float]N) = map(neg) $ x");
    SizeHint defaults;
    defaults.useDefaults = true;
    QCOMPARE(chooseSizes(withDefault, defaults).at("N"), int64_t(64));
  }

  void randomRunsAgreeWithTheHighLevelProgram() {
    // A low-level dot product (CGO partialDot's structure) equals the high-level one.
    ir::Program low = parse(R"(size N;
      fun f(x: [float]N, y: [float]N) =
        join o mapWrg(join o toGlobal(mapLcl(mapSeq(id))) o split(1) o
                      iterate(6, join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(2)) o
                      join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(multAndSumUp, 0.0f)) o split(2)) o split(128) $ zip(x, y))");
    ir::Program high = parse(
        "size N; fun f(x: [float]N, y: [float]N) = join o map(reduce(add, 0.0f)) o split(128) o map(mult) $ "
        "zip(x, y)");
    for (int64_t n : {128, 384}) {
      arith::Env sizes{{"N", n}};
      auto inputs = randomInputs(low, sizes, static_cast<uint64_t>(n));
      auto c = approxEqual(interpret(low, inputs, sizes), interpret(high, inputs, sizes), 1e-5, 1e-5);
      QVERIFY2(c, c.report().c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"
