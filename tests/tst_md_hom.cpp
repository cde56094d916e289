// md_hom and its views (seed 001): parsing and printing, the result types and the located errors
// of malformed md_homs, the interpreter against the equivalent nests of map and reduce on random
// inputs, the homomorphism property (any split of any dimension, the parts' results combined
// with that dimension's operator, equals the whole), and that the code generator, the rewrite
// engine and the graph refuse or show md_hom without crashing.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include <functional>
#include <random>
#include <set>

#include "TypeErrorCheck.h"
#include "codegen/Compiler.h"
#include "codegen/Evaluation.h"
#include "codegen/LoweringCheck.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/WorkCount.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"

using namespace lift;
using namespace lift::ir;
using interp::Value;

namespace {

// Declarations shared by the tests; the program function follows on line kPreludeLines + 1.
const std::string kPrelude =
    "size N, M, K;\n"
    "userfun mult(float a, float b) -> float { return a * b; }\n"
    "userfun add(float a, float b) -> float { return a + b; }\n"
    "userfun neg(float a) -> float { return -a; }\n"
    "userfun add3(float a, float b, float c) -> float { return a + b + c; }\n"
    "userfun less(float a, float b) -> bool { return a < b; }\n"
    "userfun imult(int a, int b) -> int { return a * b; }\n"
    "userfun iadd(int a, int b) -> int { return a + b; }\n"
    "userfun imax(int a, int b) -> int { return a > b ? a : b; }\n"
    "userfun isq(int a) -> int { return a * a; }\n";
constexpr int kPreludeLines = 10;

const std::string kDot = "fun f(x: [float]N, y: [float]N) = md_hom(mult, (add)) $ pair_vv(x, y)";
const std::string kGemv = "fun f(A: [[float]K]M, v: [float]K) = md_hom(mult, (++, add)) $ pair_mv(A, v)";
const std::string kGemm =
    "fun f(A: [[float]K]M, B: [[float]N]K) = md_hom(mult, (++, ++, add)) $ pair_mm(A, B)";

arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M"), K = arith::sizeVar("K");
Type f32 = Type::float_();
Type i32 = Type::int_();
Type arr(Type t, arith::Expr n) { return Type::array(t, n); }

Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }
Type resultOf(const std::string& fun) { return typeCheck(parse(fun)).resultType; }

// Checks that parsing and type-checking `fun` (one line) fails at the first appearance of
// `needle` with a message containing each of `parts`.
void expectError(const std::string& fun, const std::string& needle, const std::vector<std::string>& parts) {
  size_t pos = fun.find(needle);
  QVERIFY2(pos != std::string::npos, "needle not in the program");
  test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, static_cast<int>(pos) + 1, parts);
}

// The md_hom a program's body applies, and the program that computes only its input (the view).
struct Split {
  const PatternNode* mdHom = nullptr;
  Fun fun;
  Program input;
};
Split splitAtMdHom(const Program& p) {
  auto* call = asCall(p.main->body());
  LIFT_ASSERT(call && calledPattern(p.main->body(), PatternKind::MdHom), "the body is not an md_hom call");
  Program input = p;
  input.main = LambdaNode::make(p.main->params(), call->args()[0]);
  return {asPattern(call->fun()), call->fun(), input};
}

// Elements from..to-1 of dimension k (0: outermost) of an array.
Value slice(const Value& v, size_t k, size_t from, size_t to) {
  interp::ArrayBuilder b;
  if (k == 0) {
    for (size_t i = from; i < to; ++i) b.push(v.at(i));
  } else {
    for (size_t i = 0; i < v.size(); ++i) b.push(slice(v.at(i), k - 1, from, to));
  }
  return b.finish();
}

// x ++ y in dimension r of the results.
Value concatAt(const Value& x, const Value& y, size_t r) {
  interp::ArrayBuilder b;
  if (r == 0) {
    for (size_t i = 0; i < x.size(); ++i) b.push(x.at(i));
    for (size_t i = 0; i < y.size(); ++i) b.push(y.at(i));
  } else {
    for (size_t i = 0; i < x.size(); ++i) b.push(concatAt(x.at(i), y.at(i), r - 1));
  }
  return b.finish();
}

// op applied point by point to results that keep `depth` dimensions.
Value combinePointwise(const Fun& op, const Value& x, const Value& y, size_t depth, const arith::Env& sizes) {
  if (depth == 0) return interp::applyFunction(op, {x, y}, sizes);
  interp::ArrayBuilder b;
  for (size_t i = 0; i < x.size(); ++i) b.push(combinePointwise(op, x.at(i), y.at(i), depth - 1, sizes));
  return b.finish();
}

// ⊛k of md_hom p on two results of md_hom (on parts split along dimension k): concatenation in
// the result's dimension that dimension k became, or the dimension's operator point by point
// over all of the result's dimensions (the seed's +_vec, +_mat).
Value combineInDimension(const PatternNode& p, size_t k, const Value& x, const Value& y,
                         const arith::Env& sizes) {
  const auto& concat = p.params().concat;
  size_t before = 0, kept = 0, op = 1;
  for (size_t j = 0; j < concat.size(); ++j) {
    if (j < k && concat[j]) ++before;
    if (j < k && !concat[j]) ++op;
    if (concat[j]) ++kept;
  }
  if (concat[k]) return concatAt(x, y, before);
  return combinePointwise(p.params().funs.at(op), x, y, kept, sizes);
}

// The homomorphism property of the md_hom in `fun` at `sizes` (every dimension at least 2 long):
// for several random partitionings of each dimension into 2 to 4 parts, md_hom of the parts
// combined from the left with that dimension's operator equals md_hom of the whole. Returns the
// first violation found, or "".
std::string homomorphismViolation(const std::string& fun, const arith::Env& sizes, uint64_t seed,
                                  double relTol) {
  Program p = parse(fun);
  typeCheck(p);
  Split s = splitAtMdHom(p);
  Value a = interp::interpret(s.input, interp::randomInputs(p, sizes, seed), sizes);
  Value whole = interp::applyFunction(s.fun, {a}, sizes);
  std::mt19937_64 rng(seed);
  size_t d = s.mdHom->params().concat.size();
  for (size_t k = 0; k < d; ++k) {
    Value level = a;
    for (size_t j = 0; j < k; ++j) level = level.at(0);
    size_t n = level.size();
    if (n < 2) return fmt::format("dimension {} has one element: nothing to split", k + 1);
    for (int trial = 0; trial < 4; ++trial) {
      size_t parts = std::min<size_t>(n, 2 + rng() % 3);
      std::vector<size_t> cuts{0, n};
      while (cuts.size() < parts + 1) {
        size_t c = 1 + rng() % (n - 1);
        if (std::find(cuts.begin(), cuts.end(), c) == cuts.end()) cuts.push_back(c);
      }
      std::sort(cuts.begin(), cuts.end());
      Value combined = interp::applyFunction(s.fun, {slice(a, k, cuts[0], cuts[1])}, sizes);
      for (size_t c = 1; c + 1 < cuts.size(); ++c) {
        Value part = interp::applyFunction(s.fun, {slice(a, k, cuts[c], cuts[c + 1])}, sizes);
        combined = combineInDimension(*s.mdHom, k, combined, part, sizes);
      }
      interp::Comparison cmp = interp::approxEqual(combined, whole, relTol);
      if (!cmp.equal) return fmt::format("dimension {} split in {} parts: {}", k + 1, parts, cmp.report());
    }
  }
  return "";
}

// Runs `fun` and `reference` (same inputs) on random inputs at `sizes` and compares.
void checkAgainst(const std::string& fun, const std::string& reference, const arith::Env& sizes,
                  uint64_t seed) {
  Program p = parse(fun), r = parse(reference);
  typeCheck(p);
  typeCheck(r);
  auto inputs = interp::randomInputs(p, sizes, seed);
  Value got = interp::interpret(p, inputs, sizes), want = interp::interpret(r, inputs, sizes);
  interp::Comparison cmp = interp::approxEqual(got, want);
  QVERIFY2(cmp.equal, qPrintable(QString::fromStdString(fun + ": " + cmp.report())));
}

}  // namespace

class TestMdHom : public QObject {
  Q_OBJECT
 private slots:
  // ----- syntax ------------------------------------------------------------------------------

  void parsePrintRoundTrip() {
    const std::vector<std::string> programs = {
        kDot,
        kGemv,
        kGemm,
        "fun f(x: [float]N) = md_hom(neg, (++)) $ x",
        "fun f(x: [[[int]K]M]N) = md_hom(isq, (imax, ++, iadd)) $ x",
        "fun f(A: [[float]K]M, v: [float]K) = md_hom(fun(p => mult(get(0, p), get(1, p))), (++, fun((a, b) "
        "=> "
        "add(a, b)))) $ pair_mv(A, v)",
        "fun f(x: [[int]K]N) = md_hom(id, (fun((a, b) => map(iadd) $ zip(a, b)))) $ x",
        "fun f(A: [[float]K]M, v: [float]K) = pair_mv(A, v)",
    };
    for (const auto& text : programs) {
      Program p = parse(text);
      std::string printed = lang::printProgram(p);
      Program again = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(alphaEqual(Fun(p.main), Fun(again.main)), printed.c_str());
      QCOMPARE(lang::printProgram(again), printed);
    }
    QVERIFY(lang::printProgram(parse(kGemv)).find("md_hom(mult, (++, add)) $ pair_mv(A, v)") !=
            std::string::npos);
    QVERIFY(lang::printProgram(parse(kDot)).find("md_hom(mult, (add)) $ pair_vv(x, y)") != std::string::npos);
  }

  void parseErrors() {
    auto fails = [](const std::string& fun, const std::string& part) {
      try {
        parse(fun);
        QFAIL(qPrintable(QString::fromStdString("no parse error for " + fun)));
      } catch (const LiftError& e) {
        QVERIFY2(e.diagnostic().message.find(part) != std::string::npos, e.diagnostic().format().c_str());
        QCOMPARE(e.diagnostic().loc.line, kPreludeLines + 1);
      }
    };
    fails("fun f(x: [float]N, y: [float]N) = md_hom(mult, add) $ pair_vv(x, y)", "combine operators");
    fails("fun f(x: [float]N, y: [float]N) = md_hom(mult, (+, add)) $ pair_vv(x, y)",
          "expected a combine operator");
    fails("fun f(x: [float]N, y: [float]N) = md_hom(mult, (+ +)) $ pair_vv(x, y)",
          "expected a combine operator");
    fails("fun f(x: [float]N, y: [float]N) = md_hom(mult, (1.0f)) $ pair_vv(x, y)", "must be a function");
    fails("fun f(x: [float]N) = pair_vv(x)", "two arrays");
  }

  // ----- types -------------------------------------------------------------------------------

  void resultTypes() {
    QCOMPARE(resultOf(kDot), f32);
    QCOMPARE(resultOf(kGemv), arr(f32, M));
    QCOMPARE(resultOf(kGemm), arr(arr(f32, N), M));
    // map(f) = md_hom(f, (++)); reductions drop their dimension wherever they are.
    QCOMPARE(resultOf("fun f(x: [float]N) = md_hom(neg, (++)) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [[[int]K]M]N) = md_hom(isq, (imax, ++, iadd)) $ x"), arr(i32, M));
    QCOMPARE(resultOf("fun f(x: [[[int]K]M]N) = md_hom(isq, (++, iadd, ++)) $ x"), arr(arr(i32, K), N));
    // An md_hom over fewer dimensions than the array has: the elements are arrays.
    QCOMPARE(resultOf("fun f(x: [[int]K]N) = md_hom(id, (fun((a, b) => map(iadd) $ zip(a, b)))) $ x"),
             arr(i32, K));
    // Dependent sizes: the result's lengths are the input's.
    QCOMPARE(resultOf("fun f(A: [[float]K]2*M, v: [float]K) = md_hom(mult, (++, add)) $ pair_mv(A, v)"),
             arr(f32, arith::cst(2) * M));
    // The views.
    Type pair = Type::tuple({f32, f32});
    QCOMPARE(resultOf("fun f(x: [float]N, y: [float]N) = pair_vv(x, y)"), arr(pair, N));
    QCOMPARE(resultOf("fun f(A: [[float]K]M, v: [float]K) = pair_mv(A, v)"), arr(arr(pair, K), M));
    QCOMPARE(resultOf("fun f(A: [[float]K]M, B: [[float]N]K) = pair_mm(A, B)"), arr(arr(arr(pair, K), N), M));
  }

  void typeErrors() {
    // Wrong number of operators: three for a two-dimensional array.
    expectError("fun f(A: [[float]K]M, v: [float]K) = md_hom(mult, (++, ++, add)) $ pair_mv(A, v)", "md_hom",
                {"3 combine operators (++, ++, add)", "3-dimensional array", "2 dimensions"});
    // A combine operator of the wrong type: (float, float) -> bool.
    expectError("fun f(A: [[float]K]M, v: [float]K) = md_hom(mult, (++, less)) $ pair_mv(A, v)", "md_hom",
                {"combine operator of dimension 2 returns bool", "(float x float -> float)"});
    // ... or on the wrong arguments: the user function says so where it is written.
    expectError("fun f(x: [float]N, y: [float]N) = md_hom(mult, (iadd)) $ pair_vv(x, y)", "iadd",
                {"user function 'iadd'", "int", "float"});
    // Not binary.
    expectError("fun f(x: [float]N, y: [float]N) = md_hom(mult, (neg)) $ pair_vv(x, y)", "md_hom",
                {"combine operator of dimension 1 takes 1 argument", "binary", "associative"});
    expectError("fun f(x: [float]N, y: [float]N) = md_hom(mult, (add3)) $ pair_vv(x, y)", "md_hom",
                {"takes 3 arguments", "binary"});
    expectError("fun f(x: [float]N, y: [float]N) = md_hom(mult, (fun(a => a))) $ pair_vv(x, y)", "md_hom",
                {"takes 1 argument"});
    // The scalar function on the wrong elements.
    expectError("fun f(x: [float]N) = md_hom(mult, (add)) $ x", "mult", {"user function 'mult'"});
    // Views of arrays that do not fit together.
    expectError("fun f(A: [[float]K]M, v: [float]N) = md_hom(mult, (++, add)) $ pair_mv(A, v)", "pair_mv",
                {"pair_mv", "differ", "K", "N"});
    expectError("fun f(A: [[float]K]M, B: [[float]N]M) = pair_mm(A, B)", "pair_mm", {"pair_mm", "differ"});
    expectError("fun f(x: [float]N, y: [float]M) = pair_vv(x, y)", "pair_vv", {"the lengths differ"});
    expectError("fun f(x: [float]N, y: [float]N) = pair_mv(x, y)", "pair_mv", {"expects a matrix"});
  }

  // ----- the interpreter ---------------------------------------------------------------------

  void matchesNestsOfMapAndReduce() {
    const std::string dotRef = "fun f(x: [float]N, y: [float]N) = reduce(add, 0.0f) o map(mult) $ zip(x, y)";
    const std::string gemvRef =
        "fun f(A: [[float]K]M, v: [float]K) = join o map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(row, "
        "v))) "
        "$ A";
    const std::string gemmRef =
        "fun f(A: [[float]K]M, B: [[float]N]K) = map(fun(rowA => join o map(fun(colB => reduce(add, 0.0f) o "
        "map(mult) $ zip(rowA, colB))) o transpose $ B)) $ A";
    uint64_t seed = 1;
    for (int64_t n : {1, 2, 7, 64, 1000}) {
      // md_dot is the one element of the reduction's [float]1.
      Program p = parse(kDot), r = parse(dotRef);
      arith::Env sizes{{"N", n}};
      auto inputs = interp::randomInputs(p, sizes, seed++);
      interp::Comparison cmp =
          interp::approxEqual(interp::interpret(p, inputs, sizes), interp::interpret(r, inputs, sizes).at(0));
      QVERIFY2(cmp.equal, cmp.report().c_str());
    }
    for (auto [m, k] : {std::pair{1, 1}, {1, 9}, {5, 1}, {5, 9}, {16, 33}, {40, 3}})
      checkAgainst(kGemv, gemvRef, {{"M", m}, {"K", k}}, seed++);
    for (auto [m, n, k] : {std::tuple{1, 1, 1}, {3, 5, 4}, {8, 6, 11}, {2, 17, 3}, {16, 16, 16}})
      checkAgainst(kGemm, gemmRef, {{"M", m}, {"N", n}, {"K", k}}, seed++);
    // A 3-D md_hom with a reduction outside a concatenation, on ints (exact).
    checkAgainst("fun f(x: [[[int]K]M]N) = md_hom(isq, (imax, ++, iadd)) $ x",
                 "fun f(x: [[[int]K]M]N) = join o map(reduce(imax, 0)) o transpose o "
                 "map(join o map(fun(z => reduce(iadd, 0) o map(isq) $ z))) $ x",
                 {{"N", 3}, {"M", 4}, {"K", 5}}, seed++);
  }

  void homomorphismProperty() {
    const std::vector<std::string> exact = {
        "fun f(x: [int]N, y: [int]N) = md_hom(imult, (iadd)) $ pair_vv(x, y)",
        "fun f(A: [[int]K]M, v: [int]K) = md_hom(imult, (++, iadd)) $ pair_mv(A, v)",
        "fun f(A: [[int]K]M, v: [int]K) = md_hom(imult, (iadd, ++)) $ pair_mv(A, v)",
        "fun f(A: [[int]K]M, B: [[int]N]K) = md_hom(imult, (++, ++, iadd)) $ pair_mm(A, B)",
        "fun f(A: [[int]K]M, B: [[int]N]K) = md_hom(imult, (iadd, ++, iadd)) $ pair_mm(A, B)",
        "fun f(x: [[[int]K]M]N) = md_hom(isq, (imax, ++, imax)) $ x",
        "fun f(x: [[int]K]N) = md_hom(id, (fun((a, b) => map(iadd) $ zip(a, b)))) $ x",
    };
    std::mt19937_64 rng(7);
    auto dim = [&] { return static_cast<int64_t>(2 + rng() % 8); };
    auto sizes = [&] { return arith::Env{{"N", dim()}, {"M", dim()}, {"K", dim()}}; };
    uint64_t seed = 1;
    for (const auto& fun : exact)
      for (int round = 0; round < 4; ++round) {
        std::string violation = homomorphismViolation(fun, sizes(), seed++, 0);
        QVERIFY2(violation.empty(), qPrintable(QString::fromStdString(fun + ": " + violation)));
      }
    // Floats: the same up to the rounding of another order of additions.
    for (const auto& fun : {kDot, kGemv, kGemm})
      for (int round = 0; round < 3; ++round) {
        std::string violation = homomorphismViolation(fun, sizes(), seed++, 1e-4);
        QVERIFY2(violation.empty(), qPrintable(QString::fromStdString(fun + ": " + violation)));
      }
    // Operators that do not fit together make md_hom ill-defined (seed 001: md_hom(id, (max_vec,
    // +_vec)) is no homomorphism): the definition's order of the dimensions is one result, a
    // split of the sum's dimension another.
    std::string violation = homomorphismViolation(
        "fun f(x: [[[int]K]M]N) = md_hom(isq, (imax, ++, iadd)) $ x", {{"N", 5}, {"M", 3}, {"K", 6}}, 3, 0);
    QVERIFY(violation.find("dimension 3") != std::string::npos);
  }

  void emptyReducedDimensionIsAnError() {
    Program p = parse(kDot);
    arith::Env sizes{{"N", 0}};
    QVERIFY_THROWS_EXCEPTION(interp::InterpError,
                             interp::interpret(p, interp::randomInputs(p, sizes), sizes));
  }

  void workCounts() {
    // Each multiplication once, each addition between neighbouring parts once (no initial value).
    QCOMPARE(interp::countWork(parse(kDot), {{"N", 10}, {"M", 1}, {"K", 1}}).flops, 19.0);
    QCOMPARE(interp::countWork(parse(kGemv), {{"N", 1}, {"M", 4}, {"K", 8}}).flops, 2.0 * 32 - 4);
    QCOMPARE(interp::countWork(parse(kGemm), {{"M", 3}, {"N", 5}, {"K", 4}}).flops, 2.0 * 60 - 15);
    // The reduction outside the concatenation: its operator on whole rows, point by point.
    QCOMPARE(interp::countWork(
                 parse("fun f(A: [[float]K]M, v: [float]K) = md_hom(mult, (add, ++)) $ pair_mv(A, v)"),
                 {{"N", 1}, {"M", 4}, {"K", 8}})
                 .flops,
             2.0 * 32 - 8);
  }

  // ----- the rest of the system --------------------------------------------------------------

  void codeGeneratorRefusesIt() {
    for (const auto& fun : {kDot, kGemv, kGemm}) {
      try {
        codegen::compileKernel(parse(fun), {});
        QFAIL("md_hom compiled");
      } catch (const codegen::LoweringError& e) {
        QVERIFY2(e.diagnostic().message.find("md_hom is not yet lowered to OpenCL") != std::string::npos,
                 e.diagnostic().format().c_str());
        QCOMPARE(e.diagnostic().loc.line, kPreludeLines + 1);
      }
    }
    try {
      codegen::compileKernel(
          parse("fun f(A: [[float]K]M, v: [float]K) = mapGlb(mapSeq(mult)) $ pair_mv(A, v)"), {});
      QFAIL("pair_mv compiled");
    } catch (const codegen::LoweringError& e) {
      QVERIFY2(e.diagnostic().message.find("pair_mv is not yet lowered to OpenCL") != std::string::npos,
               e.diagnostic().format().c_str());
    }
  }

  void rewriteEngineTakesIt() {
    for (const auto& fun : {kDot, kGemv, kGemm}) {
      rewrite::TypedProgram p = rewrite::TypedProgram::check(parse(fun));
      for (const rewrite::RewriteStep& step : rewrite::enumerateRewrites(p)) {
        rewrite::RewriteResult r = rewrite::applyRewrite(p, step);
        QVERIFY2(r.error != rewrite::RewriteError::IllTyped, (step.spec() + ": " + r.message).c_str());
      }
      // The rule palette at every node.
      std::function<void(const NodeRef&, const rewrite::Location&)> everyNode =
          [&](const NodeRef& n, const rewrite::Location& at) {
            for (const auto& rule : rewrite::rulesAt(p, at, /*withPreview=*/true))
              QVERIFY2(!rule.applies || rule.preview, rule.rule->name.c_str());
            auto children = rewrite::locationChildren(n);
            for (size_t i = 0; i < children.size(); ++i)
              everyNode(children[i], at.child(static_cast<int>(i)));
          };
      everyNode(NodeRef(Fun(p.main())), rewrite::Location());
    }
  }

  void graphShowsDimensionsAndOperators() {
    ProgramGraph g = buildProgramGraph(parse(kGemv));
    bool found = false;
    for (auto& n : g.nodes) found = found || n.label == "md_hom(mult, (++, add)) 2D";
    QVERIFY(found);
    g = buildProgramGraph(parse(kGemm));
    found = false;
    for (auto& n : g.nodes) found = found || n.label == "md_hom(mult, (++, ++, add)) 3D";
    QVERIFY(found);
    // With lambdas, they are drawn as clusters feeding the node: f and the operator of dimension 2.
    g =
        buildProgramGraph(parse("fun f(A: [[float]K]M, v: [float]K) = md_hom(fun(p => mult(get(0, p), get(1, "
                                "p))), (++, fun((a, b) => "
                                "add(a, b)))) $ pair_mv(A, v)"));
    found = false;
    for (auto& n : g.nodes) found = found || n.label == "md_hom(λ, (++, λ)) 2D";
    QVERIFY(found);
    int f = 0, op = 0;
    for (auto& e : g.edges) {
      f += e.label == "f";
      op += e.label == "⊛2";
    }
    QCOMPARE(f, 1);
    QCOMPARE(op, 1);
  }

  // ----- the rules relating md_hom and map/reduce (rewrite/rules/MdHomRules.cpp) ---------------

  // Every md_hom rule the engine finds in these programs, with every parameter choice, keeps the
  // meaning at four size sets; and md_hom => nest => md_hom gives the program back.
  void rulesKeepTheMeaningAtSeveralSizes() {
    const std::vector<std::string> programs = {
        "fun f(x: [float]8*N, y: [float]8*N) = md_hom(mult, (add)) $ pair_vv(x, y)",
        "fun f(A: [[float]4*K]4*M, v: [float]4*K) = md_hom(mult, (++, add)) $ pair_mv(A, v)",
        "fun f(A: [[float]4*K]2*M, B: [[float]2*N]4*K) = md_hom(mult, (++, ++, add)) $ pair_mm(A, B)",
        "fun f(x: [[[int]2*K]4*M]2*N) = md_hom(isq, (++, iadd, iadd)) $ x",
        "fun f(x: [[[int]2*K]4*M]2*N) = md_hom(isq, (imax, ++, iadd)) $ x",
        "fun f(x: [[int]4*K]2*N) = md_hom(id, (++, fun((a, b) => imult(a, b)))) $ x",
        "fun f(A: [[float]4*K]4*M, v: [float]4*K) = join o map(fun(row => reduce(add, 0.0f) o map(mult) $ "
        "zip(row, v))) $ A",
        "fun f(x: [[int]4*K]2*N) = map(fun(r => reduce(iadd, 0) $ r)) $ x",
        "fun f(A: [[float]4*K]2*M, B: [[float]2*N]4*K) = map(join) o map(fun(rowA => map(fun(colB => "
        "reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A",
    };
    rewrite::EnumerateOptions eo;
    eo.families = {rewrite::Family::MdHom};
    eo.allParameterChoices = true;
    rewrite::EquivalenceOptions eq;
    eq.sizeSets = 4;
    std::set<std::string> applied;
    for (const auto& fun : programs) {
      rewrite::TypedProgram p = rewrite::TypedProgram::check(parse(fun));
      for (const rewrite::RewriteStep& step : rewrite::enumerateRewrites(p, eo)) {
        rewrite::RewriteResult r = rewrite::applyRewrite(p, step);
        QVERIFY2(r, (step.spec() + ": " + r.message).c_str());
        rewrite::EquivalenceReport report = rewrite::checkEquivalence(p.program, r.program->program, eq);
        QVERIFY2(report, (fun + "\n" + step.spec() + ": " + report.message).c_str());
        QVERIFY2(report.runs >= 3, (step.spec() + ": compared at too few sizes").c_str());
        applied.insert(step.rule->name);
      }
    }
    for (const char* rule : {"mdhom-to-map-reduce", "map-reduce-to-mdhom", "mdhom-view-to-zip", "mdhom-split",
                             "mdhom-split-strided"})
      QVERIFY2(applied.count(rule), rule);
    // The round trip of md_gemv through its nest.
    rewrite::TypedProgram gemv = rewrite::TypedProgram::check(
        parse("fun f(A: [[float]K]M, v: [float]K) = md_hom(mult, (++, add)) $ pair_mv(A, v)"));
    rewrite::RewriteResult nest =
        rewrite::applyRewrite(gemv, rewrite::RewriteStep::parse("mdhom-to-map-reduce@0"));
    QVERIFY2(nest, nest.message.c_str());
    QVERIFY(!containsPattern(nest.program->main()->body(), {PatternKind::MdHom}));
    rewrite::RewriteResult back =
        rewrite::applyRewrite(*nest.program, rewrite::RewriteStep::parse("map-reduce-to-mdhom@0"));
    QVERIFY2(back, back.message.c_str());
    QVERIFY(alphaEqual(Fun(back.program->main()), Fun(gemv.main())));
    // And of md_gemm, whose nest joins the dot products' arrays of one element outside its maps.
    rewrite::TypedProgram gemm = rewrite::TypedProgram::check(parse(kGemm));
    nest = rewrite::applyRewrite(gemm, rewrite::RewriteStep::parse("mdhom-to-map-reduce@0"));
    QVERIFY2(nest, nest.message.c_str());
    back = rewrite::applyRewrite(*nest.program, rewrite::RewriteStep::parse("map-reduce-to-mdhom@0"));
    QVERIFY2(back, back.message.c_str());
    QVERIFY(alphaEqual(Fun(back.program->main()), Fun(gemm.main())));
  }

  // md_gemm's nest is matmul.lift's (issue 15): map(rowA => map(colB => dot product)), the join
  // of the dot products' arrays of one element outside both maps, so that the tiling rules
  // (tile-reduction, tile-reduction-blocked) apply to its maps as to matmul.lift's; each tiled
  // program computes what md_gemm computes at four size sets (interpreter, random inputs).
  void gemmNestIsTiled() {
    rewrite::TypedProgram p = rewrite::TypedProgram::check(
        parse("fun f(A: [[float]8*K]4*M, B: [[float]4*N]8*K) = md_hom(mult, (++, ++, add)) $ pair_mm(A, B)"));
    rewrite::RewriteResult nest =
        rewrite::applyRewrite(p, rewrite::RewriteStep::parse("mdhom-to-map-reduce@0"));
    QVERIFY2(nest, nest.message.c_str());
    Program matmul = parse(
        "fun f(A: [[float]8*K]4*M, B: [[float]4*N]8*K) = map(join) o map(fun(rowA => map(fun(colB => "
        "reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A");
    QVERIFY2(alphaEqual(Fun(nest.program->main()), Fun(matmul.main)),
             lang::printProgram(nest.program->program).c_str());
    // The maps are the join's argument, at 0.1; the outermost node, the join, is no tile.
    std::set<std::string> applies;
    for (const auto& rule : rewrite::rulesAt(*nest.program, *rewrite::Location::parse("0.1"), false))
      if (rule.applies) applies.insert(rule.rule->name);
    for (const char* rule : {"tile-reduction", "tile-reduction-blocked", "tiling"})
      QVERIFY2(applies.count(rule), rule);
    for (const auto& rule : rewrite::rulesAt(*nest.program, rewrite::Location::body(), false))
      if (rule.rule->name.rfind("tile-reduction", 0) == 0) QVERIFY(!rule.applies);
    rewrite::EquivalenceOptions eq;
    eq.sizeSets = 4;
    for (const char* spec :
         {"tile-reduction@0.1:k=4", "tile-reduction-blocked@0.1:k=8,x=4,y=4,blocks=strided",
          "tile-reduction-blocked@0.1:k=4,x=2,y=4,blocks=strided,w=2",
          "tile-reduction-blocked@0.1:k=8,x=2,y=2,blocks=contiguous"}) {
      rewrite::RewriteResult r = rewrite::applyRewrite(*nest.program, rewrite::RewriteStep::parse(spec));
      QVERIFY2(r, (std::string(spec) + ": " + r.message).c_str());
      rewrite::EquivalenceReport report = rewrite::checkEquivalence(p.program, r.program->program, eq);
      QVERIFY2(report, (std::string(spec) + ": " + report.message).c_str());
      QVERIFY2(report.runs >= 3, (std::string(spec) + ": compared at too few sizes").c_str());
    }
  }

  // 001's partitioning of md_gemv by clicking: the rows into chunks (work-groups), the columns
  // into one strided chunk per work-item (Fig. 4: neighbouring work-items read neighbouring
  // columns), then the nest of map and reduce the levels become — each step md_gemv still.
  void derivesThePartitioningOf001() {
    rewrite::TypedProgram p = rewrite::TypedProgram::check(
        parse("fun f(A: [[float]16*K]8*M, v: [float]16*K) = md_hom(mult, (++, add)) $ pair_mv(A, v)"));
    const rewrite::TypedProgram start = p;
    // The rule palette at the md_hom offers the split with its choices of dimension and size.
    bool offered = false;
    for (const auto& rule : rewrite::rulesAt(p, rewrite::Location::body(), /*withPreview=*/true))
      if (rule.rule->name == "mdhom-split") {
        offered = rule.applies && rule.preview && !rule.alternatives.empty();
        bool secondDim = rule.params.text("dim") == "2";
        for (const auto& alt : rule.alternatives) secondDim = secondDim || alt.text("dim") == "2";
        QVERIFY(secondDim);
      }
    QVERIFY(offered);
    const char* steps[] = {
        "mdhom-split@0:dim=1,n=4",            // chunks of rows: join o md_hom(mult, (++, ++, add)) o split(4)
        "mdhom-split-strided@0.1:dim=3,n=4",  // the columns: one chunk per work-item, its 4 elements strided
        "mdhom-view-to-zip@0.1.1.1.1.1",      // pair_mv as zips
        "mdhom-to-map-reduce@0.1",            // the nest of map and reduce
    };
    for (const char* spec : steps) {
      rewrite::RewriteResult r = rewrite::applyRewrite(p, rewrite::RewriteStep::parse(spec));
      QVERIFY2(r, (std::string(spec) + ": " + r.message + "\n" + lang::printProgram(p.program)).c_str());
      p = *r.program;
      rewrite::EquivalenceReport report = rewrite::checkEquivalence(start.program, p.program);
      QVERIFY2(report, (std::string(spec) + ": " + report.message).c_str());
    }
    QVERIFY(!containsPattern(p.main()->body(), {PatternKind::MdHom}));
    QVERIFY(!containsPattern(p.main()->body(), {PatternKind::PairMV}));
  }

  // An md_hom the paper does not show: gemv with the matrix transposed
  // (resources/examples/md_gemv_t.lift), md_gemv's md_hom over the view pair_mv(transpose(A), x).
  // Its nest of map and reduce lowered by clicking (a mapGlb over the columns of A, each a
  // sequential reduction down the column) runs on the CPU device and gives what the interpreter
  // gives at three sizes; neighbouring work-items read neighbouring elements of A.
  void transposedGemvRunsOnTheCpuDevice() {
    rewrite::TypedProgram p =
        rewrite::TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/md_gemv_t.lift"));
    const ir::Program start = p.program;
    for (const char* spec : {"mdhom-to-map-reduce@0", "map-to-glb@0.1:dim=0", "reduce-to-seq@0.1.0.0.0",
                             "map-to-seq@0.1.0.0.0.2"}) {
      rewrite::RewriteResult r = rewrite::applyRewrite(p, rewrite::RewriteStep::parse(spec));
      QVERIFY2(r, (std::string(spec) + ": " + r.message + "\n" + lang::printProgram(p.program)).c_str());
      p = *r.program;
    }
    QVERIFY(rewrite::checkEquivalence(start, p.program).equal);
    codegen::CompiledKernel k = codegen::compileKernel(p.program);
    bool coalesced = false;
    for (const codegen::IndexEntry& e : k.indices)
      if (e.buffer == "A" && !e.write) {
        for (arith::Expr v : arith::variables(e.simplifiedExpr))
          if (arith::varName(v) == "gl_id")
            coalesced = arith::simplify(arith::substitute(e.simplifiedExpr, {{v, v + 1}}) -
                                        e.simplifiedExpr) == arith::cst(1);
      }
    QVERIFY2(coalesced, k.source.c_str());
    runtime::KernelRunner runner(runtime::Device::find("0"));
    for (arith::Env sizes : {arith::Env{{"M", 1}, {"N", 1}}, arith::Env{{"M", 7}, {"N", 33}},
                             arith::Env{{"M", 64}, {"N", 128}}}) {
      codegen::EvaluationRequest req;
      req.sizes = sizes;
      req.reference.kind = codegen::ReferenceChoice::Kind::Interpreter;
      req.run.repetitions = 1;
      req.run.warmups = 0;
      codegen::Evaluation e = codegen::evaluate(p.program, req, runner);
      QVERIFY2(e.validated(), e.summary().c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestMdHom)
#include "tst_md_hom.moc"
