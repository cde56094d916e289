// The type checker: the type rule of every pattern, and every diagnostic with its location.
#include <QtTest/QtTest>

#include "TypeErrorCheck.h"
#include "core/ir/Build.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"

using namespace lift;
using namespace lift::ir;

namespace {

// Declarations shared by the tests; the program function follows on line kPreludeLines + 1.
const std::string kPrelude =
    "size N, M, K;\n"
    "userfun add(float a, float b) -> float { return a + b; }\n"
    "userfun mult(float a, float b) -> float { return a * b; }\n"
    "userfun neg(float a) -> float { return -a; }\n"
    "userfun multAndSumUp(float acc, float x, float y) -> float { return acc + x * y; }\n";
constexpr int kPreludeLines = 5;

arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M"), K = arith::sizeVar("K");
Type f32 = Type::float_();
Type arr(Type t, arith::Expr n) { return Type::array(t, n); }
Type vec4() { return Type::vector(ScalarKind::Float, 4); }

Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }

Type resultOf(const std::string& fun) { return typeCheck(parse(fun)).resultType; }

// Checks that type-checking `fun` (one line) fails at the `occurrence`-th appearance of
// `needle` with a message containing each of `parts`.
void expectError(const std::string& fun, const std::string& needle, std::vector<std::string> parts,
                 int occurrence = 1) {
  Program p = parse(fun);
  size_t pos = std::string::npos;
  for (int i = 0; i < occurrence; ++i) pos = fun.find(needle, pos == std::string::npos ? 0 : pos + 1);
  QVERIFY2(pos != std::string::npos, "needle not in the program");
  test::expectTypeErrorAt(p, fun, kPreludeLines + 1, static_cast<int>(pos) + 1, parts);
}

}  // namespace

class TestTypeCheck : public QObject {
  Q_OBJECT
 private slots:
  // ----- type rules ------------------------------------------------------------------------

  void mapAndFriends() {
    QCOMPARE(resultOf("fun f(x: [float]N) = map(neg) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N) = mapSeq(neg) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N) = mapSeqUnroll(neg) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N) = mapGlb0(neg) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [[float]M]N) = mapWrg0(mapLcl0(neg)) $ x"), arr(arr(f32, M), N));
    QCOMPARE(resultOf("fun f(x: [[float]M]N) = mapGlb1(mapGlb0(neg)) $ x"), arr(arr(f32, M), N));
    QCOMPARE(resultOf("fun f(x: [[[[float]K]K]M]N) = mapWrg1(mapWrg0(mapLcl1(mapLcl0(neg)))) $ x"),
             arr(arr(arr(arr(f32, K), K), M), N));
    QCOMPARE(resultOf("fun f(x: [float]N) = map(fun(v => add(v, 1.0f))) $ x"), arr(f32, N));
  }

  void reductions() {
    QCOMPARE(resultOf("fun f(x: [float]N) = reduce(add, 0.0f) $ x"), arr(f32, arith::cst(1)));
    QCOMPARE(resultOf("fun f(x: [float]N) = reduceSeq(0.0f, add) $ x"), arr(f32, arith::cst(1)));
    QCOMPARE(resultOf("fun f(x: [float]N) = reduceSeqUnroll(add, 0.0f, x)"), arr(f32, arith::cst(1)));
    QCOMPARE(resultOf("fun f(x: [float]4*N) = partRed(add, 0.0f, 4) $ x"), arr(f32, N));
    // A reduction over pairs with a three-parameter user function (tuple flattening).
    QCOMPARE(resultOf("fun f(x: [float]N, y: [float]N) = reduceSeq(multAndSumUp, 0.0f) $ zip(x, y)"),
             arr(f32, arith::cst(1)));
    // An array-valued accumulator.
    QCOMPARE(resultOf("fun f(x: [[float]M]N) = reduceSeq(fun((acc, r) => map(add) $ zip(acc, r)), "
                      "zeros([float]M)) $ x"),
             arr(arr(f32, M), arith::cst(1)));
  }

  void scans() {
    QCOMPARE(resultOf("fun f(x: [float]N) = scan(add, 0.0f) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]4*N) = scanSeq(0.0f, add, x)"),
             arr(f32, arith::mul(arith::cst(4), N)));
    // scanSeq's accumulator may differ from the elements: a running dot product of pairs.
    QCOMPARE(resultOf("fun f(x: [float]N, y: [float]N) = scanSeq(multAndSumUp, 0.0f) $ zip(x, y)"),
             arr(f32, N));
  }

  void dataLayout() {
    Type pair = Type::tuple({f32, Type::int_()});
    QCOMPARE(resultOf("fun f(x: [float]N, y: [int]N) = zip(x, y)"), arr(pair, N));
    QCOMPARE(resultOf("fun f(x: [float]N, y: [int]N) = unzip(zip(x, y))"),
             Type::tuple({arr(f32, N), arr(Type::int_(), N)}));
    QCOMPARE(resultOf("fun f(x: [float]N*4) = split(4) $ x"), arr(arr(f32, arith::cst(4)), N));
    QCOMPARE(resultOf("fun f(x: [float]N*M) = split(M) $ x"), arr(arr(f32, M), N));
    QCOMPARE(resultOf("fun f(x: [float]128) = split128 $ x"), arr(arr(f32, arith::cst(128)), arith::cst(1)));
    QCOMPARE(resultOf("fun f(x: [[float]4]N) = join $ x"), arr(f32, N * 4));
    QCOMPARE(resultOf("fun f(x: [float]N*4) = join o split(4) $ x"), arr(f32, N * 4));
    QCOMPARE(resultOf("fun f(x: [[float]M]N) = transpose $ x"), arr(arr(f32, N), M));
    QCOMPARE(resultOf("fun f(x: [float]N) = slide(3, 1) $ x"), arr(arr(f32, arith::cst(3)), (N - 3 + 1) / 1));
    QCOMPARE(resultOf("fun f(x: [float]N) = slide(4, 2) $ x"), arr(arr(f32, arith::cst(4)), (N - 4 + 2) / 2));
    QCOMPARE(resultOf("fun f(x: [float]N) = pad(1, 2, clamp) $ x"), arr(f32, N + 3));
    QCOMPARE(resultOf("fun f(x: [float]N) = pad(1, 1, 0.0f) $ x"), arr(f32, N + 2));
    QCOMPARE(resultOf("fun f(x: [float]N) = gather(reverse) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N*4) = scatter(reorderStride(4)) $ x"), arr(f32, N * 4));
    QCOMPARE(resultOf("fun f(x: [float]N*M) = gather(transpose(N, M)) $ x"), arr(f32, N * M));
    QCOMPARE(resultOf("fun f(x: [float]N*32) = reorderStride(32) $ x"), arr(f32, N * 32));
    QCOMPARE(resultOf("fun f(x: [float]N) = id $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N) = toLocal(mapSeq(id)) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N, y: [int]N) = map(fun(p => get(1, p))) $ zip(x, y)"),
             arr(Type::int_(), N));
    QCOMPARE(
        resultOf("fun f(x: [float]N, y: [int]N) = map(fun(p => tuple(get(1, p), get(0, p)))) $ zip(x, y)"),
        arr(Type::tuple({Type::int_(), f32}), N));
  }

  // get(i) of an array of a constant length: a stencil's neighbourhood read element by element.
  void getOfAnArray() {
    QCOMPARE(
        resultOf("fun f(x: [[float]N]M) = map(map(fun(w => add(get(0, get(2, w)), get(1, get(0, w)))))) o "
                 "slide2D(3, 1) o pad2D(1, 1, clamp) $ x"),
        arr(arr(Type::float_(), N), M));
    expectError("fun f(x: [[float]N]M) = map(map(fun(w => neg(get(3, get(0, w)))))) o slide2D(3, 1) $ x",
                "get(3", {"get 3 of an array of 3 elements", "the index must be in 0..2"});
    expectError("fun f(x: [float]N) = get(0, x)", "get(0", {"get 0 of an array needs a constant length"});
  }

  void iterate() {
    // Constant count: each iteration halves the length.
    const std::string halve = "join o map(reduceSeq(add, 0.0f)) o split(2)";
    QCOMPARE(resultOf("fun f(x: [float]8) = iterate(3, " + halve + ") $ x"), arr(f32, arith::cst(1)));
    QCOMPARE(resultOf("fun f(x: [float]N*8) = iterate3(" + halve + ") $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N) = iterate(5, map(neg)) $ x"), arr(f32, N));
    // Symbolic count: the length is divided by 2^K.
    QCOMPARE(resultOf("fun f(x: [float]N) = iterate(K, " + halve + ") $ x"),
             arr(f32, N / arith::pow(arith::cst(2), K)));
    QCOMPARE(resultOf("fun f(x: [float]N) = iterate(K, map(neg)) $ x"), arr(f32, N));
    // The types between the iterations are recorded.
    Program p = parse("fun f(x: [float]64) = iterate(2, " + halve + ") $ x");
    TypeInfo info = typeCheck(p);
    auto it = info.iterations.find(p.main->body().get());
    QVERIFY(it != info.iterations.end());
    QCOMPARE(it->second.size(), size_t(3));
    QCOMPARE(it->second[1], arr(f32, arith::cst(32)));
  }

  void vectors() {
    QCOMPARE(resultOf("fun f(x: [float]N*4) = asVector(4) $ x"), arr(vec4(), N));
    QCOMPARE(resultOf("fun f(x: [float]N*4) = asScalar o asVector4 $ x"), arr(f32, N * 4));
    QCOMPARE(resultOf("fun f(x: [float]N*4) = map(mapVec(neg)) o asVector(4) $ x"), arr(vec4(), N));
    QCOMPARE(resultOf("fun f(x: [float]4*N, y: [float]4*N) = map(vectorize(4, add)) $ zip(asVector(4) $ x, "
                      "asVector(4) $ y)"),
             arr(vec4(), N));
    QCOMPARE(resultOf("fun f(x: [float]4*N, y: [float]4*N) = map(fun(p => dot(get(0, p), get(1, p)))) $ "
                      "zip(asVector4 $ x, asVector4 $ y)"),
             arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float4]N) = map(fun(v => mapVec(neg) $ v)) $ x"), arr(vec4(), N));
  }

  void tupleArgumentsAreFlattened() {
    QCOMPARE(resultOf("fun f(x: [float]N, y: [float]N) = map(mult) $ zip(x, y)"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float]N, y: [float]N) = map(fun((a, b) => mult(a, b))) $ zip(x, y)"),
             arr(f32, N));
    auto src = bindArguments(std::vector<Type>{f32, Type::tuple({f32, f32})}, 3);
    QVERIFY(src);
    QCOMPARE((*src)[2], (ArgSource{1, 1}));
    QVERIFY(!bindArguments(std::vector<Type>{f32, f32}, 3));
    QVERIFY(!bindArguments(std::vector<Type>{f32, f32, f32}, 2));
  }

  void literalsAndDeclaredParameterTypes() {
    QCOMPARE(resultOf("fun f(x: [float]N) = map(fun((v: float) => add(v, 2.5f))) $ x"), arr(f32, N));
    QCOMPARE(resultOf("fun f(x: [float4]N) = map(fun(v => (float4)1.0f)) $ x"), arr(vec4(), N));
    QCOMPARE(ir::scalarLiteralType("1.5f"), f32);
    QCOMPARE(ir::scalarLiteralType("2.0"), Type::double_());
    QCOMPARE(ir::scalarLiteralType("-3"), Type::int_());
    QCOMPARE(ir::scalarLiteralType("1e-3f"), f32);
    QCOMPARE(ir::scalarLiteralType("true"), Type::bool_());
    QVERIFY(!ir::scalarLiteralType("x1"));
  }

  void typeInfoCoversEveryNode() {
    Program p = parse("fun f(x: [float]N, y: [float]N) = reduce(add, 0.0f) o map(mult) $ zip(x, y)");
    TypeInfo info = typeCheck(p);
    QCOMPARE(QString::fromStdString(info.signature()), QString("([float]N, [float]N) -> [float]1"));
    int exprs = 0, untypedExprs = 0, untypedFuns = 0;
    visitPreOrder(Fun(p.main), [&](const NodePath& path) {
      const PathStep& s = path.back();
      if (s.node.isExpr()) {
        ++exprs;
        untypedExprs += !info.typeOf(s.node.expr());
      } else {
        untypedFuns += !info.funTypeOf(s.node.fun());
      }
      return true;
    });
    QVERIFY(exprs >= 7);
    QCOMPARE(untypedExprs, 0);
    QCOMPARE(untypedFuns, 0);
    // The map's function type: float x float -> float applied to pairs.
    auto* mapCall = asCall(asCall(p.main->body())->args()[1]);
    const FunType* ft = info.funTypeOf(mapCall->fun());
    QVERIFY(ft);
    QCOMPARE(ft->output, arr(f32, N));
  }

  void fragmentsWithoutTheirContext() {
    // A mapLcl taken out of its mapWrg type-checks with the nesting rules off.
    Fun f = mapLcl(id(), 0);
    TypeCheckOptions opts;
    opts.checkParallelNesting = false;
    TypeInfo info = typeCheck(f, {arr(f32, N)}, opts);
    QCOMPARE(info.resultType, arr(f32, N));
    QVERIFY_THROWS_EXCEPTION(LiftError, typeCheck(f, {arr(f32, N)}));
    // Without a program, errors have no location but a message.
    try {
      typeCheck(split(4), {arr(f32, N)});
      QFAIL("no error");
    } catch (const LiftError& e) {
      QVERIFY(e.diagnostic().message.find("N must be divisible by 4") != std::string::npos);
    }
  }

  // ----- diagnostics -----------------------------------------------------------------------

  void zipOfUnequalLengths() {
    expectError("fun f(x: [float]N, y: [float]M) = zip(x, y)", "zip", {"different lengths", "N", "M"});
  }

  void splitNotDivisible() {
    expectError("fun f(x: [float]N) = split(4) $ x", "split", {"N must be divisible by 4"});
    expectError("fun f(x: [float]N*2) = map(neg) o join o split(4) $ x", "split", {"must be divisible by 4"});
    expectError("fun f(x: [float]N) = asVector(4) $ x", "asVector", {"N must be divisible by 4"});
    expectError("fun f(x: [float]N) = partRed(add, 0.0f, 3) $ x", "partRed", {"N must be divisible by 3"});
  }

  void getOutOfRange() {
    expectError("fun f(x: [float]N) = map(fun(p => get(2, p))) $ zip(x, x)", "get", {"get 2", "0..1"});
    expectError("fun f(x: [float]N) = map(fun(p => get(0, p))) $ x", "get", {"expects a tuple", "float"});
  }

  void userFunctionOnTheWrongType() {
    expectError("fun f(x: [float]N) = map(neg) $ zip(x, x)", "neg",
                {"'neg'", "parameter 'a'", "(float, float)"});
    expectError("fun f(x: [int]N) = map(neg) $ x", "neg", {"parameter 'a' has type float", "int"});
    expectError("fun f(x: [float]N) = neg $ x", "neg", {"'neg'", "[float]N"});
  }

  void wrongNumberOfArguments() {
    expectError("fun f(x: [float]N) = map(fun(v => add(v))) $ x", "add",
                {"'add' takes 2 arguments", "applied to 1"});
    expectError("fun f(x: [float]N) = map(fun(v => add(v, v, v))) $ x", "add", {"takes 2", "applied to 3"});
    expectError("fun f(x: [float]N) = map(fun((a, b) => a)) $ x", "fun", {"lambda takes 2", "applied to 1"},
                2);
    expectError("fun f(x: [float]N) = join(x, x)", "join", {"join takes 1 argument", "applied to 2"});
  }

  void parallelNesting() {
    expectError("fun f(x: [float]N) = mapLcl0(neg) $ x", "mapLcl0",
                {"mapLcl0 must be nested inside a mapWrg"});
    expectError("fun f(x: [[float]M]N) = mapWrg0(mapWrg0(neg)) $ x", "mapWrg0", {"mapWrg0 inside mapWrg0"},
                2);
    expectError("fun f(x: [[[float]K]M]N) = mapWrg0(mapLcl0(mapWrg1(neg))) $ x", "mapWrg1",
                {"mapWrg1 inside mapLcl0"});
    expectError("fun f(x: [[[float]K]M]N) = mapWrg0(mapLcl0(mapLcl0(neg))) $ x", "mapLcl0",
                {"mapLcl0 inside mapLcl0"}, 2);
    expectError("fun f(x: [[float]M]N) = mapGlb0(mapGlb0(neg)) $ x", "mapGlb0", {"mapGlb0 inside mapGlb0"},
                2);
    expectError("fun f(x: [[float]M]N) = mapGlb0(mapWrg0(neg)) $ x", "mapWrg0", {"mapWrg0 inside mapGlb0"});
    expectError("fun f(x: [[float]M]N) = mapWrg0(mapGlb0(neg)) $ x", "mapGlb0", {"mapGlb0 inside mapWrg0"});
  }

  void vectorDiagnostics() {
    expectError("fun f(x: [float]N*16) = asVector(4) o asVector(4) $ x", "asVector",
                {"needs an array of scalars", "float4"});
    expectError("fun f(x: [float]N) = asScalar $ x", "asScalar", {"needs an array of vectors"});
    expectError("fun f(x: [float]N*8) = asVector(5) $ x", "asVector", {"width must be 2, 3, 4, 8 or 16"});
    expectError("fun f(x: [float]N, y: [float]N) = map(fun(p => dot(get(0, p), get(1, p)))) $ zip(x, y)",
                "dot", {"dot expects two float or double vectors"});
    expectError("fun f(x: [float]8*N) = map(vectorize(4, neg)) o asVector(8) $ x", "map",
                {"expected vectors of width 4", "float8"});
  }

  void otherDiagnostics() {
    expectError("fun f(x: [float]N) = join $ x", "join", {"join expects an array of arrays"});
    expectError("fun f(x: [float]N) = transpose $ x", "transpose", {"two-dimensional"});
    expectError("fun f(x: [float]N) = reduce(fun((a, b) => zip(a, b)), 0.0f) $ x", "zip",
                {"zip expects an array", "float"});
    expectError("fun f(x: [float]N) = map(fun((v: int) => v)) $ x", "v",
                {"'v' is declared as int but receives float"});
    expectError("fun f(x: [float]N) = unzip $ x", "unzip", {"array of tuples"});
    expectError("fun f(x: [float]N) = map(neg) $ neg(1.0f)", "map", {"map expects an array", "float"});
    expectError("fun f(x: [float]N) = pad(1, 1, 0) $ x", "pad", {"does not match the element type float"});
    expectError("fun f(x: [float]N) = gather(transpose(N, M)) $ x", "gather", {"the length must be"});
    expectError("fun f(x: [float]N) = iterate(K, split(2)) $ x", "iterate", {"keep the element type"});
    expectError("fun f(x: [float]8) = iterate(4, join o map(reduceSeq(add, 0.0f)) o split(2)) $ x", "split",
                {"1 must be divisible by 2"});
  }

  void reduceWithMismatchedInitialValue() {
    // The accumulator type is the initial value's; the function must return it.
    expectError("fun f(x: [float]N) = reduceSeq(fun((acc, v) => tuple(acc, v)), 0.0f) $ x", "reduceSeq",
                {"returns (float, float) but the initial value has type float"});
  }

  void scanCombinesElements() {
    // The parallel scan combines elements with f: its accumulator is the element type.
    expectError("fun f(x: [float]N, y: [float]N) = scan(multAndSumUp, 0.0f) $ zip(x, y)", "scan",
                {"the initial value has type float but the elements have type (float, float)"});
    expectError("fun f(x: [float]N) = scanSeq(fun((acc, v) => tuple(acc, v)), 0.0f) $ x", "scanSeq",
                {"returns (float, float) but the initial value has type float"});
  }
};

QTEST_APPLESS_MAIN(TestTypeCheck)
#include "tst_typecheck.moc"
