// Fusion rules: two patterns become one and the intermediate array disappears (map fusion,
// fusion through zip, reduce-map fusion as in the 003 slides' step 7 and 000 Figure 5.7g).
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

constexpr PatternKind kMaps[] = {PatternKind::Map,    PatternKind::MapSeq, PatternKind::MapSeqUnroll,
                                 PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl};

std::vector<PatternKind> mapKinds() { return {std::begin(kMaps), std::end(kMaps)}; }

Outcome mapFusion(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr());
  if (!outer) return fail("not a call of a map");
  auto inner = m::mapCall(outer->input);
  if (!inner) return fail("the input of the {} is not computed by a map", patName(outer->kind()));
  if (inner->kind() != outer->kind() || inner->dim() != outer->dim())
    return fail("the maps are of different kinds ({} of {}); only maps of the same kind fuse",
                patName(outer->kind()), patName(inner->kind()));
  return Outcome::ok(m::callMap(outer->kind(), m::compose(outer->f, inner->f), inner->input, outer->dim()));
}

Outcome mapFusionZip(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr());
  if (!outer) return fail("not a call of a map");
  if (!m::callOf(outer->input, PatternKind::Zip))
    return fail("the input of the {} is not a zip", patName(outer->kind()));
  auto* zip = ir::asCall(outer->input);
  std::vector<std::optional<m::MapCall>> inners;
  bool any = false;
  for (auto& a : zip->args()) {
    auto mc = m::mapCall(a);
    if (mc && (mc->kind() != outer->kind() || mc->dim() != outer->dim())) mc.reset();
    any = any || mc.has_value();
    inners.push_back(mc);
  }
  if (!any) return fail("none of the zipped arrays is computed by a {}", patName(outer->kind()));
  std::vector<Expr> newArgs;
  for (size_t i = 0; i < inners.size(); ++i) newArgs.push_back(inners[i] ? inners[i]->input : zip->args()[i]);
  Fun f = m::lambda1("p", [&](Expr p) {
    std::vector<Expr> comps;
    for (size_t i = 0; i < inners.size(); ++i) {
      Expr g = m::callGet(static_cast<int>(i), p);
      comps.push_back(inners[i] ? m::apply(inners[i]->f, {g}) : g);
    }
    return applyToTuple(outer->f, std::move(comps));
  });
  return Outcome::ok(m::callMap(outer->kind(), f, m::callZip(std::move(newArgs)), outer->dim()));
}

Outcome reduceMapFusion(const Site& s, PatternKind reduceKind, std::initializer_list<PatternKind> mapKinds) {
  auto r = m::reduceCall(s.expr(), reduceKind);
  if (!r) return fail("not a call of {}", patName(reduceKind));
  auto mc = m::mapCall(r->input);
  bool kindOk = false;
  for (auto k : mapKinds) kindOk = kindOk || (mc && mc->kind() == k);
  if (!kindOk) {
    std::string kinds;
    for (auto k : mapKinds) kinds += (kinds.empty() ? "" : " or ") + patName(k);
    return fail("the input of the {} is not computed by {}", patName(reduceKind), kinds);
  }
  Fun f = m::lambda2("acc", "x", [&](Expr acc, Expr x) {
    return m::apply(r->f, {acc, m::apply(mc->f, {x})});
  });
  return Outcome::ok(m::callReduce(reduceKind, f, r->init, mc->input));
}

}  // namespace

void registerFusionRules(RuleRegistry& reg) {
  reg.add(makeRule("map-fusion", Family::Fusion,
                   "Fuse two maps of the same kind into one map of the composition.", "map(f) o map(g)",
                   "map(f o g)", mapKinds(), mapFusion));
  reg.add(makeRule("map-fusion-zip", Family::Fusion,
                   "Fuse maps computing zipped arrays into the map over the zip (fusion through zip).",
                   "map(f) $ zip(map(g) $ a, b)", "map(p => f(g(p._0), p._1)) $ zip(a, b)", mapKinds(),
                   mapFusionZip));
  reg.add(makeRule(
      "reduce-map-fusion", Family::Fusion,
      "Fuse a map into the reduction that consumes it (the reduction becomes sequential in meaning).",
      "reduce(f, z) o map(g)", "reduce((acc, x) => f(acc, g(x)), z)", {PatternKind::Reduce},
      [](const Site& s, const ParamValues&) {
        return reduceMapFusion(s, PatternKind::Reduce, {PatternKind::Map});
      }));
  reg.add(makeRule(
      "reduce-seq-map-fusion", Family::Fusion,
      "Fuse a sequential map into the sequential reduction that consumes it (no intermediate array).",
      "reduceSeq(f, z) o mapSeq(g)", "reduceSeq((acc, x) => f(acc, g(x)), z)", {PatternKind::ReduceSeq},
      [](const Site& s, const ParamValues&) {
        return reduceMapFusion(s, PatternKind::ReduceSeq, {PatternKind::MapSeq, PatternKind::Map});
      }));
}

}  // namespace lift::rewrite
