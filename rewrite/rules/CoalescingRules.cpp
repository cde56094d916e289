// Coalescing rules (002 "Memory Coalescing"): make a map read its input in strided order and
// write the results back in the original order, so that neighbouring threads touch
// neighbouring memory when each thread processes several elements.
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome reorderBothSides(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  arith::Expr len = lengthAt(s, mc->input);
  arith::Expr st = pv.factor("s", *s.program);
  if (!len || !arith::provablyDivisible(len, st))
    return fail("the stride {} does not provably divide the length {}", str(st), len ? str(len) : "?");
  ir::IndexFun f = ir::strideIndex(st);
  Expr gathered = m::call(ir::gather(f), {mc->input});
  return Outcome::ok(m::call(ir::scatter(f), {m::call(mc->fun, {gathered})}));
}

Outcome gatherToReorderStride(const Site& s, const ParamValues&) {
  auto* g = m::callOf(s.expr(), PatternKind::Gather);
  if (!g) return fail("not a call of gather");
  if (g->params().indexFun.kind != ir::IndexFun::Kind::ReorderStride)
    return fail("the index function is not reorderStride");
  return Outcome::ok(m::call(ir::reorderStride(g->params().indexFun.a), {m::arg(s.expr(), 0)}));
}

}  // namespace

void registerCoalescingRules(RuleRegistry& reg) {
  Rule r = makeRule(
      "reorder-both-sides", Family::Coalescing,
      "Read the map's input with a stride and write its output back in order (coalescing).", "map(f)",
      "scatter(reorderStride(s)) o map(f) o gather(reorderStride(s))",
      {PatternKind::Map, PatternKind::MapSeq, PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl},
      reorderBothSides, "reorderBothSidesWithStride");
  r.params = {{"s", ParamKind::Factor, "stride", "2", {}}};
  r.candidates = [](const Site& s) {
    auto mc = m::mapCall(s.expr());
    return mc ? factorCandidates("s", lengthAt(s, mc->input), 2) : std::vector<ParamValues>{};
  };
  reg.add(std::move(r));
  reg.add(makeRule("gather-reorder-stride", Family::Coalescing,
                   "Write a strided gather as the OpenCL reorderStride pattern.", "gather(reorderStride(s))",
                   "reorderStride(s)", {PatternKind::Gather}, gatherToReorderStride));
}

}  // namespace lift::rewrite
