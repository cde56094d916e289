// Fission rules: one pattern becomes two (map fission, 003 step 3; its zip variant, also for a
// called function that uses the element; and the inverse of reduce-map fusion), and Lift's extractFromMap
// (work that does not depend on the element computed once, before the map), mapFissionWithZipOutside (a
// function of one zipped component mapped over that array first) and tupleFission.
#include <algorithm>

#include "rewrite/Location.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

std::vector<PatternKind> mapKinds() {
  return {PatternKind::Map,    PatternKind::MapSeq, PatternKind::MapSeqUnroll,
          PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl};
}

struct FissionPoint {
  const ir::CallNode* call = nullptr;
  ir::Param param;
  size_t split = 0;               // the argument that becomes the inner map's body
  std::vector<size_t> otherUses;  // other arguments that use the parameter
  bool funUses = false;           // the called function uses the parameter (map-fission-zip only)
};

// Takes the body of map(fun(p => h(..., inner(p), ...))) apart. Fails with a reason; with
// `funMayUse`, h itself may use p (e.g. map(a => f(a, p._1)) o reduce(...) $ p._0).
std::variant<FissionPoint, std::string> fissionPoint(const m::MapCall& mc, bool funMayUse = false) {
  auto* l = ir::asLambda(mc.f);
  if (!l || l->params().size() != 1)
    return fmt::format("the function of the {} is not a lambda of one parameter", patName(mc.kind()));
  const ir::ParamNode* p = l->params()[0].get();
  auto* c = ir::asCall(l->body());
  if (!c) return std::string("the body of the lambda is not a call");
  bool funUses = m::mentions(c->fun(), p);
  if (funUses && !funMayUse) return std::string("the function called in the body uses the parameter");
  FissionPoint fp{c, l->params()[0]};
  fp.funUses = funUses;
  bool found = false;
  for (size_t i = 0; i < c->args().size(); ++i) {
    const Expr& a = c->args()[i];
    if (!m::mentions(a, p)) continue;
    if (!found && a.get() != p && ir::asCall(a)) {
      fp.split = i;
      found = true;
    } else {
      fp.otherUses.push_back(i);
    }
  }
  if (!found) return std::string("no argument of the body's call computes something from the parameter");
  return fp;
}

Outcome mapFission(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  auto r = fissionPoint(*mc);
  if (auto* why = std::get_if<std::string>(&r)) return Outcome::fail(*why);
  auto& fp = std::get<FissionPoint>(r);
  if (!fp.otherUses.empty())
    return fail("the parameter is used outside the part to split off (map-fission-zip handles that)");
  Fun outerF = m::lambda1("y", [&](Expr y) {
    std::vector<Expr> args = fp.call->args();
    args[fp.split] = y;
    return m::call(fp.call->fun(), std::move(args));
  });
  Fun innerF = ir::LambdaNode::make({fp.param}, fp.call->args()[fp.split]);
  return Outcome::ok(
      m::callMap(mc->kind(), outerF, m::callMap(mc->kind(), innerF, mc->input, mc->dim()), mc->dim()));
}

// map-fission-zip, and with `closure` its form for a called function that uses the element too.
Outcome splitZipping(const Site& s, bool closure) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  auto r = fissionPoint(*mc, closure);
  if (auto* why = std::get_if<std::string>(&r)) return Outcome::fail(*why);
  auto& fp = std::get<FissionPoint>(r);
  if (closure && !fp.funUses)
    return fail("the function called in the body does not use the parameter (use map-fission-zip)");
  if (!closure && fp.otherUses.empty())
    return fail("the parameter is only used in the part to split off (use map-fission)");
  if (computes(mc->input))
    return fail("the input of the {} would be computed twice (it calls user functions)", patName(mc->kind()));
  const ir::ParamNode* p = fp.param.get();
  Fun outerF = m::lambda1("q", [&](Expr q) {
    std::unordered_map<const ir::ParamNode*, Expr> repl{{p, m::callGet(0, q)}};
    std::vector<Expr> args = fp.call->args();
    for (size_t i = 0; i < args.size(); ++i)
      args[i] = i == fp.split ? m::callGet(1, q) : ir::substitute(args[i], repl);
    return m::call(fp.funUses ? ir::substitute(fp.call->fun(), repl) : fp.call->fun(), std::move(args));
  });
  Fun innerF = ir::LambdaNode::make({fp.param}, fp.call->args()[fp.split]);
  Expr computed = m::callMap(mc->kind(), innerF, m::freshCopy(mc->input), mc->dim());
  return Outcome::ok(m::callMap(mc->kind(), outerF, m::callZip({mc->input, computed}), mc->dim()));
}

Outcome mapFissionZip(const Site& s, const ParamValues&) { return splitZipping(s, false); }
Outcome mapFissionZipClosure(const Site& s, const ParamValues&) { return splitZipping(s, true); }

Outcome reduceMapFission(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || !m::isReduction(r->kind())) return fail("not a call of a reduction");
  auto* l = ir::asLambda(r->f);
  if (!l || l->params().size() != 2) return fail("the operator is not a lambda of two parameters (acc, x)");
  const ir::ParamNode* acc = l->params()[0].get();
  const ir::ParamNode* x = l->params()[1].get();
  auto* c = ir::asCall(l->body());
  if (!c) return fail("the body of the operator is not a call");
  if (m::mentions(c->fun(), x)) return fail("the function called in the operator uses the element");
  std::optional<size_t> split;
  for (size_t i = 0; i < c->args().size(); ++i) {
    const Expr& a = c->args()[i];
    if (!m::mentions(a, x)) continue;
    if (split) return fail("the element is used in several arguments of the operator's body");
    if (a.get() == x) return fail("the element is passed to the operator unchanged: nothing to split off");
    if (m::mentions(a, acc)) return fail("the part computed from the element also uses the accumulator");
    split = i;
  }
  if (!split) return fail("the operator does not use the element");
  PatternKind mapKind = r->kind() == PatternKind::Reduce ? PatternKind::Map : PatternKind::MapSeq;
  Fun newF = m::lambda2("acc", "y", [&](Expr a, Expr y) {
    std::unordered_map<const ir::ParamNode*, Expr> repl{{acc, a}};
    std::vector<Expr> args = c->args();
    for (size_t i = 0; i < args.size(); ++i) args[i] = i == *split ? y : ir::substitute(args[i], repl);
    // The called function may use the accumulator too (a lambda applied to the element's part).
    return m::call(ir::substitute(c->fun(), repl), std::move(args));
  });
  Fun g = ir::LambdaNode::make({l->params()[1]}, c->args()[*split]);
  return Outcome::ok(m::callReduce(r->kind(), newF, r->init, m::callMap(mapKind, g, r->input)));
}

// The path from `e` to the only use of p below it (empty when there is not exactly one).
bool pathToUse(const ir::NodeRef& n, const ir::ParamNode* p, std::vector<ir::NodeRef>& path, int& uses) {
  if (n.get() == p) {
    ++uses;
    return true;
  }
  bool found = false;
  path.push_back(n);
  for (auto& c : locationChildren(n)) {
    std::vector<ir::NodeRef> sub;
    if (pathToUse(c, p, sub, uses) && !found) {
      found = true;
      path.insert(path.end(), sub.begin(), sub.end());
    }
  }
  if (!found) path.pop_back();
  return found;
}

bool freeWithin(const Expr& e, const std::vector<ir::Param>& allowed) {
  for (auto& fp : ir::freeParams(e)) {
    bool ok = false;
    for (auto& a : allowed) ok = ok || a == fp;
    if (!ok) return false;
  }
  return true;
}

// map(fun(a => F[g(a)])) $ X  =>  map(fun(b => F[b])) $ map(fun(a => g(a))) $ X, where g(a) is the
// largest expression around the only use of a that uses nothing but a and the program's inputs.
Outcome mapHoist(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1) return fail("the function of the map is not a lambda of one parameter");
  const ir::Param& a = l->params()[0];
  std::vector<ir::NodeRef> path;
  int uses = 0;
  pathToUse(l->body(), a.get(), path, uses);
  if (uses != 1) return fail("the element is used {} times (hoisting needs exactly one use)", uses);
  // Only the element and the program's inputs: what depends on nothing else the body binds or
  // receives from enclosing functions.
  std::vector<ir::Param> allowed = s.program->main->params();
  allowed.push_back(a);
  // Walk up from the use: the highest expression that only uses the element and outer names.
  const ir::NodeRef* best = nullptr;
  for (size_t i = path.size(); i-- > 1;) {  // path[0] is the body itself: hoisting all of it is fission
    const ir::NodeRef& n = path[i];
    if (!n.isExpr()) continue;
    if (!freeWithin(n.expr(), allowed)) break;
    best = &n;
  }
  if (!best) return fail("no part of the body around the element's use can be computed on its own");
  Expr hoisted = best->expr();
  ir::Param b = ir::ParamNode::make(a->name() + "_h");
  class Replace : public ir::Mutator {
   public:
    Replace(const Expr& from, Expr to) : from_(from), to_(std::move(to)) {}
    using ir::Mutator::mutate;
    Expr mutate(const Expr& e) override { return e == from_ ? to_ : ir::Mutator::mutate(e); }

   private:
    const Expr& from_;
    Expr to_;
  };
  Expr newBody = Replace(hoisted, b).mutate(l->body());
  Fun outer = ir::LambdaNode::make({b}, newBody);
  Fun inner = ir::LambdaNode::make({a}, hoisted);
  return Outcome::ok(m::callMap(PatternKind::Map, outer, m::callMap(PatternKind::Map, inner, mc->input)));
}

// map(x => h(.., g(..), ..)) $ in  =>  (fun(y => map(x => h(.., y, ..)) $ in)) $ g(..), for the first
// argument g(..) of the body's call that computes something without the element.
Outcome extractFromMap(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1)
    return fail("the function of the {} is not a lambda of one parameter", patName(mc->kind()));
  auto* c = ir::asCall(l->body());
  if (!c) return fail("the body of the lambda is not a call");
  const ir::ParamNode* p = l->params()[0].get();
  for (size_t i = 0; i < c->args().size(); ++i) {
    const Expr& a = c->args()[i];
    if (!ir::asCall(a) || m::mentions(a, p)) continue;
    ir::Param y = ir::param("y");
    std::vector<Expr> args = c->args();
    args[i] = y;
    Fun f = ir::lambda({l->params()[0]}, m::call(c->fun(), std::move(args)));
    Fun outer = ir::lambda({y}, m::callMap(mc->kind(), f, mc->input, mc->dim()));
    return Outcome::ok(m::call(outer, {a}));
  }
  return fail("every argument of the body's call uses the element '{}' or computes nothing", p->name());
}

// map(x => F[f(x._i)]) $ zip(.., y, ..)  =>  map(z => F[z._i]) $ zip(.., map(f) $ y, ..), where
// f(x._i) is the only use of component i and f uses nothing the map's body binds.
Outcome mapFissionWithZipOutside(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  if (!m::callOf(mc->input, PatternKind::Zip))
    return fail("the input of the {} is not a zip", patName(mc->kind()));
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1)
    return fail("the function of the {} is not a lambda of one parameter", patName(mc->kind()));
  const ir::ParamNode* x = l->params()[0].get();
  if (!usedOnlyThroughGet(l->body(), x))
    return fail("the zipped element '{}' is not only used through its components (get)", x->name());
  const auto& zipArgs = ir::asCall(mc->input)->args();
  std::vector<int> uses = componentUses(l->body(), x, static_cast<int>(zipArgs.size()));
  std::vector<ir::Param> outer = ir::freeParams(s.expr());
  Expr found;
  int component = -1;
  ir::visitPreOrder(l->body(), [&](const ir::NodePath& path) {
    if (found) return false;
    const ir::NodeRef& n = path.back().node;
    auto* c = n.isExpr() ? ir::asCall(n.expr()) : nullptr;
    if (!c || c->args().size() != 1 || m::callOf(n.expr(), PatternKind::Get)) return true;
    auto* g = m::callOf(c->args()[0], PatternKind::Get);
    if (!g || ir::asParam(m::arg(c->args()[0], 0)) != x || g->index() >= static_cast<int>(uses.size()) ||
        uses[static_cast<size_t>(g->index())] != 1)
      return true;
    for (auto& fp : ir::freeParams(c->fun()))
      if (std::find(outer.begin(), outer.end(), fp) == outer.end()) return true;
    found = n.expr();
    component = g->index();
    return false;
  });
  if (!found)
    return fail(
        "no function is applied to a component of the element that is used only there and "
        "depends on nothing the body binds");
  ir::Param z = ir::param("z");
  class Replace : public ir::Mutator {
   public:
    Replace(const Expr& from, Expr to) : from_(from), to_(std::move(to)) {}
    using ir::Mutator::mutate;
    Expr mutate(const Expr& e) override { return e == from_ ? to_ : ir::Mutator::mutate(e); }

   private:
    const Expr& from_;
    Expr to_;
  };
  Expr body = Replace(found, m::callGet(component, z)).mutate(l->body());
  body = ir::substitute(body, {{x, z}});
  std::vector<Expr> newArgs = zipArgs;
  size_t k = static_cast<size_t>(component);
  newArgs[k] = m::callMap(mc->kind(), ir::asCall(found)->fun(), zipArgs[k], mc->dim());
  return Outcome::ok(
      m::callMap(mc->kind(), ir::lambda({z}, body), m::callZip(std::move(newArgs)), mc->dim()));
}

// tuple(f $ a, g $ b)  =>  (fun(p => tuple(f $ p._0, g $ p._1))) $ tuple(a, b)
Outcome tupleFission(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Tuple)) return fail("not a call of tuple");
  const auto& args = ir::asCall(s.expr())->args();
  std::vector<Expr> inner;
  for (size_t i = 0; i < args.size(); ++i) {
    auto* c = ir::asCall(args[i]);
    if (!c || c->args().size() != 1)
      return fail("component {} of the tuple is not a call of a function of one argument", i);
    inner.push_back(c->args()[0]);
  }
  Fun f = m::lambda1("p", [&](Expr p) {
    std::vector<Expr> parts;
    for (size_t i = 0; i < args.size(); ++i)
      parts.push_back(m::call(ir::asCall(args[i])->fun(), {m::callGet(static_cast<int>(i), p)}));
    return m::callTuple(std::move(parts));
  });
  return Outcome::ok(m::call(f, {m::callTuple(std::move(inner))}));
}

}  // namespace

void registerFissionRules(RuleRegistry& reg) {
  reg.add(
      makeRule("map-hoist", Family::Fission,
               "Compute the part of a map's body that only depends on the element in a map of its own first.",
               "map(a => F[g(a)])", "map(b => F[b]) o map(a => g(a))", {PatternKind::Map}, mapHoist,
               "mapFissionWithZipInside"));
  reg.add(makeRule("map-fission", Family::Fission, "Split a map of a composition into two maps (003 step 3).",
                   "map(f o g)", "map(f) o map(g)", mapKinds(), mapFission, "mapFission"));
  reg.add(makeRule(
      "map-fission-zip", Family::Fission,
      "Split a map whose outer part also uses the element, zipping the element with the inner result.",
      "map(x => f(g(x), x))", "map(q => f(q._1, q._0)) $ zip(xs, map(g) $ xs)", mapKinds(), mapFissionZip,
      "mapFissionCreateZip"));
  reg.add(
      makeRule("map-fission-zip-closure", Family::Fission,
               "map-fission-zip where the function called in the body uses the element too (gemv's epilogue "
               "reads the row's y).",
               "map(x => F_x(g(x)))", "map(q => F_q._0(q._1)) $ zip(xs, map(g) $ xs)", mapKinds(),
               mapFissionZipClosure));
  reg.add(makeRule("reduce-map-fission", Family::Fission,
                   "Split the per-element part out of a reduction's operator into a map (inverse of fusion).",
                   "reduce((acc, x) => f(acc, g(x)), z)", "reduce(f, z) o map(g)",
                   {PatternKind::Reduce, PatternKind::ReduceSeq, PatternKind::ReduceSeqUnroll},
                   reduceMapFission));
  reg.add(makeRule(
      "extract-from-map", Family::Fission,
      "Compute an argument of a map's body that does not depend on the element once, before the map.",
      "map(x => h(x, g(v))) $ in", "(fun(y => map(x => h(x, y)) $ in)) $ g(v)", mapKinds(), extractFromMap,
      "extractFromMap"));
  reg.add(makeRule("map-fission-zip-outside", Family::Fission,
                   "Map a function of one zipped component over that array before zipping it.",
                   "map(x => F[f(x._i)]) $ zip(.., y, ..)", "map(z => F[z._i]) $ zip(.., map(f) $ y, ..)",
                   mapKinds(), mapFissionWithZipOutside, "mapFissionWithZipOutside"));
  reg.add(makeRule(
      "tuple-fission", Family::Fission,
      "Build the tuple of the functions' arguments first, then apply each function to its component.",
      "tuple(f $ a, g $ b)", "(fun(p => tuple(f $ p._0, g $ p._1))) $ tuple(a, b)", {PatternKind::Tuple},
      tupleFission, "tupleFission"));
}

}  // namespace lift::rewrite
