// Simplification rules (Lift SimplificationRules.scala): patterns that cancel out (join o split,
// asScalar o asVector, gather o scatter, ...), identities, get of tuple, and lambda inlining,
// eta-reduction and eta-expansion; the clean-up of zips and tuples (Lift flattenZips,
// removeDuplicateZipArg, tupleInline): a zip of zips flattened, an array zipped twice zipped once, a
// tuple passed to a lambda that only takes its components inlined.
#include <algorithm>
#include <variant>

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

// The parallel map (mapGlb, mapWrg, mapLcl, mapWarp, ...) of `body` in whose function p is used, or
// null: an argument put in p's place runs inside it.
const ir::PatternNode* parallelMapAround(const Expr& body, const ir::ParamNode* p) {
  const ir::PatternNode* found = nullptr;
  ir::visitPreOrder(body, [&](const ir::NodePath& path) {
    if (found) return false;
    if (path.back().node.get() != static_cast<const ir::Node*>(p)) return true;
    for (const ir::PathStep& step : path) {
      auto* pat = step.node.isFun() ? ir::asPattern(step.node.fun()) : nullptr;
      if (pat && ir::isParallelMap(pat->pattern())) found = pat;
    }
    return false;
  });
  return found;
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
    // An argument that computes with OpenCL maps would be nested in the body's parallel map.
    if (const ir::PatternNode* around = parallelMapAround(l->body(), p);
        around && ir::containsPattern(a, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl,
                                          PatternKind::MapAtomWrg, PatternKind::MapAtomLcl,
                                          PatternKind::MapWarp, PatternKind::MapLane}))
      return fail(
          "the argument of parameter {} computes with OpenCL maps, which inlined would run inside the {} "
          "that uses {}: a nesting of parallel maps the program does not have",
          p->name(), patName(around->pattern()), p->name());
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

std::vector<PatternKind> mapKinds() {
  return {PatternKind::Map,    PatternKind::MapSeq, PatternKind::MapSeqUnroll,
          PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl};
}

// ----- zips and tuples ----------------------------------------------------------------------------

// A map over a zip whose function is a lambda using its element only through components.
struct MapOverZip {
  m::MapCall map;
  const ir::LambdaNode* f = nullptr;
  const ir::ParamNode* p = nullptr;
  const ir::CallNode* zip = nullptr;
};

std::variant<MapOverZip, Outcome> mapOverZip(const Site& s) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  if (!m::callOf(mc->input, PatternKind::Zip))
    return fail("the input of the {} is not a zip", patName(mc->kind()));
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1)
    return fail("the function of the {} is not a lambda of one parameter", patName(mc->kind()));
  const ir::ParamNode* p = l->params()[0].get();
  if (!usedOnlyThroughGet(l->body(), p))
    return fail("the zipped element '{}' is not only used through its components (get)", p->name());
  return MapOverZip{*mc, l, p, ir::asCall(mc->input)};
}

Outcome flattenZips(const Site& s, const ParamValues&) {
  auto v = mapOverZip(s);
  if (auto* o = std::get_if<Outcome>(&v)) return *o;
  auto& mz = std::get<MapOverZip>(v);
  const auto& args = mz.zip->args();
  std::vector<Expr> flat;
  std::vector<int> start;
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) {
    start.push_back(static_cast<int>(flat.size()));
    if (m::callOf(args[i], PatternKind::Zip)) {
      any = true;
      for (auto& a : ir::asCall(args[i])->args()) flat.push_back(a);
    } else {
      flat.push_back(args[i]);
    }
  }
  if (!any) return fail("none of the zipped arrays is a zip");
  // A component that is itself a zip's element must only be taken apart further (get of get).
  Expr body = mz.f->body();
  ir::Param q = ir::param("q");
  for (size_t i = 0; i < args.size(); ++i) {
    if (!m::callOf(args[i], PatternKind::Zip)) continue;
    int uses = componentUses(body, mz.p, static_cast<int>(args.size()))[i];
    int taken = 0;
    ir::visitPreOrder(body, [&](const ir::NodePath& path) {
      const ir::NodeRef& n = path.back().node;
      if (n.isExpr() && m::callOf(n.expr(), PatternKind::Get)) {
        const Expr& in = m::arg(n.expr(), 0);
        auto* g = m::callOf(in, PatternKind::Get);
        if (g && g->index() == static_cast<int>(i) && ir::asParam(m::arg(in, 0)) == mz.p) ++taken;
      }
      return true;
    });
    if (taken != uses)
      return fail("component {} (a zip) of the element is used whole, not only through its components", i);
  }
  Expr newBody = replaceComponents(body, mz.p, [&](int i) -> Expr {
    size_t k = static_cast<size_t>(i);
    if (!m::callOf(args[k], PatternKind::Zip)) return m::callGet(start[k], q);
    std::vector<Expr> parts;
    for (size_t j = 0; j < m::argCount(args[k]); ++j)
      parts.push_back(m::callGet(start[k] + static_cast<int>(j), q));
    return m::callTuple(std::move(parts));
  });
  newBody = simplifyGetOfTuple(newBody);
  return Outcome::ok(
      m::callMap(mz.map.kind(), ir::lambda({q}, newBody), m::callZip(std::move(flat)), mz.map.dim()));
}

Outcome removeDuplicateZipArg(const Site& s, const ParamValues&) {
  auto v = mapOverZip(s);
  if (auto* o = std::get_if<Outcome>(&v)) return *o;
  auto& mz = std::get<MapOverZip>(v);
  const auto& args = mz.zip->args();
  std::vector<Expr> distinct;
  std::vector<int> newIndex;
  for (auto& a : args) {
    auto same =
        std::find_if(distinct.begin(), distinct.end(), [&](const Expr& d) { return ir::alphaEqual(a, d); });
    newIndex.push_back(static_cast<int>(same - distinct.begin()));
    if (same == distinct.end()) distinct.push_back(a);
  }
  if (distinct.size() == args.size()) return fail("no array is zipped twice");
  ir::Param q = ir::param("q");
  bool single = distinct.size() == 1;
  Expr newBody = replaceComponents(mz.f->body(), mz.p, [&](int i) -> Expr {
    return single ? Expr(q) : m::callGet(newIndex[static_cast<size_t>(i)], q);
  });
  Expr input = single ? distinct[0] : m::callZip(std::move(distinct));
  return Outcome::ok(m::callMap(mz.map.kind(), ir::lambda({q}, newBody), input, mz.map.dim()));
}

Outcome tupleInline(const Site& s, const ParamValues&) {
  auto* c = ir::asCall(s.expr());
  auto* l = c ? ir::asLambda(c->fun()) : nullptr;
  if (!l) return fail("not a call of a lambda");
  if (l->params().size() != c->args().size()) return fail("the lambda is not applied to all its parameters");
  std::string why = "no argument of the lambda is a tuple built on the spot";
  for (size_t k = 0; k < c->args().size(); ++k) {
    if (!m::callOf(c->args()[k], PatternKind::Tuple)) continue;
    const ir::ParamNode* p = l->params()[k].get();
    if (!usedOnlyThroughGet(l->body(), p)) {
      why = fmt::format("the tuple '{}' is not only used through its components (get)", p->name());
      continue;
    }
    const auto& comps = ir::asCall(c->args()[k])->args();
    std::vector<int> uses = componentUses(l->body(), p, static_cast<int>(comps.size()));
    bool duplicates = false;
    for (size_t i = 0; i < comps.size(); ++i)
      if (uses[i] > 1 && !m::isTrivial(comps[i])) {
        why = fmt::format("component {} of the tuple would be computed {} times", i, uses[i]);
        duplicates = true;
      }
    if (duplicates) continue;
    std::vector<int> placed(comps.size(), 0);
    Expr body = replaceComponents(l->body(), p, [&](int i) -> Expr {
      size_t j = static_cast<size_t>(i);
      return placed[j]++ == 0 ? comps[j] : m::freshCopy(comps[j]);
    });
    // A tuple component never used is dropped with the tuple.
    if (c->args().size() == 1) return Outcome::ok(body);
    std::vector<ir::Param> params;
    std::vector<Expr> rest;
    for (size_t j = 0; j < c->args().size(); ++j)
      if (j != k) {
        params.push_back(l->params()[j]);
        rest.push_back(c->args()[j]);
      }
    return Outcome::ok(m::call(ir::lambda(std::move(params), body), std::move(rest)));
  }
  return Outcome::fail(why);
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
  reg.add(makeRule("flatten-zips", Family::Simplification,
                   "Zip the arrays of a zipped zip directly, renumbering the components the map takes.",
                   "map(p => f(p._0._0, p._0._1, p._1)) $ zip(zip(a, b), c)",
                   "map(q => f(q._0, q._1, q._2)) $ zip(a, b, c)", mapKinds(), flattenZips, "flattenZips"));
  reg.add(makeRule("remove-duplicate-zip-arg", Family::Simplification,
                   "Zip an array that is zipped twice only once, both components reading the same one.",
                   "map(p => f(p._0, p._1, p._2)) $ zip(a, b, a)",
                   "map(q => f(q._0, q._1, q._0)) $ zip(a, b)", mapKinds(), removeDuplicateZipArg,
                   "removeDuplicateZipArg"));
  reg.add(makeRule("tuple-inline", Family::Simplification,
                   "Pass the components of a tuple built on the spot to a lambda that only takes them apart.",
                   "(fun(t => f(t._0, t._1))) $ tuple(a, b)", "f(a, b)", {}, tupleInline, "tupleInline"));
}

}  // namespace lift::rewrite
