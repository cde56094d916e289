// Simplification rules (Lift SimplificationRules.scala): patterns that cancel out (join o split,
// asScalar o asVector, gather o scatter, ...), identities, get of tuple, and lambda inlining,
// eta-reduction and eta-expansion.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome joinSplitId(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Join)) return fail("not a call of join");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::Split)) return fail("the input of the join is not a split");
  return Outcome::ok(m::arg(in, 0));
}

Outcome splitJoinId(const Site& s, const ParamValues&) {
  auto* sp = m::callOf(s.expr(), PatternKind::Split);
  if (!sp) return fail("not a call of split");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::Join)) return fail("the input of the split is not a join");
  Type t = typeAt(s, m::arg(in, 0));
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray()) return fail("the type of the joined array is unknown");
  if (t.elem().length() != sp->size())
    return fail("the split factor {} differs from the length {} of the joined rows", str(sp->size()),
                str(t.elem().length()));
  return Outcome::ok(m::arg(in, 0));
}

Outcome asScalarAsVectorId(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::AsScalar)) return fail("not a call of asScalar");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::AsVector)) return fail("the input of the asScalar is not an asVector");
  return Outcome::ok(m::arg(in, 0));
}

Outcome asVectorAsScalarId(const Site& s, const ParamValues&) {
  auto* av = m::callOf(s.expr(), PatternKind::AsVector);
  if (!av) return fail("not a call of asVector");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::AsScalar)) return fail("the input of the asVector is not an asScalar");
  Type t = typeAt(s, m::arg(in, 0));
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isVector()) return fail("the type of the vectors is unknown");
  if (arith::cst(t.elem().vectorWidth()) != av->size())
    return fail("the vector width {} differs from the width {} of the original vectors", str(av->size()),
                t.elem().vectorWidth());
  return Outcome::ok(m::arg(in, 0));
}

Outcome reorderPairId(const Site& s, PatternKind outer, PatternKind inner) {
  auto* o = m::callOf(s.expr(), outer);
  if (!o) return fail("not a call of {}", patName(outer));
  const Expr& in = m::arg(s.expr(), 0);
  auto* i = m::callOf(in, inner);
  if (!i) return fail("the input of the {} is not a {}", patName(outer), patName(inner));
  if (!(o->params().indexFun == i->params().indexFun)) return fail("the two index functions differ");
  return Outcome::ok(m::arg(in, 0));
}

Outcome reverseReverseId(const Site& s, const ParamValues&) {
  for (PatternKind k : {PatternKind::Gather, PatternKind::Scatter}) {
    auto* o = m::callOf(s.expr(), k);
    if (!o) continue;
    if (o->params().indexFun.kind != ir::IndexFun::Kind::Reverse)
      return fail("the index function is not reverse");
    const Expr& in = m::arg(s.expr(), 0);
    auto* i = m::callOf(in, k);
    if (!i || i->params().indexFun.kind != ir::IndexFun::Kind::Reverse)
      return fail("the input is not reversed by a {} as well", patName(k));
    return Outcome::ok(m::arg(in, 0));
  }
  return fail("not a call of gather or scatter");
}

Outcome idRemoval(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Id)) return fail("not a call of id");
  return Outcome::ok(m::arg(s.expr(), 0));
}

bool isIdentityFunction(const Fun& f) {
  if (m::isIdentityFun(f)) return true;
  if (functionAsPattern(f, PatternKind::Id)) return true;
  if (auto inner = functionAsMap(f)) return isIdentityFunction(inner->f);
  return false;
}

Outcome mapIdRemoval(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  if (!isIdentityFunction(mc->f))
    return fail("the function of the {} is not the identity", patName(mc->kind()));
  return Outcome::ok(mc->input);
}

Outcome inlineLambda(const Site& s, const ParamValues&) {
  auto* c = ir::asCall(s.expr());
  auto* l = c ? ir::asLambda(c->fun()) : nullptr;
  if (!l) return fail("not a call of a lambda");
  if (l->params().size() != c->args().size())
    return fail("the lambda takes {} parameters but gets {} arguments (tuple arguments are taken apart)",
                l->params().size(), c->args().size());
  std::unordered_map<const ir::ParamNode*, Expr> repl;
  for (size_t i = 0; i < c->args().size(); ++i) {
    const ir::ParamNode* p = l->params()[i].get();
    const Expr& a = c->args()[i];
    int n = m::uses(l->body(), p);
    if (n > 1 && computes(a))
      return fail(
          "parameter {} is used {} times and its argument computes something (it would be computed {} times)",
          p->name(), n, n);
    repl[p] = a;
  }
  // Arguments used several times are shared by the uses; give each use its own copy.
  class Inliner : public ir::Mutator {
   public:
    explicit Inliner(const std::unordered_map<const ir::ParamNode*, Expr>& r) : r_(r) {}
    using ir::Mutator::mutate;
    Expr mutate(const Expr& e) override {
      if (auto* p = ir::asParam(e)) {
        auto it = r_.find(p);
        if (it == r_.end()) return e;
        return seen_.insert(p).second ? it->second : m::freshCopy(it->second);
      }
      return ir::Mutator::mutate(e);
    }

   private:
    const std::unordered_map<const ir::ParamNode*, Expr>& r_;
    std::unordered_set<const ir::ParamNode*> seen_;
  };
  return Outcome::ok(Inliner(repl).mutate(l->body()));
}

Outcome etaReduction(const Site& s, const ParamValues&) {
  auto* l = ir::asLambda(s.fun());
  if (!l) return fail("not a lambda");
  auto* c = ir::asCall(l->body());
  if (!c) return fail("the body of the lambda is not a call");
  if (c->args().size() != l->params().size()) return fail("the body does not pass exactly the parameters on");
  for (size_t i = 0; i < c->args().size(); ++i)
    if (c->args()[i] != l->params()[i]) return fail("the body does not pass the parameters on in order");
  for (auto& p : l->params())
    if (m::mentions(c->fun(), p.get())) return fail("the called function uses the parameters");
  if (l->params().size() > 1 && ir::asPattern(c->fun()))
    return fail("a pattern does not take a tuple apart as a lambda of {} parameters does",
                l->params().size());
  for (auto& p : l->params())
    if (p->declaredType())
      return fail("parameter {} has a declared type, which the rewrite would drop", p->name());
  return Outcome::ok(c->fun());
}

Outcome etaExpansion(const Site& s, const ParamValues&) {
  auto* p = ir::asPattern(s.fun());
  if (!p) return fail("only patterns used as functions are eta-expanded, not the {}", describeNode(s.node));
  auto* parent = s.ancestors.empty() ? nullptr : ir::asPattern(s.ancestors.back().fun());
  if (!parent || !(ir::isMapLike(parent->pattern()) || parent->pattern() == PatternKind::Iterate))
    return fail("the pattern is not the function of a map or an iterate (e.g. map(transpose))");
  const ir::FunType* ft = s.types->funTypeOf(s.fun());
  if (!ft) return unknownType(s, "the function");
  if (ft->inputs.size() != 1) return fail("{} takes {} arguments", patName(p->pattern()), ft->inputs.size());
  return Outcome::ok(m::lambda1("x", [&](Expr x) { return m::call(s.fun(), {x}); }));
}

Outcome getTuple(const Site& s, const ParamValues&) {
  auto* g = m::callOf(s.expr(), PatternKind::Get);
  if (!g) return fail("not a call of get");
  const Expr& t = m::arg(s.expr(), 0);
  if (!m::callOf(t, PatternKind::Tuple)) return fail("the input of the get is not a tuple");
  return Outcome::ok(m::arg(t, static_cast<size_t>(g->index())));
}

Outcome mapGetZip(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  const ir::PatternNode* g = mc ? functionAsPattern(mc->f, PatternKind::Get) : nullptr;
  if (!g) return fail("not a map of get");
  if (!m::callOf(mc->input, PatternKind::Zip)) return fail("the input of the map is not a zip");
  return Outcome::ok(m::arg(mc->input, static_cast<size_t>(g->index())));
}

}  // namespace

void registerSimplificationRules(RuleRegistry& reg) {
  using K = PatternKind;
  reg.add(makeRule("join-split-id", Family::Simplification,
                   "Joining what was split gives the original array.", "join o split(n)", "id", {K::Join},
                   joinSplitId, "joinSplitId"));
  reg.add(makeRule(
      "split-join-id", Family::Simplification, "Splitting what was joined, by the row length, cancels.",
      "split(n) o join $ x (rows of n)", "x", {K::Split}, splitJoinId, "SimplificationRules.splitJoinId"));
  reg.add(makeRule("asscalar-asvector-id", Family::Simplification, "Vectorising and scalarising cancel.",
                   "asScalar o asVector(n)", "id", {K::AsScalar}, asScalarAsVectorId, "asScalarAsVectorId"));
  reg.add(makeRule("asvector-asscalar-id", Family::Simplification,
                   "Scalarising and vectorising with the same width cancel.",
                   "asVector(n) o asScalar $ x (width n)", "x", {K::AsVector}, asVectorAsScalarId,
                   "asVectorAsScalarId"));
  reg.add(makeRule(
      "gather-scatter-id", Family::Simplification, "A gather undoes a scatter with the same function.",
      "gather(f) o scatter(f)", "id", {K::Gather},
      [](const Site& s, const ParamValues&) { return reorderPairId(s, K::Gather, K::Scatter); },
      "gatherScatterId"));
  reg.add(makeRule(
      "scatter-gather-id", Family::Simplification, "A scatter undoes a gather with the same function.",
      "scatter(f) o gather(f)", "id", {K::Scatter},
      [](const Site& s, const ParamValues&) { return reorderPairId(s, K::Scatter, K::Gather); },
      "scatterGatherId"));
  reg.add(makeRule("reverse-reverse-id", Family::Simplification, "Reversing twice is the identity.",
                   "gather(reverse) o gather(reverse)", "id", {K::Gather, K::Scatter}, reverseReverseId));
  reg.add(makeRule("id-removal", Family::Simplification, "Drop an id (a copy that is not needed).", "id $ x",
                   "x", {K::Id}, idRemoval, "dropId"));
  reg.add(makeRule("map-id-removal", Family::Simplification, "Drop a map of the identity.", "map(id) $ x",
                   "x", {K::Map, K::MapSeq, K::MapSeqUnroll, K::MapGlb, K::MapWrg, K::MapLcl}, mapIdRemoval,
                   "removeEmptyMap"));
  reg.add(makeRule("inline-lambda", Family::Simplification,
                   "Inline a lambda applied to arguments (beta reduction).", "(fun(x => b)) $ a", "b[x := a]",
                   {}, inlineLambda, "lambdaInline, lambdaInlineParam"));
  Rule eta = makeRule("eta-reduction", Family::Simplification,
                      "A lambda that only calls a function is that function.", "fun(x => f(x))", "f", {},
                      etaReduction);
  eta.target = Target::Fun;
  reg.add(std::move(eta));
  Rule etaEx = makeRule("eta-expansion", Family::Simplification,
                        "Write a pattern used as a function as a lambda (gives rules a body to work in).",
                        "f", "fun(x => f(x))", {}, etaExpansion);
  etaEx.target = Target::Fun;
  reg.add(std::move(etaEx));
  reg.add(makeRule("get-tuple", Family::Simplification, "Take a component of a tuple built on the spot.",
                   "get(i, tuple(a0, a1))", "ai", {K::Get}, getTuple));
  reg.add(makeRule("map-get-zip", Family::Simplification, "Projecting a zip gives back the zipped array.",
                   "map(get(i)) $ zip(a0, a1)", "ai", {K::Map, K::MapSeq}, mapGetZip));
}

}  // namespace lift::rewrite
