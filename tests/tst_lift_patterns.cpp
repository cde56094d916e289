// The patterns that complete Lift's set (issue 17): at and checkedAt (access by a computed index),
// filter, head, tail, let, fma (also as a function value: map(fma)), transposeW and the shift index
// function. For each: the interpreter's meaning, the type rule and its diagnostics at
// file:line:col, the round trip through the printer and the graph's label. Their generated
// kernels run on the CPU device against the interpreter in tst_codegen_run
// (tests/data/codegen/access.lift, head_tail_let.lift, transpose_w.lift, fma_map.lift) and are
// frozen by tst_golden_kernels.
// The second group (issue 17, part 1, lift17p): bSearch, lSearch, reduceWhileSeq, filterSeq and
// insertionSortSeq; their kernels also run here on sorted data (tests/data/codegen/search.lift,
// reduce_while.lift and filter_sort.lift run on random data in tst_codegen_run).
// And docs/LANGUAGE.md's table of Lift's pattern classes: it names every pattern of the language
// and no other (languageTableListsEveryPattern).
#include <QtTest/QtTest>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>

#include "InterpreterCheck.h"
#include "TypeErrorCheck.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Interpreter.h"
#include "core/interp/Sizes.h"
#include "core/ir/Build.h"
#include "core/ir/Pattern.h"
#include "core/ir/Prelude.h"
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

// ----- issue 17: search, early exit, filter and sort (lift17p) -----

// n distinct ints in increasing order, gaps of 1 to 3 from `from`.
std::vector<int32_t> sortedDistinct(size_t n, std::mt19937& rng, int32_t from = -20) {
  std::vector<int32_t> v;
  int32_t k = from;
  for (size_t i = 0; i < n; ++i) v.push_back(k += 1 + static_cast<int32_t>(rng() % 3));
  return v;
}

std::vector<int32_t> asInts(const Value& v) {
  std::vector<Scalar> s;
  v.flattenInto(s);
  std::vector<int32_t> out;
  for (Scalar x : s) out.push_back(x.i);
  return out;
}

// The prelude's comparison of a key: < 0 where the element is after it, > 0 before, 0 equal.
const std::string kSearchPrelude =
    "userfun cmpKey(int k, int key) -> int { return k > key ? -1 : (k < key ? 1 : 0); }\n";

// ----- end of issue 17 (lift17p) -----

// The rows of docs/LANGUAGE.md's table "Lift pattern classes": its three cells each (Lift's
// classes, the patterns here, the notes), without the header.
std::vector<std::array<std::string, 3>> liftPatternClassRows() {
  std::ifstream in(LIFT_SOURCE_DIR "/docs/LANGUAGE.md");
  std::vector<std::array<std::string, 3>> rows;
  std::string line;
  bool inSection = false;
  int tableLines = 0;
  auto trim = [](std::string t) {
    size_t a = t.find_first_not_of(' '), b = t.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
  };
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0 || line.rfind("## ", 0) == 0) {
      if (inSection) break;
      inSection = line == "### Lift pattern classes";
      continue;
    }
    if (!inSection || line.rfind("|", 0) != 0) continue;
    if (++tableLines <= 2) continue;  // the header and its separator
    std::vector<std::string> cells;
    size_t start = 1;
    for (size_t bar = line.find('|', start); bar != std::string::npos; bar = line.find('|', start)) {
      cells.push_back(trim(line.substr(start, bar - start)));
      start = bar + 1;
    }
    if (cells.size() != 3)
      throw std::runtime_error("a row of 'Lift pattern classes' without three cells: " + line);
    rows.push_back({cells[0], cells[1], cells[2]});
  }
  return rows;
}

// The names between backticks in a cell, each up to its first '(' (`gather(shift(k))` is gather).
std::vector<std::string> codeNames(const std::string& cell) {
  std::vector<std::string> out;
  for (size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
    size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    std::string name = cell.substr(open + 1, close - open - 1);
    out.push_back(name.substr(0, name.find('(')));
    open = close + 1;
  }
  return out;
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

  // fma and dot as functions of their own (`map(fma) $ zip(a, b, c)`): the parser makes the lambda
  // of three (two) parameters that takes each tuple apart, and the printer writes it by name.
  void fmaAndDotAreFirstClassFunctions() {
    QCOMPARE(run("fun f(a: [float]N, b: [float]N, c: [float]N) = map(fma) $ zip(a, b, c)",
                 {floats({1, 2}), floats({3, 4}), floats({5, 6})}),
             QString("[8, 14]"));
    QCOMPARE(typeOf("fun f(a: [float4]N, b: [float4]N) = map(dot) $ zip(a, b)"),
             QString("([float4]N, [float4]N) -> [float]N"));
    QCOMPARE(typeOf("fun f(a: [double2]N) = mapSeq(fma) $ zip(a, a, a)"),
             QString("([double2]N) -> [double2]N"));
    for (std::string body :
         {"map(fma) $ zip(x, x, x)", "map(dot) $ zip(v, v)", "mapGlb0(fma) $ zip(x, x, x)"}) {
      ir::Program p = parse("fun f(x: [float]N, v: [float4]N) = " + body);
      std::string printed = lang::printProgram(p);
      QVERIFY2(printed.find(body) != std::string::npos, printed.c_str());
      ir::Program q = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
    }
    // Applied to its arguments, fma stays a call of the pattern.
    ir::Program direct = parse("fun f(x: [float]N) = map(fun(e => fma(e, e, e))) $ x");
    QVERIFY(lang::printProgram(direct).find("fma(e, e, e)") != std::string::npos);
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

  // ----- issue 17: search, early exit, filter and sort (lift17p) -----

  void bSearchFindsTheKeyOrGivesTheDefault() {
    std::string prog =
        kSearchPrelude +
        "fun f(xs: [int]N, qs: [int]M) = join o map(fun(q => bSearch(fun(e => cmpKey(e, q)), -1) $ xs)) $ qs";
    QCOMPARE(run(prog, {ints({1, 3, 5, 7, 9}), ints({1, 2, 9, 7, 10, 0})}), QString("[1, -1, 9, 7, -1, -1]"));
    // Sorted tables of every length up to 40, each key and the gaps around them looked up.
    std::mt19937 rng(5);
    for (size_t n = 1; n <= 40; ++n) {
      std::vector<int32_t> xs = sortedDistinct(n, rng), qs;
      for (int32_t q = xs.front() - 2; q <= xs.back() + 2; ++q) qs.push_back(q);
      std::vector<int32_t> expected;
      for (int32_t q : qs) expected.push_back(std::binary_search(xs.begin(), xs.end(), q) ? q : -1);
      ir::Program p = parse(prog);
      std::vector<Value> in{ints(xs), ints(qs)};
      QCOMPARE(asInts(interpret(p, in, inferSizes(p, in))), expected);
    }
  }

  void lSearchStopsAfterTheKey() {
    // The walk stops at the first element after the key (cmp < 0): a 2 after the 5 is not found.
    std::string prog =
        kSearchPrelude +
        "fun f(xs: [int]N, qs: [int]M) = join o map(fun(q => lSearch(fun(e => cmpKey(e, q)), 0) $ xs)) $ qs";
    QCOMPARE(run(prog, {ints({1, 3, 5, 2}), ints({3, 5, 2, 4, 1})}), QString("[3, 5, 0, 0, 1]"));
    // Tuples: the pair of the key, with a tuple default.
    QCOMPARE(run(kSearchPrelude + "fun f(ks: [int]N, vs: [float]N) = "
                                  "bSearch(fun(e => cmpKey(get(0, e), 4)), tuple(0, -1.0f)) $ zip(ks, vs)",
                 {ints({2, 4, 6}), floats({0.5f, 1.5f, 2.5f})}),
             QString("[(4, 1.5)]"));
  }

  void reduceWhileSeqStopsEarly() {
    const std::string below = "userfun below(float acc, float x) -> int { return acc + x < 10.0f; }\n";
    QCOMPARE(run(below + "fun f(x: [float]N) = reduceWhileSeq(add, below, 0.0f) $ x", {floats({4, 5, 2, 1})}),
             QString("[9]"));
    // The predicate sees the element: it stops before a 0, never after it.
    QCOMPARE(run("userfun nz(float acc, float x) -> int { return x != 0.0f; }\n"
                 "fun f(x: [float]N) = reduceWhileSeq(add, nz, 1.0f) $ x",
                 {floats({2, 3, 0, 7})}),
             QString("[6]"));
    // Never stopping, it is reduceSeq; stopping at once, the initial value.
    QCOMPARE(run(below + "fun f(x: [float]N) = reduceWhileSeq(add, below, 0.0f) $ x", {floats({1, 2, 3})}),
             QString("[6]"));
    QCOMPARE(run(below + "fun f(x: [float]N) = reduceWhileSeq(add, below, 20.0f) $ x", {floats({1, 2, 3})}),
             QString("[20]"));
  }

  void filterSeqKeepsThenTheRestAndCounts() {
    const std::string pos = "userfun pos(float x) -> int { return x > 0.0f; }\n";
    QCOMPARE(run(pos + "fun f(x: [float]N) = filterSeq(pos) $ x", {floats({-1, 2, 0, 3, -4, 5})}),
             QString("([2, 3, 5, -1, 0, -4], [3])"));
    QCOMPARE(run(pos + "fun f(x: [float]N) = filterSeq(pos) $ x", {floats({-1, -2})}),
             QString("([-1, -2], [0])"));
    QCOMPARE(run(pos + "fun f(x: [float]N) = get(1, filterSeq(pos) $ x)", {floats({1, 2})}), QString("[2]"));
  }

  void insertionSortSeqSortsStably() {
    QCOMPARE(run("userfun lt(int a, int b) -> int { return a < b; }\n"
                 "fun f(x: [int]N) = insertionSortSeq(lt) $ x",
                 {ints({5, -3, 8, 0, 5, -3, 1})}),
             QString("[-3, -3, 0, 1, 5, 5, 8]"));
    // Stable: pairs with equal keys keep their order (the values say which is which).
    QCOMPARE(
        run("userfun ltKey(int a, float va, int b, float vb) -> int { return a < b; }\n"
            "fun f(k: [int]N, v: [float]N) = "
            "insertionSortSeq(fun((a, b) => ltKey(get(0, a), get(1, a), get(0, b), get(1, b)))) $ zip(k, v)",
            {ints({2, 1, 2, 1}), floats({0, 1, 2, 3})}),
        QString("[(1, 1), (1, 3), (2, 0), (2, 2)]"));
    // Random arrays of several lengths: the same as std::stable_sort.
    std::mt19937 rng(9);
    for (size_t n : {1, 2, 7, 33}) {
      std::vector<int32_t> xs;
      for (size_t i = 0; i < n; ++i) xs.push_back(static_cast<int32_t>(rng() % 11) - 5);
      ir::Program p = parse(
          "userfun gt(int a, int b) -> int { return a > b; }\n"
          "fun f(x: [int]N) = insertionSortSeq(gt) $ x");
      std::vector<Value> in{ints(xs)};
      std::stable_sort(xs.begin(), xs.end(), std::greater<>());
      QCOMPARE(asInts(interpret(p, in, inferSizes(p, in))), xs);
    }
  }

  void dataDependentTypes() {
    QCOMPARE(typeOf(kSearchPrelude + "fun f(xs: [int]N, q: int) = bSearch(fun(e => cmpKey(e, q)), 0) $ xs"),
             QString("([int]N, int) -> [int]1"));
    QCOMPARE(typeOf(kSearchPrelude + "fun f(xs: [int]N, q: int) = lSearch(fun(e => cmpKey(e, q)), 0, xs)"),
             QString("([int]N, int) -> [int]1"));
    QCOMPARE(typeOf("userfun b(float a, float x) -> int { return 1; }\n"
                    "fun f(x: [float]N) = reduceWhileSeq(add, b, 0.0f) $ x"),
             QString("([float]N) -> [float]1"));
    QCOMPARE(typeOf("userfun p(float x) -> int { return 1; }\nfun f(x: [[float]K]N) = map(filterSeq(p)) $ x"),
             QString("([[float]K]N) -> [([float]K, [int]1)]N"));
    QCOMPARE(typeOf("userfun lt(float a, float b) -> int { return a < b; }\n"
                    "fun f(x: [float]N) = insertionSortSeq(lt) $ x"),
             QString("([float]N) -> [float]N"));
  }

  void dataDependentTypeErrorsAreLocated() {
    // These programs have one more declaration line than the prelude: the offset is counted.
    auto expect = [](const std::string& decl, const std::string& fun, const std::string& needle,
                     std::vector<std::string> parts) {
      size_t pos = fun.find(needle);
      QVERIFY2(pos != std::string::npos, "needle not in the program");
      test::expectTypeErrorAt(parse(decl + "\n" + fun), fun, kPreludeLines + 2, static_cast<int>(pos) + 1,
                              parts);
    };
    const std::string cmpF = "userfun cmpF(float e, float k) -> float { return k - e; }";
    expect(cmpF, "fun f(xs: [float]N, q: float) = bSearch(fun(e => cmpF(e, q)), 0.0f) $ xs", "bSearch",
           {"bSearch: the comparison must return an int", "returns float"});
    expect(kSearchPrelude.substr(0, kSearchPrelude.size() - 1),
           "fun f(xs: [int]N, q: int) = lSearch(fun(e => cmpKey(e, q)), 0.0f) $ xs", "lSearch",
           {"lSearch: the default value has type float but the elements have type int"});
    expect("userfun b(float a, float x) -> float { return 1.0f; }",
           "fun f(x: [float]N) = reduceWhileSeq(add, b, 0.0f) $ x", "reduceWhileSeq",
           {"the predicate p(acc, x) must return an int", "returns float"});
    expect("userfun g(float a, float x) -> int { return 1; }",
           "fun f(x: [float]N) = reduceWhileSeq(g, fun((a, x) => 1), 0.0f) $ x", "reduceWhileSeq",
           {"the function returns int but the initial value has type float"});
    expect("userfun p(float x) -> bool { return x > 0.0f; }", "fun f(x: [float]N) = filterSeq(p) $ x",
           "filterSeq", {"filterSeq: the predicate must return an int", "returns bool"});
    expect("userfun lt(float a, float b) -> float { return b - a; }",
           "fun f(x: [float]N) = insertionSortSeq(lt) $ x", "insertionSortSeq",
           {"comparison less(x, y) must return an int"});
    expect("userfun p(float x) -> int { return 1; }", "fun f(x: float) = filterSeq(p) $ x", "filterSeq",
           {"filterSeq expects an array"});
  }

  void dataDependentPatternsPrintBack() {
    const std::pair<const char*, const char*> cases[] = {
        {"join o map(fun(q => bSearch(fun(e => cmpKey(e, q)), -1) $ xs)) $ xs",
         "bSearch(fun(e => cmpKey(e, q)), -1)"},
        {"lSearch(fun(e => cmpKey(e, 3)), 0) $ xs", "lSearch(fun(e => cmpKey(e, 3)), 0)"},
        {"reduceWhileSeq(plus, fun((a, x) => cmpKey(a, x)), 0) $ xs",
         "reduceWhileSeq(plus, fun((a, x) => cmpKey(a, x)), 0)"},
        {"get(0, filterSeq(fun(x => cmpKey(x, 0))) $ xs)", "filterSeq(fun(x => cmpKey(x, 0)))"},
        {"insertionSortSeq(cmpKey) $ xs", "insertionSortSeq(cmpKey)"}};
    for (auto [body, kept] : cases) {
      std::string text = kSearchPrelude + "userfun plus(int a, int b) -> int { return a + b; }\n" +
                         "fun f(xs: [int]N) = " + body;
      ir::Program p = parse(text);
      std::string printed = lang::printProgram(p);
      QVERIFY2(printed.find(kept) != std::string::npos, printed.c_str());
      ir::Program q = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
      QCOMPARE(QString::fromStdString(lang::printProgram(q)), QString::fromStdString(printed));
    }
  }

  void dataDependentGraphLabels() {
    // The outermost call of each body is the pattern; its label is its name (the graph shows its
    // functions as nodes of their own), and the graph draws it as a sequential operation.
    const std::pair<const char*, const char*> cases[] = {
        {"bSearch(cmpKey, 0) $ xs", "bSearch"},
        {"lSearch(cmpKey, 0) $ xs", "lSearch"},
        {"reduceWhileSeq(cmpKey, cmpKey, 0) $ xs", "reduceWhileSeq"},
        {"filterSeq(fun(x => cmpKey(x, 0))) $ xs", "filterSeq"},
        {"insertionSortSeq(cmpKey) $ xs", "insertionSortSeq"}};
    for (auto [body, label] : cases) {
      ir::Program p = parse(kSearchPrelude + "fun f(xs: [int]N) = " + body);
      auto* call = ir::asCall(p.main->body());
      QVERIFY(call && ir::asPattern(call->fun()));
      QCOMPARE(QString::fromStdString(ir::patternLabel(*ir::asPattern(call->fun()))), QString(label));
      ir::ProgramGraph g = ir::buildProgramGraph(p);
      bool sequential = false;
      for (auto& n : g.nodes)  // "bSearch" or, its functions inlined, "bSearch(cmpKey)"
        if (n.label.rfind(label, 0) == 0) sequential = n.kind == ir::ProgramGraph::NodeKind::SequentialOp;
      QVERIFY2(sequential, label);
    }
  }

  // The kernels on sorted tables (where searches find keys) at several sizes on the CPU device,
  // against the interpreter; and the refusal of a parallel map inside a search.
  void dataDependentKernelsRunOnTheCpuDevice() {
    runtime::KernelRunner runner(runtime::Device::find("0"));
    ir::Program p = parse(
        kSearchPrelude +
        "userfun lt(int a, int b) -> int { return a < b; }\n"
        "userfun pos(int x) -> int { return x > 0; }\n"
        "userfun plus(int a, int b) -> int { return a + b; }\n"
        "fun f(xs: [int]N, qs: [int]M*4) = tuple("
        "join o mapGlb0(fun(q => toGlobal(mapSeq(id)) o bSearch(fun(e => cmpKey(e, q)), -100) $ xs)) $ qs,"
        "join o mapGlb0(fun(q => toGlobal(mapSeq(id)) o lSearch(fun(e => cmpKey(e, q)), -100) $ xs)) $ qs,"
        "join o mapGlb0(fun(q => toGlobal(mapSeq(id)) o reduceWhileSeq(plus, "
        "fun((a, x) => cmpKey(x, q)), 0) $ xs)) $ qs,"
        "mapGlb0(fun(r => insertionSortSeq(lt) $ r)) o split(4) $ qs,"
        "mapGlb0(fun(r => get(0, filterSeq(pos) $ r))) o split(4) $ qs,"
        "join o mapGlb0(fun(r => get(1, filterSeq(pos) $ r))) o split(4) $ qs)");
    codegen::CompiledProgram k = codegen::compileProgram(p, codegen::CompileOptions{});
    std::mt19937 rng(3);
    for (int64_t n : {1, 5, 64, 300}) {
      std::vector<int32_t> xs = sortedDistinct(static_cast<size_t>(n), rng), qs;
      // Keys in and around the table: found and not.
      for (int64_t i = 0; i < 4 * (n + 2); ++i)
        qs.push_back(xs.front() - 2 +
                     static_cast<int32_t>(rng() % static_cast<uint32_t>(xs.back() - xs.front() + 5)));
      std::vector<Value> in{ints(xs), ints(qs)};
      arith::Env sizes = inferSizes(p, in);
      sizes["K"] = 1;  // the prelude's size that this program does not use
      // Ints compare exactly: the tolerance does not apply.
      InterpreterCheck c = runAgainstInterpreter(runner, k, in, interpret(p, in, sizes), sizes, 1e-3);
      QVERIFY2(c.matched(), c.what.c_str());
    }
    ir::Program bad =
        parse(kSearchPrelude +
              "fun f(xs: [[[int]4]K]N) = mapGlb0(fun(r => toGlobal(mapSeq(mapSeq(id))) o "
              "bSearch(fun(e => cmpKey(get(0, mapGlb1(id) $ e), 0)), zeros([int]4)) $ r)) $ xs");
    try {
      codegen::compileProgram(bad, codegen::CompileOptions{});
      QFAIL("a search with a parallel map inside compiled");
    } catch (const LiftError& e) {
      QVERIFY2(e.diagnostic().message.find("bSearch: its functions must be sequential") != std::string::npos,
               e.what());
    }
  }

  // ----- end of issue 17 (lift17p) -----

  // docs/LANGUAGE.md's table of Lift's pattern classes names exactly the patterns of the
  // language (the parser's and the prelude's), and says why a class without one is left out.
  void languageTableListsEveryPattern() {
    auto rows = liftPatternClassRows();
    QVERIFY2(rows.size() > 40, "docs/LANGUAGE.md has no table 'Lift pattern classes'");
    std::set<std::string> known;
#define LIFT_PATTERN_NAME(E, name, level) known.insert(name);
    LIFT_PATTERNS(LIFT_PATTERN_NAME)
#undef LIFT_PATTERN_NAME
    for (const std::string& n : ir::preludeNames()) known.insert(n);
    std::set<std::string> listed;
    for (const auto& [lift, here, notes] : rows) {
      QVERIFY2(!lift.empty(), here.c_str());
      if (here == "—") {
        QVERIFY2(!notes.empty(), ("no reason given for " + lift).c_str());
        continue;
      }
      auto names = codeNames(here);
      QVERIFY2(!names.empty(), ("no pattern named for " + lift).c_str());
      for (const std::string& n : names) {
        QVERIFY2(known.count(n), ("the table names '" + n + "', which the parser does not know").c_str());
        listed.insert(n);
      }
    }
    for (const std::string& n : known)
      QVERIFY2(listed.count(n), ("the parser knows '" + n + "', which the table lacks").c_str());
  }
};

QTEST_APPLESS_MAIN(TestLiftPatterns)
#include "tst_lift_patterns.moc"
