// The typing rule of each pattern on its own (core/ir/PatternTypeRules): the result type from
// argument types and parameters, with the nested function typed by a stand-in, and the failures
// with their reasons and whom they blame. tst_typecheck checks the same rules through programs.
#include <QtTest/QtTest>

#include "core/ir/Build.h"
#include "core/ir/PatternTypeRules.h"

using namespace lift;
using namespace lift::ir;
using Blame = InferredType::Blame;

namespace {

arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M"), K = arith::sizeVar("K");
Type f32 = Type::float_();
Type i32 = Type::int_();
Type arr(Type t, arith::Expr n) { return Type::array(t, n); }
Type arr(Type t, int64_t n) { return Type::array(t, arith::cst(n)); }
Type vec(Type t, int w) { return Type::vector(t.scalarKind(), w); }

const PatternNode& pat(const Fun& f) { return *asPattern(f); }

// A stand-in for the nested function: gives `body(args)` and records every application.
struct Nested {
  std::function<Type(const std::vector<Type>&)> body;
  std::vector<std::vector<Type>> calls;
  NestedTyping typing() {
    return [this](const std::vector<Type>& args, size_t) {
      calls.push_back(args);
      return body(args);
    };
  }
};

Nested returning(Type t) {
  return {[t](const std::vector<Type>&) { return t; }, {}};
}

InferredType infer(const Fun& f, const std::vector<Type>& args, Nested nested = returning(Type())) {
  return inferPatternType(pat(f), args, nested.typing());
}

Type typeOf(const Fun& f, const std::vector<Type>& args, Nested nested = returning(Type())) {
  InferredType r = infer(f, args, std::move(nested));
  if (!r) qWarning("%s", r.reason().c_str());
  return r.type();
}

void expectFailure(const InferredType& r, Blame blame, const std::string& part) {
  QVERIFY2(!r, "the rule gave a type");
  QVERIFY2(r.reason().find(part) != std::string::npos, r.reason().c_str());
  QCOMPARE(r.blame(), blame);
}

// The nested function of the patterns below (the stand-in types it; its own type is irrelevant).
Fun g() { return id(); }

}  // namespace

class TestPatternTypeRules : public QObject {
  Q_OBJECT
 private slots:
  void maps() {
    for (PatternKind k : {PatternKind::Map, PatternKind::MapSeq, PatternKind::MapSeqUnroll,
                          PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}) {
      Nested f = returning(i32);
      InferredType r = inferPatternType(pat(mapLike(k, g())), {arr(f32, N)}, f.typing());
      QCOMPARE(r.type(), arr(i32, N));
      QCOMPARE(f.calls, (std::vector<std::vector<Type>>{{f32}}));  // f sees an element
    }
    expectFailure(infer(map(g()), {f32}, returning(f32)), Blame::Arguments,
                  "map expects an array, got float");
    expectFailure(infer(map(g()), {arr(f32, N), arr(f32, N)}), Blame::Arguments,
                  "map takes 1 argument but is applied to 2");
  }

  void mapVec() {
    Nested f = returning(f32);
    QCOMPARE(inferPatternType(pat(ir::mapVec(g())), {vec(f32, 4)}, f.typing()).type(), vec(f32, 4));
    QCOMPARE(f.calls.at(0), std::vector<Type>{f32});
    expectFailure(infer(ir::mapVec(g()), {f32}, returning(f32)), Blame::Arguments, "mapVec expects a vector");
    expectFailure(infer(ir::mapVec(g()), {vec(f32, 4)}, returning(vec(f32, 2))), Blame::Arguments,
                  "must return a scalar");
  }

  void reductions() {
    for (PatternKind k : {PatternKind::Reduce, PatternKind::ReduceSeq, PatternKind::ReduceSeqUnroll}) {
      Nested f = returning(f32);
      InferredType r = inferPatternType(pat(reducePattern(k, g())), {f32, arr(f32, N)}, f.typing());
      QCOMPARE(r.type(), arr(f32, 1));
      QCOMPARE(f.calls.at(0), (std::vector<Type>{f32, f32}));  // (accumulator, element)
    }
    QCOMPARE(typeOf(reducePattern(PatternKind::PartRed, g(), {arith::cst(4)}), {f32, arr(f32, N * 4)},
                    returning(f32)),
             arr(f32, N));
    expectFailure(infer(reducePattern(PatternKind::Reduce, g()), {f32, arr(f32, N)}, returning(i32)),
                  Blame::Arguments, "the function returns int but the initial value has type float");
    expectFailure(infer(reducePattern(PatternKind::Reduce, g()), {f32, f32}, returning(f32)),
                  Blame::Arguments, "expects an array to reduce");
    expectFailure(infer(reducePattern(PatternKind::PartRed, g()), {f32, arr(f32, N)}, returning(f32)),
                  Blame::Parameters, "partRed needs the size of the parts");
    expectFailure(
        infer(reducePattern(PatternKind::PartRed, g(), {arith::cst(0)}), {f32, arr(f32, N)}, returning(f32)),
        Blame::Parameters, "the factor must be positive");
  }

  void zipAndTuple() {
    QCOMPARE(typeOf(zipPattern(2), {arr(f32, N), arr(i32, N)}), arr(Type::tuple({f32, i32}), N));
    QCOMPARE(typeOf(tuplePattern(2), {f32, arr(i32, N)}), Type::tuple({f32, arr(i32, N)}));
    expectFailure(infer(zipPattern(2), {arr(f32, N), arr(f32, M)}), Blame::Arguments,
                  "the first has length N, the second has length M");
    expectFailure(infer(zipPattern(2), {arr(f32, N), f32}), Blame::Arguments, "as second argument");
    expectFailure(infer(zipPattern(3), {arr(f32, N), arr(f32, N)}), Blame::Arguments,
                  "zip of 3 arrays applied to 2");
    expectFailure(infer(tuplePattern(2), {f32}), Blame::Arguments, "at least two components");
    QCOMPARE(typeOf(unzip(), {arr(Type::tuple({f32, i32}), N)}), Type::tuple({arr(f32, N), arr(i32, N)}));
    expectFailure(infer(unzip(), {arr(f32, N)}), Blame::Arguments, "expects an array of tuples");
    QCOMPARE(typeOf(get(1), {Type::tuple({f32, i32})}), i32);
    expectFailure(infer(get(2), {Type::tuple({f32, i32})}), Blame::Arguments, "the index must be in 0..1");
    expectFailure(infer(get(0), {f32}), Blame::Arguments, "get 0 expects a tuple");
  }

  void layout() {
    QCOMPARE(typeOf(split(4), {arr(f32, N)}), arr(arr(f32, 4), N / 4));
    QCOMPARE(typeOf(split(M), {arr(f32, N)}), arr(arr(f32, M), N / M));  // divisibility is verification
    expectFailure(infer(split(0), {arr(f32, N)}), Blame::Parameters, "split 0: the factor must be positive");
    QCOMPARE(typeOf(join(), {arr(arr(f32, M), N)}), arr(f32, M * N));
    expectFailure(infer(join(), {arr(f32, N)}), Blame::Arguments, "expects an array of arrays");
    QCOMPARE(typeOf(transpose(), {arr(arr(f32, M), N)}), arr(arr(f32, N), M));
    expectFailure(infer(transpose(), {arr(f32, N)}), Blame::Arguments, "two-dimensional");
    QCOMPARE(typeOf(id(), {arr(f32, N)}), arr(f32, N));
    QCOMPARE(typeOf(slide(arith::cst(3), arith::cst(1)), {arr(f32, N)}), arr(arr(f32, 3), N - 2));
    expectFailure(infer(slide(arith::cst(3), arith::cst(0)), {arr(f32, N)}), Blame::Parameters,
                  "the step must be positive");
    QCOMPARE(typeOf(pad(arith::cst(1), arith::cst(2), PadMode::Clamp), {arr(f32, N)}), arr(f32, N + 3));
    expectFailure(infer(pad(arith::cst(-1), arith::cst(0), PadMode::Clamp), {arr(f32, N)}), Blame::Parameters,
                  "negative padding -1");
    QCOMPARE(typeOf(padConstant(arith::cst(1), arith::cst(1), "0.0f"), {arr(f32, N)}), arr(f32, N + 2));
    expectFailure(infer(padConstant(arith::cst(1), arith::cst(1), "0"), {arr(f32, N)}), Blame::Parameters,
                  "does not match the element type float");
  }

  void permutations() {
    for (const Fun& f : {gather(reverseIndex()), scatter(strideIndex(arith::cst(2))),
                         gather(transposeIndex(M, K)), reorderStride(arith::cst(4))})
      QCOMPARE(typeOf(f, {arr(f32, N)}), arr(f32, N));
    expectFailure(infer(reorderStride(arith::cst(0)), {arr(f32, N)}), Blame::Parameters,
                  "the factor must be positive");
    expectFailure(infer(gather(strideIndex(arith::cst(-2))), {arr(f32, N)}), Blame::Parameters,
                  "the factor must be positive");
    expectFailure(infer(gather(reverseIndex()), {f32}), Blame::Arguments, "gather expects an array");
  }

  void vectors() {
    QCOMPARE(typeOf(asVector(4), {arr(f32, N)}), arr(vec(f32, 4), N / 4));
    expectFailure(infer(asVector(5), {arr(f32, N)}), Blame::Parameters, "the width must be 2, 3, 4, 8 or 16");
    expectFailure(infer(asVector(4), {arr(vec(f32, 4), N)}), Blame::Arguments, "needs an array of scalars");
    QCOMPARE(typeOf(asScalar(), {arr(vec(f32, 4), N)}), arr(f32, N * 4));
    expectFailure(infer(asScalar(), {arr(f32, N)}), Blame::Arguments, "needs an array of vectors");
    QCOMPARE(typeOf(dot(), {vec(f32, 4), vec(f32, 4)}), f32);
    expectFailure(infer(dot(), {vec(f32, 4), vec(f32, 2)}), Blame::Arguments, "of the same width");

    // vectorize(4, f): f sees scalars, tuples of vectors taken apart component-wise.
    Nested f = returning(f32);
    Type pair = Type::tuple({vec(f32, 4), vec(i32, 4)});
    QCOMPARE(inferPatternType(pat(vectorize(4, g())), {pair}, f.typing()).type(), vec(f32, 4));
    QCOMPARE(f.calls.at(0), std::vector<Type>{Type::tuple({f32, i32})});
    expectFailure(infer(vectorize(4, g()), {vec(f32, 2)}, returning(f32)), Blame::Arguments,
                  "expected vectors of width 4, got float2");
    expectFailure(infer(vectorize(4, g()), {vec(f32, 4)}, returning(vec(f32, 4))), Blame::Arguments,
                  "must return a scalar");
  }

  void addressSpaces() {
    for (const Fun& f : {toGlobal(g()), toLocal(g()), toPrivate(g())}) {
      Nested nested = returning(arr(i32, N));
      QCOMPARE(inferPatternType(pat(f), {arr(f32, N), f32}, nested.typing()).type(), arr(i32, N));
      QCOMPARE(nested.calls.at(0), (std::vector<Type>{arr(f32, N), f32}));  // the arguments as they are
    }
  }

  void iterateConstantCount() {
    Nested halve{[](const std::vector<Type>& a) { return arr(a[0].elem(), a[0].length() / 2); }, {}};
    InferredType r = inferPatternType(pat(iterate(arith::cst(3), g())), {arr(f32, 64)}, halve.typing());
    QCOMPARE(r.type(), arr(f32, 8));
    QCOMPARE(r.iterations(), (std::vector<Type>{arr(f32, 64), arr(f32, 32), arr(f32, 16), arr(f32, 8)}));

    Nested body = returning(f32);
    InferredType zero = inferPatternType(pat(iterate(arith::cst(0), g())), {arr(f32, N)}, body.typing());
    QCOMPARE(zero.type(), arr(f32, N));
    QCOMPARE(body.calls.size(), size_t(1));  // the body is typed though it never runs
    expectFailure(infer(iterate(arith::cst(-1), g()), {arr(f32, N)}), Blame::Parameters, "negative count -1");
  }

  // A symbolic count: the body is typed once on the iterate's symbolic length L.
  void iterateSymbolicCount() {
    const Fun it = iterate(K, g());
    arith::Expr L = iterateBodyLength(pat(it));
    QVERIFY(L == iterateBodyLength(pat(it)));  // one length per iterate node
    auto body = [](std::function<arith::Expr(arith::Expr)> len) {
      return Nested{[len](const std::vector<Type>& a) { return arr(a[0].elem(), len(a[0].length())); }, {}};
    };
    Nested keep = body([](arith::Expr l) { return l; });
    QCOMPARE(inferPatternType(pat(it), {arr(f32, N)}, keep.typing()).type(), arr(f32, N));
    QCOMPARE(keep.calls.at(0), std::vector<Type>{arr(f32, L)});
    QVERIFY(inferPatternType(pat(it), {arr(f32, N)}, keep.typing()).iterations().empty());

    QCOMPARE(typeOf(it, {arr(f32, N)}, body([](arith::Expr l) { return l / 2; })),
             arr(f32, N / arith::pow(arith::cst(2), K)));
    QCOMPARE(typeOf(it, {arr(f32, N)}, body([](arith::Expr l) { return l * 3; })),
             arr(f32, N * arith::pow(arith::cst(3), K)));
    // A constant count too large to type one iteration at a time: the same rule, k^n computed.
    QCOMPARE(typeOf(iterate(arith::cst(300), g()), {arr(f32, N)}, body([](arith::Expr l) { return l; })),
             arr(f32, N));
    QCOMPARE(typeOf(iterate(arith::cst(300), g()), {arr(f32, N)}, body([](arith::Expr l) { return l / 1; })),
             arr(f32, N));

    expectFailure(infer(it, {arr(f32, N)}, body([](arith::Expr l) { return l - 1; })), Blame::Arguments,
                  "must keep the length or divide or multiply it by a constant, but turns length L into");
    expectFailure(infer(it, {arr(f32, N)}, body([](arith::Expr l) { return l * l; })), Blame::Arguments,
                  "keep the length or divide or multiply");
    expectFailure(infer(it, {arr(f32, N)}, returning(arr(i32, N))), Blame::Arguments,
                  "must keep the element type float");
    expectFailure(
        infer(iterate(arith::cst(300), g()), {arr(f32, N)}, body([](arith::Expr l) { return l * 2; })),
        Blame::Arguments, "2^300, which is out of range");
    expectFailure(infer(it, {f32}), Blame::Arguments, "iterate K expects an array");
  }

  void labels() {
    QCOMPARE(diagnosticLabel(pat(split(4))), std::string("split 4"));
    QCOMPARE(diagnosticLabel(pat(mapGlb(g(), 1))), std::string("mapGlb1"));
    QCOMPARE(diagnosticLabel(pat(get(1))), std::string("get 1"));
    QCOMPARE(diagnosticLabel(pat(slide(arith::cst(3), arith::cst(1)))), std::string("slide 3, 1"));
  }
};

QTEST_APPLESS_MAIN(TestPatternTypeRules)
#include "tst_pattern_type_rules.moc"
