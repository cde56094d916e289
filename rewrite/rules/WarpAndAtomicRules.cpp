// Lift's OpenCL rules for warp maps and atomic work distribution (issue 17; Lift OpenCLRules.scala
// mapWarp, mapLane, mapAtomWrg, mapAtomLcl), family opencl:
//   map-to-warp         map(f) => mapWarp(f)        in a work-group, f holding a map for mapLane
//   map-to-lane         map(f) => mapLane(f)        in a mapWarp
//   map-wrg-to-atomic   mapWrg(f) => mapAtomWrg(f)  the outermost map
//   map-lcl-to-atomic   mapLcl(f) => mapAtomLcl(f)  no map over work-items around or inside
// Where Lift's preconditions and this compiler's differ, the rule takes the stricter: Lift's
// mapWarp rule asks for no enclosing mapWrg, but Lift's code generator indexes warps by
// get_local_id and its own programs nest MapWarp in MapWrg, so here mapWarp belongs in a
// work-group; Lift's atomic rules have no precondition, but a global counter zeroed once per
// launch makes mapAtomWrg outermost, and a work-group's shared counter rules out nesting
// mapAtomLcl in another map over work-items (TypeCheck's nesting rules).
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// The kinds of parallel map that the warp and atomic maps must not contain or be nested in.
const std::initializer_list<PatternKind> kWorkItemMaps = {PatternKind::MapLcl, PatternKind::MapAtomLcl,
                                                          PatternKind::MapWarp, PatternKind::MapLane};

bool insideAny(const Site& s, std::initializer_list<PatternKind> kinds) {
  for (PatternKind k : kinds)
    if (s.insidePattern(k)) return true;
  return false;
}

// What stands in the way of the warp maps (workItemSequentialContext): a loop of the whole
// work-group (no map over work-items between it and the work-group map) is fine, as for mapLcl;
// an iterate counts as a loop, a scan as sequential code, and a loop inside a mapWarp, mapLcl or
// mapAtomLcl is one work-item's.
const WorkItemContextOptions kWarpMapContext{
    .workItemMaps = {PatternKind::MapWarp, PatternKind::MapLcl, PatternKind::MapAtomLcl},
    .iterateIsLoop = true,
    .scansAreSequential = true,
    .loopReason = "it is inside a sequential loop of one work-item"};

Outcome mapToWarp(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  if (!s.insidePattern(PatternKind::MapWrg) && !s.insidePattern(PatternKind::MapAtomWrg))
    return fail("mapWarp divides a work-group into warps: it must be nested inside a mapWrg");
  if (s.insidePattern(PatternKind::MapGlb)) return fail("warps cannot be mapped inside a global map");
  if (insideAny(s, kWorkItemMaps))
    return fail("it is inside a map over work-items (mapLcl, mapAtomLcl, mapWarp or mapLane)");
  if (std::string why = workItemSequentialContext(s, kWarpMapContext); !why.empty())
    return Outcome::fail(why);
  if (!containsPattern(mc->f, {PatternKind::Map}))
    return fail("the function has no map for the lanes of the warp (Lift's mapWarp rule asks for one)");
  if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapAtomWrg}) ||
      containsPattern(mc->f, kWorkItemMaps))
    return fail("the function contains parallel maps");
  return Outcome::ok(m::callMap(PatternKind::MapWarp, mc->f, mc->input));
}

Outcome mapToLane(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  if (!s.insidePattern(PatternKind::MapWarp)) return fail("mapLane must be nested inside a mapWarp");
  if (s.insidePattern(PatternKind::MapLane)) return fail("the lanes are already mapped by an outer mapLane");
  if (std::string why = workItemSequentialContext(s, kWarpMapContext); !why.empty())
    return Outcome::fail(why);
  if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapAtomWrg}) ||
      containsPattern(mc->f, kWorkItemMaps))
    return fail("the function contains parallel maps");
  return Outcome::ok(m::callMap(PatternKind::MapLane, mc->f, mc->input));
}

Outcome mapWrgToAtomic(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::MapWrg);
  if (!mc) return fail("not a call of mapWrg");
  for (const ir::NodeRef& a : s.ancestors) {
    auto* p = a.isExpr() ? nullptr : ir::asPattern(a.fun());
    if (p && (ir::isMapLike(p->pattern()) || ir::isReduceLike(p->pattern()) || ir::isScanLike(p->pattern()) ||
              p->pattern() == PatternKind::Iterate))
      return fail(
          "it is inside a {}: mapAtomWrg must be the outermost map, as its counter in global memory "
          "is zeroed once per launch",
          patName(p->pattern()));
  }
  return Outcome::ok(m::callMap(PatternKind::MapAtomWrg, mc->f, mc->input, mc->dim()));
}

Outcome mapLclToAtomic(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::MapLcl);
  if (!mc) return fail("not a call of mapLcl");
  if (insideAny(s, kWorkItemMaps))
    return fail(
        "it is inside a map over work-items: all the work-items of a work-group share mapAtomLcl's "
        "counter");
  if (containsPattern(mc->f, kWorkItemMaps))
    return fail(
        "the function contains a map over work-items, which cannot run inside mapAtomLcl (each "
        "work-item takes its own indices)");
  return Outcome::ok(m::callMap(PatternKind::MapAtomLcl, mc->f, mc->input, mc->dim()));
}

}  // namespace

void registerWarpAndAtomicRules(RuleRegistry& reg) {
  using K = PatternKind;
  reg.add(makeRule("map-to-warp", Family::OpenCL,
                   "Give the map's iterations to the warps of the work-group (NVIDIA, 32 work-items a "
                   "warp); its function's map goes to the warp's lanes (Lift's mapWarp).",
                   "map(f) (in a mapWrg)", "mapWarp(f)", {K::Map}, mapToWarp, "mapWarp"));
  reg.add(makeRule("map-to-lane", Family::OpenCL,
                   "Give the map's iterations to the lanes of the enclosing warp (Lift's mapLane).",
                   "map(f) (in a mapWarp)", "mapLane(f)", {K::Map}, mapToLane, "mapLane"));
  reg.add(makeRule("map-wrg-to-atomic", Family::OpenCL,
                   "Work-groups take the map's indices from an atomic counter in global memory until none "
                   "is left, instead of one fixed share each (Lift's mapAtomWrg, load balancing).",
                   "mapWrg<d>(f)", "mapAtomWrg<d>(f)", {K::MapWrg}, mapWrgToAtomic, "mapAtomWrg"));
  reg.add(makeRule("map-lcl-to-atomic", Family::OpenCL,
                   "The work-items of the work-group take the map's indices from an atomic counter in local "
                   "memory until none is left (Lift's mapAtomLcl, load balancing).",
                   "mapLcl<d>(f)", "mapAtomLcl<d>(f)", {K::MapLcl}, mapLclToAtomic, "mapAtomLcl"));
}

}  // namespace lift::rewrite
