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

Outcome runMacro(const Site& s, const ParamValues& pv, const RuleRegistry& reg,
                 const std::vector<MacroStep>& steps) {
  if (!s.typed) return fail("macro rules need the whole program");
  StrategyResult r = runStrategy(macroStrategy(pv, reg, steps), *s.typed, s.loc);
  if (!r) return Outcome::fail(r.reason);
  Resolved at = resolve(r.state->program().main, s.loc);
  LIFT_ASSERT(at, "macro rule lost its location");
  return at.node.isExpr() ? Outcome::ok(at.node.expr()) : Outcome::ok(at.node.fun());
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
}

}  // namespace lift::rewrite
