// Macro rules (000 "Register Blocking as a Macro Rule", Lift ReuseRules.scala): optimisations
// made of many simple rules, each a strategy of rules at locations relative to the macro's
// site. They apply when every step applies; the reason they do not is the first failing step's.
//
//   register-blocking-1d(k)   the 8 steps of the 003 slides on map(a => map(b => reduce o map $ zip(a, b)))
//   register-blocking-2d(k,l) 1D blocking, then the columns blocked by l as well
//   tiling(x, y)              tile a map of maps into x-by-y tiles (Lift tileMapMap)
//   finish-tiling(k)          tile the innermost loop: a reduction becomes a reduction of chunk reductions
//   move-transpose-inside-tiling   tile(m, n) o transpose => map(map(transpose)) o transpose o tile(m, n)
//   dot-vectorisation(n)      vectorise a dot product and use the dot built-in (004 section 5.3)
//
// and Lift's MacroRules.scala, whose steps depend on the site:
//
//   interchange               swap a map with the map or reduction nested in it, by whichever
//                             interchange rule applies there, or after a map fission
//   userfun-composition-to-private   keep the results of user functions passed to a user function
//                             in private memory
//   map-composed-with-reduce-as-sequential   a map over a reduction's result runs sequentially
//   reshape-map-map(n)        a map of maps over rows of n elements instead (join-split, split-join)
#include <variant>

#include "rewrite/Engine.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

struct MacroStep {
  const char* rule;
  const char* at;                                           // relative location ("" = the site)
  std::vector<std::pair<std::string, std::string>> params;  // values or "$name" of a macro parameter
};

// The macro as a strategy: seq(at(LOC1, RULE1(params)), at(LOC2, RULE2(params)), ...) with the
// macro's parameters substituted.
Strategy macroStrategy(const ParamValues& pv, const RuleRegistry& reg, const std::vector<MacroStep>& steps) {
  std::vector<Strategy> parts;
  for (const MacroStep& m : steps) {
    ParamValues values;
    for (auto& [k, v] : m.params) values.set(k, v.size() > 1 && v[0] == '$' ? pv.text(v.substr(1)) : v);
    Strategy r = strategies::rule(reg.get(m.rule), values);
    parts.push_back(*m.at ? strategies::at(*Location::parse(m.at), r) : r);
  }
  return strategies::seq(std::move(parts));
}

Outcome runStrategyAt(const Site& s, const Strategy& strategy) {
  if (!s.typed) return fail("macro rules need the whole program");
  StrategyResult r = runStrategy(strategy, *s.typed, s.loc);
  if (!r) return Outcome::fail(r.reason);
  Resolved at = resolve(r.state->program().main, s.loc);
  LIFT_ASSERT(at, "macro rule lost its location");
  return at.node.isExpr() ? Outcome::ok(at.node.expr()) : Outcome::ok(at.node.fun());
}

Outcome runMacro(const Site& s, const ParamValues& pv, const RuleRegistry& reg,
                 const std::vector<MacroStep>& steps) {
  return runStrategyAt(s, macroStrategy(pv, reg, steps));
}

// A macro whose strategy depends on the site: `build` makes it, or says why the macro does not apply.
using SiteStrategy = std::function<std::variant<Strategy, Outcome>(const Site&, const ParamValues&)>;

Rule siteMacro(std::string name, std::string desc, std::string lhs, std::string rhs,
               std::vector<PatternKind> roots, SiteStrategy build, std::string lift) {
  Rule r = makeRule(
      std::move(name), Family::Macro, std::move(desc), std::move(lhs), std::move(rhs), std::move(roots),
      [build](const Site& s, const ParamValues& pv) {
        auto v = build(s, pv);
        if (auto* o = std::get_if<Outcome>(&v)) return *o;
        return runStrategyAt(s, std::get<Strategy>(v));
      },
      std::move(lift));
  r.macro = true;
  return r;
}

// The interchange rules, in the order Lift's mapMapInterchange and moveReduceOutOneLevel try them.
Strategy interchangeVariants(const RuleRegistry& reg) {
  Strategy s;
  for (const char* name : {"map-map-transpose-zip", "map-map-transpose-zip-outside", "map-map-interchange",
                           "map-reduce-partial-reduce", "map-reduce-interchange-zip",
                           "map-reduce-interchange", "map-map-transpose"}) {
    Strategy r = strategies::rule(reg.get(name));
    s = s ? strategies::leftChoice(s, r) : r;
  }
  return s;
}

std::variant<Strategy, Outcome> interchange(const RuleRegistry& reg, const Site& s) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  if (!containsPattern(mc->f,
                       {PatternKind::Map, PatternKind::Reduce, PatternKind::ReduceSeq, PatternKind::PartRed}))
    return fail("the map's function holds no map or reduction to interchange with");
  Strategy v = interchangeVariants(reg);
  // After fission the nested map or reduction is the inner map's function, at the argument.
  Strategy fissioned = strategies::seq(strategies::rule(reg.get("map-fission")), strategies::argument(0, v));
  return strategies::leftChoice(v, fissioned);
}

std::variant<Strategy, Outcome> userFunCompositionToPrivate(const RuleRegistry& reg, const Site& s) {
  auto* c = ir::asCall(s.expr());
  if (!c) return fail("not a call");
  bool userFun = ir::asUserFun(c->fun()) != nullptr;
  for (PatternKind k : {PatternKind::ToGlobal, PatternKind::ToLocal, PatternKind::ToPrivate})
    if (auto* p = functionAsPattern(c->fun(), k)) userFun = userFun || ir::asUserFun(p->f());
  if (!userFun) return fail("not a call of a user function (or of one written to an address space)");
  std::vector<Strategy> steps;
  for (size_t i = 0; i < c->args().size(); ++i) {
    auto* a = ir::asCall(c->args()[i]);
    if (a && ir::asUserFun(a->fun()))
      steps.push_back(strategies::argument(static_cast<int>(i), strategies::rule(reg.get("to-private"))));
  }
  if (steps.empty()) return fail("no argument of the user function is computed by a user function");
  return strategies::seq(std::move(steps));
}

std::variant<Strategy, Outcome> mapComposedWithReduceAsSequential(const RuleRegistry& reg, const Site& s) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  auto r = m::reduceCall(mc->input);
  if (!r) return fail("the input of the map is not computed by a reduction");
  return strategies::rule(reg.get("map-to-seq"));
}

Rule macro(const RuleRegistry& reg, std::string name, std::string desc, std::string lhs, std::string rhs,
           std::vector<PatternKind> roots, std::vector<ParamSpec> params, std::vector<MacroStep> steps,
           std::string lift = "new") {
  const RuleRegistry* rp = &reg;
  Rule r = makeRule(
      std::move(name), Family::Macro, std::move(desc), std::move(lhs), std::move(rhs), std::move(roots),
      [rp, steps](const Site& s, const ParamValues& pv) { return runMacro(s, pv, *rp, steps); },
      std::move(lift));
  r.params = std::move(params);
  r.macro = true;
  return r;
}

// The 8 steps of 1D register blocking from the outer map (003 slides), I = the inner map.
std::vector<MacroStep> blocking1D() {
  return {
      {"split-join", "", {{"n", "$k"}}},                  // 1. Map(f) => Join o Map(Map(f)) o Split(k)
      {"map-map-interchange", "1.0.0.0", {}},             // 2. swap the new map with the inner one
      {"map-fission", "1.0.0.0.1.0.0.0", {}},             // 3. Map(f o g) => Map(f) o Map(g)
      {"map-reduce-interchange", "1.0.0.0.1.0.0.0", {}},  // 4. Map(Reduce(f)) => T o Reduce(Map(f) o Zip) o T
      {"map-map-transpose-zip", "1.0.0.0.1.0.0.0.1.2.1", {}},  // 5. Map(Map(f)) => T o Map(Map(f)) o T
      {"transpose-transpose-id", "1.0.0.0.1.0.0.0.1.2", {}},   // 6. T o T => id
      {"reduce-map-fusion", "1.0.0.0.1.0.0.0.1", {}},          // 7. Reduce(f) o Map(g) => Reduce(f o g)
      {"map-fusion-zip", "1.0.0.0.1.0.0.0.1.0.0.0", {}},       // 8. Map(f) o Map(g) => Map(f o g)
  };
}

}  // namespace

void registerMacroRules(RuleRegistry& reg) {
  using K = PatternKind;
  ParamSpec k{"k", ParamKind::Factor, "rows of A per thread (block factor)", "4", {}};
  reg.add(macro(reg, "register-blocking-1d",
                "Register blocking: each thread computes k rows, reusing each element of the other operand "
                "(003 slides).",
                "map(a => map(b => reduce(+) o map(*) $ zip(a, b)) $ B) $ A",
                "join o map(as => transpose o map(b => transpose o reduce(acc, p => ...) $ "
                "zip(transpose(as), b)) $ B) o split(k) $ A",
                {K::Map}, {k}, blocking1D(), "apply1DRegisterBlocking"));

  std::vector<MacroStep> twoD = blocking1D();
  std::vector<MacroStep> more = {
      {"split-join", "1.0.0.0.1", {{"n", "$l"}}},  // block the columns by l
      {"map-fission", "1.0.0.0.1.1.0.0.0", {}},    // map(transpose o reduce) => map(transpose) o map(reduce)
      {"map-fission", "1.0.0.0.1.1.0.0.0.1", {}},  // map(reduce o zip) => map(reduce) o map(zip)
      {"map-reduce-interchange", "1.0.0.0.1.1.0.0.0.1", {}},  // reduce all l columns at once
  };
  twoD.insert(twoD.end(), more.begin(), more.end());
  reg.add(macro(reg, "register-blocking-2d",
                "2D register blocking: each thread computes a k x l block of the result in private memory.",
                "map(a => map(b => reduce(+) o map(*) $ zip(a, b)) $ B) $ A",
                "... reduce over k x l accumulators (1D blocking of the rows, then of the columns)", {K::Map},
                {k, {"l", ParamKind::Factor, "columns of B per thread", "4", {}}}, twoD,
                "apply2DRegisterBlocking, apply2DRegisterBlockingNoReorder"));

  reg.add(macro(
      reg, "tiling", "Tile a map of maps into x-by-y tiles (Lift tileMapMap).",
      "map(a => map(b => f(a, b)) $ B) $ A",
      "join o map(as => transpose o join o map(bs => transpose o map(a => map(b => f(a, b)) $ bs) $ as) o "
      "split(y) $ B) o split(x) $ A",
      {K::Map},
      {{"x", ParamKind::Factor, "tile rows", "4", {}}, {"y", ParamKind::Factor, "tile columns", "4", {}}},
      {
          {"split-join", "", {{"n", "$x"}}},
          {"map-map-interchange", "1.0.0.0", {}},
          {"split-join", "1.0.0.0.1", {{"n", "$y"}}},
          {"map-map-interchange", "1.0.0.0.1.1.0.0.0", {}},
      },
      "tileMapMap"));

  reg.add(macro(reg, "finish-tiling",
                "Tile the innermost loop: a reduction becomes a reduction of the reductions of chunks of k.",
                "reduce(f, z)", "reduce(f, z) o join o map(reduce(f, z)) o split(k)", {K::Reduce},
                {{"k", ParamKind::Factor, "chunk length", "4", {}}},
                {
                    {"reduce-partial", "", {{"m", "$k"}}},
                    {"partred-split-join", "2", {{"k", "$k"}}},
                    {"partred-to-reduce", "2.1.0.0.0", {}},
                },
                "finishTiling"));

  reg.add(macro(
      reg, "move-transpose-inside-tiling",
      "Tile the transposed matrix by transposing the tiles of the matrix (Lift moveTransposeInsideTiling).",
      "map(split(n) o transpose) o split(m) o transpose",
      "transpose o map(transpose) o split(n) o map(split(m))", {K::Map}, {},
      {
          {"split-transpose", "1", {}},
          {"map-fusion", "", {}},
          {"transpose-transpose-id", "0.0.0.1", {}},
          {"map-split-transpose", "", {}},
      },
      "moveTransposeInsideTiling"));

  reg.add(macro(reg, "dot-vectorisation",
                "Vectorise a dot product and compute it with the dot built-in (004 section 5.3).",
                "reduce(add, z) o map(mult) $ zip(a, b)",
                "reduce(add, z) o map(p => dot(p._0, p._1)) $ zip(asVector(n, a), asVector(n, b))",
                {K::Reduce, K::ReduceSeq}, {{"n", ParamKind::Width, "vector width", "4", {"2", "3", "4"}}},
                {
                    {"vectorize-map-zip", "2", {{"n", "$n"}}},
                    {"dot-builtin", "", {}},
                }));

  const RuleRegistry* rp = &reg;
  reg.add(siteMacro(
      "interchange",
      "Swap a map with the map or reduction nested in it by the interchange rule that applies, "
      "fissioning the map first where needed.",
      "map(a => F[map(g) $ B or reduce(g, z)])",
      "transpose o map(b => ... ) o ... (the first interchange that applies)", {K::Map},
      [rp](const Site& s, const ParamValues&) { return interchange(*rp, s); }, "interchange"));
  reg.add(siteMacro(
      "userfun-composition-to-private",
      "Keep the results of user functions passed to a user function in private memory.", "f(g(x), h(y))",
      "f(toPrivate(g)(x), toPrivate(h)(y))", {},
      [rp](const Site& s, const ParamValues&) { return userFunCompositionToPrivate(*rp, s); },
      "userFunCompositionToPrivate"));
  reg.add(siteMacro(
      "map-composed-with-reduce-as-sequential",
      "Run a map over the result of a reduction as a sequential loop.", "map(f) o reduce(g, z)",
      "mapSeq(f) o reduce(g, z)", {K::Map},
      [rp](const Site& s, const ParamValues&) { return mapComposedWithReduceAsSequential(*rp, s); },
      "mapComposedWithReduceAsSequential"));
  reg.add(macro(reg, "reshape-map-map",
                "Iterate over a map of maps as rows of n elements: join the rows, then split them by n.",
                "map(map(f)) $ x", "split(m) o join o map(map(f)) o split(n) o join $ x", {K::Map},
                {{"n", ParamKind::Factor, "row length of the reshaped iteration", "4", {}}},
                {
                    {"join-split", "", {}},
                    {"split-join", "1", {{"n", "$n"}}},
                },
                "reshapeMapMap"));
}

}  // namespace lift::rewrite
