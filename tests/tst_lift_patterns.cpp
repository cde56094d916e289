// The patterns that complete Lift's set (issue 17): at and checkedAt (access by a computed index),
// filter, head, tail, let, fma, transposeW and the shift index function. For each: the
// interpreter's meaning, the type rule and its diagnostics at file:line:col, the round trip
// through the printer and the graph's label. Their generated kernels run on the CPU device
// against the interpreter in tst_codegen_run (tests/data/codegen/access.lift, head_tail_let.lift,
// transpose_w.lift) and are frozen by tst_golden_kernels.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include "TypeErrorCheck.h"
#include "core/interp/Interpreter.h"
#include "core/interp/Sizes.h"
#include "core/ir/Build.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;
using namespace lift::interp;

namespace {

// Declarations shared by the tests; the program function follows on line kPreludeLines + 1.
const std::string kPrelude =
    "size N, M, K;\n"
    "userfun add(float a, float b) -> float { return a + b; }\n"
    "userfun mult(float a, float b) -> float { return a * b; }\n"
    "userfun twice(float a) -> float { return 2.0f * a; }\n";
constexpr int kPreludeLines = 4;

ir::Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }

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

QString run(const std::string& fun, const std::vector<Value>& inputs) {
  ir::Program p = parse(fun);
  return QString::fromStdString(interpret(p, inputs, inferSizes(p, inputs)).toString(64));
}

InterpError failure(const std::string& fun, const std::vector<Value>& inputs) {
  try {
    run(fun, inputs);
  } catch (const InterpError& e) {
    return e;
  }
  return InterpError(InterpError::Kind::Unbound,
                     Diagnostic{Diagnostic::Severity::Error, {}, "<no error>", ""});
}

QString typeOf(const std::string& fun) {
  return QString::fromStdString(ir::typeCheck(parse(fun)).signature());
}

// Type-checking `fun` fails at the first appearance of `needle` with a message holding `parts`.
void expectError(const std::string& fun, const std::string& needle, std::vector<std::string> parts) {
  size_t pos = fun.find(needle);
  QVERIFY2(pos != std::string::npos, "needle not in the program");
  test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, static_cast<int>(pos) + 1, parts);
}

}  // namespace

class TestLiftPatterns : public QObject {
  Q_OBJECT
 private slots:
  // ----- the interpreter -----

  void atReadsTheElementAtAComputedIndex() {
    Value x = floats({10, 20, 30, 40});
    QCOMPARE(run("fun f(x: [float]N, i: [int]M) = map(fun(k => at(x, k))) $ i", {x, ints({3, 0, 0, 2})}),
             QString("[40, 10, 10, 30]"));
    auto e = failure("fun f(x: [float]N, i: [int]M) = map(fun(k => at(x, k))) $ i", {x, ints({1, 4})});
    QCOMPARE(e.kind(), InterpError::Kind::OutOfBounds);
    QVERIFY2(e.diagnostic().message.find("index 4 outside the array of length 4") != std::string::npos,
             e.what());
    QCOMPARE(e.diagnostic().loc.line, kPreludeLines + 1);
  }

  void checkedAtGivesTheDefaultOutsideTheArray() {
    Value x = floats({10, 20, 30});
    QCOMPARE(run("fun f(x: [float]N, i: [int]M) = map(fun(k => checkedAt(x, k, -1.0f))) $ i",
                 {x, ints({-1, 0, 2, 3, 100})}),
             QString("[-1, 10, 30, -1, -1]"));
    // Rows of a matrix: the default is a row.
    Value m = Value::array({floats({1, 2}), floats({3, 4})});
    QCOMPARE(run("fun f(m: [[float]K]N, i: [int]M) = map(fun(k => checkedAt(m, k, at(m, 0)))) $ i",
                 {m, ints({1, 5})}),
             QString("[[3, 4], [1, 2]]"));
  }

  void filterSelectsByAnIndexArray() {
    Value x = floats({10, 20, 30, 40});
    QCOMPARE(run("fun f(x: [float]N, i: [int]M) = filter(x, i)", {x, ints({2, 2, 0})}),
             QString("[30, 30, 10]"));
    auto e = failure("fun f(x: [float]N, i: [int]M) = filter(x, i)", {x, ints({0, -1})});
    QCOMPARE(e.kind(), InterpError::Kind::OutOfBounds);
    QVERIFY2(e.diagnostic().message.find("index -1 (at position 1)") != std::string::npos, e.what());
  }

  void headAndTail() {
    Value x = floats({1, 2, 3});
    QCOMPARE(run("fun f(x: [float]N) = head $ x", {x}), QString("[1]"));
    QCOMPARE(run("fun f(x: [float]N) = tail $ x", {x}), QString("[2, 3]"));
    QCOMPARE(run("fun f(x: [float]N) = tail o tail $ x", {x}), QString("[3]"));
  }

  void letBindsAValueOnce() {
    Value x = floats({1, 2, 3});
    QCOMPARE(run("fun f(x: [float]N) = let(fun(y => zip(y, y))) o map(twice) $ x", {x}),
             QString("[(2, 2), (4, 4), (6, 6)]"));
  }

  void fmaRoundsOnce() {
    // 1 + 2^-23 squared is 1 + 2^-22 + 2^-46: fma keeps the last term, a * b + c does not.
    float a = 1.0f + 0x1p-23f, c = -(1.0f + 0x1p-22f);
    Value xs = floats({a}), cs = floats({c});
    QCOMPARE(run("fun f(x: [float]N, c: [float]N) = map(fun(p => fma(get(0, p), get(0, p), get(1, p)))) $ "
                 "zip(x, c)",
                 {xs, cs}),
             QString::fromStdString(floats({0x1p-46f}).toString(64)));
    QCOMPARE(run("fun f(x: [float4]N) = map(fun(v => fma(v, v, v))) $ x",
                 {Value::flatArray(ScalarKind::Float, 4, {1}, std::vector<Scalar>(4, Scalar{.f = 2}))}),
             QString("[(float4)(6, 6, 6, 6)]"));
  }

  void shiftRotates() {
    Value x = ints({0, 1, 2, 3, 4});
    QCOMPARE(run("fun f(x: [int]N) = gather(shift(2)) $ x", {x}), QString("[2, 3, 4, 0, 1]"));
    QCOMPARE(run("fun f(x: [int]N) = scatter(shift(2)) $ x", {x}), QString("[3, 4, 0, 1, 2]"));
    QCOMPARE(run("fun f(x: [int]N) = gather(shift(7)) $ x", {x}), QString("[2, 3, 4, 0, 1]"));
  }

  void transposeWMeansTranspose() {
    Value m = Value::array({floats({1, 2, 3}), floats({4, 5, 6})});
    QCOMPARE(run("fun f(m: [[float]M]N) = transposeW $ m", {m}), QString("[[1, 4], [2, 5], [3, 6]]"));
  }

  // ----- types -----

  void types() {
    QCOMPARE(typeOf("fun f(x: [[float]K]N, i: int) = at(x, i)"), QString("([[float]K]N, int) -> [float]K"));
    QCOMPARE(typeOf("fun f(x: [float]N, i: int) = checkedAt(x, i, 0.0f)"),
             QString("([float]N, int) -> float"));
    QCOMPARE(typeOf("fun f(x: [float]N, i: [int]M) = filter(x, i)"),
             QString("([float]N, [int]M) -> [float]M"));
    QCOMPARE(typeOf("fun f(x: [float]N) = head $ x"), QString("([float]N) -> [float]1"));
    QCOMPARE(typeOf("fun f(x: [float]N) = tail $ x"), QString("([float]N) -> [float](N - 1)"));
    QCOMPARE(typeOf("fun f(x: [[float]K]N) = transposeW $ x"), QString("([[float]K]N) -> [[float]N]K"));
    QCOMPARE(typeOf("fun f(x: [float]N) = let(fun(y => zip(y, y))) $ x"),
             QString("([float]N) -> [(float, float)]N"));
    QCOMPARE(typeOf("fun f(x: [double2]N) = map(fun(v => fma(v, v, v))) $ x"),
             QString("([double2]N) -> [double2]N"));
    QCOMPARE(typeOf("fun f(x: [float]N) = gather(shift(N + 1)) $ x"), QString("([float]N) -> [float]N"));
  }

  void typeErrorsAreLocated() {
    expectError("fun f(x: [float]N, i: float) = at(x, i)", "at(", {"at expects an int index", "got float"});
    expectError("fun f(x: float, i: int) = at(x, i)", "at(", {"at expects an array as first argument"});
    expectError("fun f(x: [float]N, i: int) = checkedAt(x, i, 0)", "checkedAt(",
                {"the default value has type int but the elements have type float"});
    expectError("fun f(x: [float]N, i: [float]M) = filter(x, i)", "filter(",
                {"filter expects an array of int indices", "[float]M"});
    expectError("fun f(x: [float]1) = tail $ x", "tail", {"at least two elements"});
    expectError("fun f(x: [float]N) = map(fun(a => fma(a, a, 1))) $ x", "fma(",
                {"fma expects three float or double values", "float, float and int"});
    expectError("fun f(x: [float]N) = transposeW $ x", "transposeW", {"two-dimensional array"});
    expectError("fun f(x: [float]N) = gather(shift(-1)) $ x", "gather",
                {"shift(-1)", "must not be negative"});
    expectError("fun f(x: [float]N) = head $ 1.0f", "head", {"head expects an array"});
  }

  // ----- the language and the graph -----

  void printsBackAsWritten() {
    // Each body and a fragment its canonical print keeps.
    const std::pair<const char*, const char*> cases[] = {
        {"filter(x, i)", "filter(x, i)"},
        {"map(fun(k => at(x, k))) $ i", "at(x, k)"},
        {"map(fun(k => checkedAt(x, k, 0.0f))) $ i", "checkedAt(x, k, 0.0f)"},
        {"head o tail $ x", "head"},
        {"transposeW o split(2) $ x", "transposeW"},
        {"gather(shift(3)) $ x", "gather(shift(3))"},
        {"let(fun(y => zip(y, y))) $ x", "let(fun(y => zip(y, y)))"},
        {"map(fun(a => fma(a, a, a))) $ x", "fma(a, a, a)"}};
    for (auto [body, kept] : cases) {
      std::string text = std::string("fun f(x: [float]N*2, i: [int]M) = ") + body;
      ir::Program p = parse(text);
      std::string printed = lang::printProgram(p);
      QVERIFY2(printed.find(kept) != std::string::npos, printed.c_str());
      ir::Program q = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
      QCOMPARE(QString::fromStdString(lang::printProgram(q)), QString::fromStdString(printed));
    }
  }

  void graphLabels() {
    QCOMPARE(
        QString::fromStdString(ir::patternLabel(*ir::asPattern(ir::gather(ir::shiftIndex(arith::cst(2)))))),
        QString("gather shift 2"));
    QCOMPARE(QString::fromStdString(ir::patternLabel(*ir::asPattern(ir::fma()))), QString("fma"));
  }

  void builtProgramsMatchParsedOnes() {
    ir::Program parsed = parse("fun f(x: [float]N, i: int) = checkedAt(x, i, 0.0f)");
    ir::Param x = ir::param("x", Type::array(Type::float_(), arith::sizeVar("N")));
    ir::Param i = ir::param("i", Type::scalar(ScalarKind::Int));
    ir::Program built = ir::program("f", {x, i}, ir::checkedAt(x, i, ir::literal("0.0f", Type::float_())));
    QVERIFY(ir::alphaEqual(ir::Fun(parsed.main), ir::Fun(built.main)));
  }
};

QTEST_APPLESS_MAIN(TestLiftPatterns)
#include "tst_lift_patterns.moc"
