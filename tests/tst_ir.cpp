// IR structure: alpha-equality (equal up to renaming, different when the structure differs),
// structural hashes consistent with it, node counts, traversal, mutation and substitution, and
// the builder producing the same IR as the parser.
#include <QtTest/QtTest>

#include "core/ir/Build.h"
#include "core/ir/IR.h"
#include "core/lang/Parser.h"

using namespace lift;
using namespace lift::ir;

namespace {

const char* kMatmul = R"(
size M = 64, N = 64, K = 64;
userfun mult(float x, float y) -> float { return x * y; }
userfun add(float acc, float x) -> float { return acc + x; }
fun matmul(A: [[float]K]M, B: [[float]N]K) =
  map(fun(rowA =>
    map(fun(colB =>
      reduce(add, 0.0f) o map(mult) $ zip(rowA, colB)
    )) $ transpose(B)
  )) $ A
)";

Program parse(const std::string& text) { return lang::parseProgram(text, "test.lift"); }

// A copy of the program with every parameter renamed (and fresh nodes everywhere).
Program renamed(const std::string& text) {
  std::string t = text;
  for (auto [from, to] : {std::pair{"rowA", "r"}, std::pair{"colB", "c"}}) {
    for (size_t pos; (pos = t.find(from)) != std::string::npos;) t.replace(pos, std::string(from).size(), to);
  }
  return parse(t);
}

std::shared_ptr<UserFunDef> userFunDef(const std::string& name, int arity) {
  auto d = std::make_shared<UserFunDef>();
  d->name = name;
  for (int i = 0; i < arity; ++i) d->params.emplace_back("x" + std::to_string(i), Type::float_());
  d->returnType = Type::float_();
  d->bodyText = " return x0; ";
  return d;
}

}  // namespace

class TestIR : public QObject {
  Q_OBJECT
 private slots:
  void nodeIdsAreFreshAndUnique() {
    NodeId a = freshNodeId(), b = freshNodeId();
    QVERIFY(a != b);
    Param p = param("x"), q = param("x");
    QVERIFY(p->id() != q->id());
  }

  void downcasts() {
    Expr lit = floatLit(1.5);
    QVERIFY(asLiteral(lit));
    QVERIFY(!asParam(lit));
    QCOMPARE(QString::fromStdString(asLiteral(lit)->text()), QString("1.5f"));
    QCOMPARE(QString::fromStdString(asLiteral(floatLit(0))->text()), QString("0.0f"));
    Expr c = call(split(4), {param("x")});
    QVERIFY(asCall(c));
    QVERIFY(calledPattern(c, PatternKind::Split));
    QVERIFY(!calledPattern(c, PatternKind::Join));
    QVERIFY(calledPattern(c));
    QVERIFY(asPattern(asCall(c)->fun()));
    QVERIFY(!asLambda(asCall(c)->fun()));
  }

  void patternTable() {
    QCOMPARE(QString::fromStdString(std::string(patternName(PatternKind::MapWrg))), QString("mapWrg"));
    QCOMPARE(patternByName("reduceSeq"), std::optional<PatternKind>(PatternKind::ReduceSeq));
    QVERIFY(!patternByName("mapp"));
    QVERIFY(isMapLike(PatternKind::MapLcl) && !isMapLike(PatternKind::Reduce));
    QVERIFY(isReduceLike(PatternKind::PartRed));
    QVERIFY(isDataLayout(PatternKind::Split) && !isDataLayout(PatternKind::Map));
    QVERIFY(isAddressSpace(PatternKind::ToLocal));
    QCOMPARE(patternLevel(PatternKind::MapGlb), PatternLevel::OpenCL);
    QCOMPARE(patternLevel(PatternKind::Zip), PatternLevel::Algo);
  }

  void alphaEqualUpToRenaming() {
    Program a = parse(kMatmul), b = renamed(kMatmul);
    QVERIFY(alphaEqual(Fun(a.main), Fun(b.main)));
    QCOMPARE(structuralHash(Fun(a.main)), structuralHash(Fun(b.main)));
    QCOMPARE(structuralHash(a), structuralHash(b));
    // Lambdas built separately by the builder.
    Fun f = lambda("x", [](Expr x) { return call(split(2), {x}); });
    Fun g = lambda("y", [](Expr y) { return call(split(2), {y}); });
    QVERIFY(alphaEqual(f, g));
    QCOMPARE(structuralHash(f), structuralHash(g));
  }

  void differentStructureIsNotEqual() {
    Fun base = lambda("x", [](Expr x) { return call(split(2), {x}); });
    std::vector<Fun> others = {
        lambda("x", [](Expr x) { return call(split(4), {x}); }),                  // other factor
        lambda("x", [](Expr x) { return call(join(), {x}); }),                    // other pattern
        lambda("x", [](Expr x) { return call(split(2), {call(join(), {x})}); }),  // deeper
        lambda("x", "y", [](Expr x, Expr) { return call(split(2), {x}); }),       // arity
        mapGlb(id(), 0),
    };
    for (auto& o : others) {
      QVERIFY(!alphaEqual(base, o));
      QVERIFY(structuralHash(base) != structuralHash(o));
    }
    // Which parameter is used matters: fun((x, y) => x) differs from fun((x, y) => y).
    Fun first = lambda("x", "y", [](Expr x, Expr) { return x; });
    Fun second = lambda("x", "y", [](Expr, Expr y) { return y; });
    QVERIFY(!alphaEqual(first, second));
    QVERIFY(structuralHash(first) != structuralHash(second));
    // Map dimensions, literals and their types.
    QVERIFY(!alphaEqual(mapGlb(id(), 0), mapGlb(id(), 1)));
    QVERIFY(!alphaEqual(floatLit(0), doubleLit(0)));
    QVERIFY(!alphaEqual(floatLit(0), floatLit(1)));
    QVERIFY(alphaEqual(floatLit(1), floatLit(1)));
    // The same structure with the variables of an outer lambda swapped.
    Fun outer1 = lambda("a", "b", [](Expr a, Expr b) { return zip({a, b}); });
    Fun outer2 = lambda("a", "b", [](Expr a, Expr b) { return zip({b, a}); });
    QVERIFY(!alphaEqual(outer1, outer2));
  }

  void freeParametersCompareByIdentity() {
    Param p = param("p"), q = param("p");
    QVERIFY(alphaEqual(Expr(p), Expr(p)));
    QVERIFY(!alphaEqual(Expr(p), Expr(q)));
  }

  void userFunctionsCompareByDefinition() {
    auto d1 = userFunDef("add", 2), d2 = userFunDef("add", 2), d3 = userFunDef("mul", 2);
    QVERIFY(alphaEqual(userFun(d1), userFun(d2)));
    QCOMPARE(structuralHash(userFun(d1)), structuralHash(userFun(d2)));
    QVERIFY(!alphaEqual(userFun(d1), userFun(d3)));
    d2->bodyText = " return x1; ";
    QVERIFY(!alphaEqual(userFun(d1), userFun(d2)));
  }

  void hashIsStableUnderRepeatedParsing() {
    size_t h = structuralHash(parse(kMatmul));
    for (int i = 0; i < 5; ++i) QCOMPARE(structuralHash(parse(kMatmul)), h);
  }

  void nodeCountCountsDistinctNodes() {
    // fun(x => split(2)(x)): lambda, param x, call, split.
    Fun f = lambda("x", [](Expr x) { return call(split(2), {x}); });
    QCOMPARE(nodeCount(f), size_t(4));
    // The matmul program: a known number of nodes.
    Program p = parse(kMatmul);
    size_t n = nodeCount(Fun(p.main));
    QVERIFY2(n > 20 && n < 40, qPrintable(QString::number(n)));
  }

  void traversalGivesPathsAndParents() {
    Program p = parse(kMatmul);
    int calls = 0, binders = 0, maxDepth = 0;
    bool sawZipUnderReduce = false;
    visitPreOrder(Fun(p.main), [&](const NodePath& path) {
      const PathStep& s = path.back();
      maxDepth = std::max(maxDepth, static_cast<int>(path.size()));
      if (s.edge == Edge::LambdaParam) ++binders;
      if (s.node.isExpr() && asCall(s.node.expr())) {
        ++calls;
        if (calledPattern(s.node.expr(), PatternKind::Zip)) {
          for (auto& step : path)
            if (step.node.isExpr() && calledPattern(step.node.expr(), PatternKind::Reduce))
              sawZipUnderReduce = true;
        }
      }
      return true;
    });
    QCOMPARE(binders, 4);  // A, B, rowA, colB
    QVERIFY(calls >= 6);   // map, map, transpose, reduce, map(mult), zip
    QVERIFY(sawZipUnderReduce);
    QVERIFY(maxDepth > 8);
    // Skipping children.
    int visited = 0;
    visitPreOrder(Fun(p.main), [&](const NodePath& path) {
      ++visited;
      return path.size() < 2;
    });
    QCOMPARE(visited, 1 + static_cast<int>(ir::children(Fun(p.main)).size()));
  }

  void freeParamsAndOccurrence() {
    Param x = param("x"), y = param("y");
    Fun f = lambda({x}, zip({Expr(x), Expr(y)}));
    auto free = freeParams(f);
    QCOMPARE(free.size(), size_t(1));
    QCOMPARE(free[0], y);
    QVERIFY(occursIn(y.get(), f));
    QVERIFY(occursIn(x.get(), f));
    QVERIFY(!occursIn(param("z").get(), f));
  }

  void substitutionKeepsUntouchedNodes() {
    Param x = param("x"), y = param("y");
    Expr left = call(split(2), {Expr(y)});
    Expr e = zip({call(join(), {Expr(x)}), left});
    Expr r = substitute(e, {{x.get(), Expr(y)}});
    QVERIFY(r != e);
    auto* c = asCall(r);
    QCOMPARE(c->args()[1], left);  // the untouched argument is shared, with its id
    QCOMPARE(asCall(c->args()[0])->args()[0], Expr(y));
    // Nothing to replace: the same node comes back.
    QCOMPARE(substitute(e, {{param("z").get(), Expr(y)}}), e);
  }

  void betaReduction() {
    Param x = param("x");
    Fun f = lambda({x}, call(split(2), {Expr(x)}));
    Param a = param("a");
    Expr applied = call(f, {Expr(a)});
    Expr reduced = betaReduce(applied);
    QVERIFY(reduced);
    QVERIFY(alphaEqual(reduced, call(split(2), {Expr(a)})));
    QVERIFY(!betaReduce(call(split(2), {Expr(a)})));
  }

  void builderMatchesParser() {
    Program parsed = parse(kMatmul);
    auto mult = parsed.userFuns[0], add = parsed.userFuns[1];
    arith::Expr M = arith::sizeVar("M"), N = arith::sizeVar("N"), K = arith::sizeVar("K");
    Param A = param("A", Type::array(Type::array(Type::float_(), K), M));
    Param B = param("B", Type::array(Type::array(Type::float_(), N), K));
    Expr body =
        call(map(lambda("rowA",
                        [&](Expr rowA) {
                          return call(map(lambda("colB",
                                                 [&](Expr colB) {
                                                   return call(compose(reduce(userFun(add), floatLit(0)),
                                                                       map(userFun(mult))),
                                                               {zip({rowA, colB})});
                                                 })),
                                      {call(transpose(), {Expr(B)})});
                        })),
             {Expr(A)});
    Program built = program("matmul", {A, B}, body);
    QVERIFY(alphaEqual(Fun(built.main), Fun(parsed.main)));
    QCOMPARE(structuralHash(Fun(built.main)), structuralHash(Fun(parsed.main)));
    QCOMPARE(built.sizes.size(), size_t(3));
    QCOMPARE(built.userFuns.size(), size_t(2));
  }

  void compositionAsValueIsALambda() {
    // map(f o g) holds fun(x => f(g(x))); reduce(f, z) as a value is fun(x => Reduce(f)(z, x)).
    Program p = parse(R"(
      size N;
      userfun add(float a, float b) -> float { return a + b; }
      fun f(x: [[float]4]N) = map(reduce(add, 0.0f) o map(id)) $ x)");
    auto* outer = calledPattern(p.main->body(), PatternKind::Map);
    QVERIFY(outer);
    auto* l = asLambda(outer->f());
    QVERIFY(l);
    QCOMPARE(l->params().size(), size_t(1));
    auto* red = calledPattern(l->body(), PatternKind::Reduce);
    QVERIFY(red);
    QCOMPARE(asCall(l->body())->args().size(), size_t(2));
    QVERIFY(calledPattern(asCall(l->body())->args()[1], PatternKind::Map));
  }

  void mutatorReplacesPatterns() {
    // Turn every map into mapSeq; untouched subtrees keep their nodes.
    struct ToSeq : Mutator {
      using Mutator::mutate;
      Fun mutate(const Fun& f) override {
        Fun g = Mutator::mutate(f);
        if (auto* p = asPattern(g); p && p->pattern() == PatternKind::Map)
          return PatternNode::make(PatternKind::MapSeq, p->params());
        return g;
      }
    };
    Program p = parse(kMatmul);
    Fun r = ToSeq().mutate(Fun(p.main));
    int maps = 0, seqs = 0;
    visitPreOrder(r, [&](const NodePath& path) {
      if (auto* q = asPattern(path.back().node.fun())) {
        maps += q->pattern() == PatternKind::Map;
        seqs += q->pattern() == PatternKind::MapSeq;
      }
      return true;
    });
    QCOMPARE(maps, 0);
    QCOMPARE(seqs, 3);
    // The transpose call under the outer lambda is untouched and shared.
    bool sharedTranspose = false;
    visitPreOrder(r, [&](const NodePath& path) {
      if (calledPattern(path.back().node.expr(), PatternKind::Transpose)) {
        visitPreOrder(Fun(p.main), [&](const NodePath& q) {
          sharedTranspose = sharedTranspose || q.back().node.get() == path.back().node.get();
          return true;
        });
      }
      return true;
    });
    QVERIFY(sharedTranspose);
  }
};

QTEST_APPLESS_MAIN(TestIR)
#include "tst_ir.moc"
