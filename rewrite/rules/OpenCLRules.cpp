// OpenCL rules (000 "OpenCL rewrite rules", Lift OpenCLRules.scala): map becomes mapGlb, mapWrg,
// mapLcl or mapSeq in a dimension, reduce becomes reduceSeq, loops may be unrolled, and results
// are placed in global, local or private memory. The preconditions keep the OpenCL thread
// hierarchy: mapLcl only inside a mapWrg of its dimension, no work-group or local map inside a
// global map (or the reverse), each dimension mapped once on a path, and no parallel map inside
// a sequential loop or a reduction's operator.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// Why a mapLcl may not run at the site because of sequential code around it; "" if it may. A
// sequential loop of the whole work-group — a reduceSeq or mapSeq between the mapWrg and the site
// that no mapLcl encloses — is fine: every thread of the work-group runs it the same number of
// times (the loop over the K tiles of a tiled matmul, Lift's MapLcl inside ReduceSeq). Sequential
// code inside a local thread, and the operators of unlowered reductions, are not.
std::string localSequentialContext(const Site& s) {
  bool inLoop = false;
  for (size_t i = s.ancestors.size(); i-- > 0;) {
    auto* p = s.ancestors[i].fun ? ir::asPattern(s.ancestors[i].fun) : nullptr;
    if (!p) continue;
    PatternKind k = p->pattern();
    if (k == PatternKind::MapWrg) return "";
    if (k == PatternKind::MapSeq || k == PatternKind::MapSeqUnroll || k == PatternKind::ReduceSeq ||
        k == PatternKind::ReduceSeqUnroll) {
      inLoop = true;
    } else if (k == PatternKind::Reduce || k == PatternKind::PartRed || k == PatternKind::MapVec) {
      return fmt::format("it is inside a {} (parallel maps cannot be nested in sequential code)", patName(k));
    } else if (k == PatternKind::MapLcl && inLoop) {
      return "it is inside a sequential loop of one local thread (only loops of the whole work-group may "
             "contain local maps)";
    }
  }
  return "";
}

Outcome lowerMap(const Site& s, const ParamValues& pv, PatternKind to) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  int d = pv.has("dim") ? static_cast<int>(pv.integer("dim")) : 0;
  if (to == PatternKind::MapSeq) {
    if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
      return fail("the function contains parallel maps, which cannot run inside a sequential loop");
    return Outcome::ok(m::callMap(PatternKind::MapSeq, mc->f, mc->input));
  }
  std::string why = to == PatternKind::MapLcl ? localSequentialContext(s) : sequentialContext(s);
  if (!why.empty()) return Outcome::fail(why);
  switch (to) {
    case PatternKind::MapGlb:
      if (s.insidePattern(PatternKind::MapWrg) || s.insidePattern(PatternKind::MapLcl))
        return fail("global maps cannot be nested in work-group or local maps");
      if (s.insidePattern(PatternKind::MapGlb, d))
        return fail("dimension {} is already mapped by an outer mapGlb", d);
      if (containsPattern(mc->f, {PatternKind::MapWrg, PatternKind::MapLcl}))
        return fail("the function contains work-group or local maps");
      if (containsPattern(mc->f, {PatternKind::MapGlb}, d))
        return fail("the function already maps dimension {} globally", d);
      break;
    case PatternKind::MapWrg:
      if (s.insidePattern(PatternKind::MapGlb))
        return fail("work-group maps cannot be nested in global maps");
      if (s.insidePattern(PatternKind::MapLcl))
        return fail("work-group maps must enclose local maps, not the reverse");
      if (s.insidePattern(PatternKind::MapWrg, d))
        return fail("dimension {} is already mapped by an outer mapWrg", d);
      if (containsPattern(mc->f, {PatternKind::MapGlb})) return fail("the function contains global maps");
      if (containsPattern(mc->f, {PatternKind::MapWrg}, d))
        return fail("the function already maps dimension {} to work-groups", d);
      break;
    case PatternKind::MapLcl:
      if (!s.insidePattern(PatternKind::MapWrg, d))
        return fail("a mapLcl{} must be nested inside a mapWrg{}", d, d);
      if (s.insidePattern(PatternKind::MapLcl, d))
        return fail("dimension {} is already mapped by an outer mapLcl", d);
      if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg}))
        return fail("the function contains global or work-group maps");
      if (containsPattern(mc->f, {PatternKind::MapLcl}, d))
        return fail("the function already maps dimension {} locally", d);
      break;
    default:
      break;
  }
  return Outcome::ok(m::callMap(to, mc->f, mc->input, d));
}

std::vector<ParamValues> dims() { return {{{"dim", "0"}}, {{"dim", "1"}}, {{"dim", "2"}}}; }

Outcome reduceToSeq(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr(), PatternKind::Reduce);
  if (!r) return fail("not a call of reduce");
  if (containsPattern(r->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
    return fail("the operator contains parallel maps, which cannot run inside a sequential loop");
  return Outcome::ok(m::callReduce(PatternKind::ReduceSeq, r->f, r->init, r->input));
}

Outcome unroll(const Site& s, PatternKind from, PatternKind to) {
  auto* c = ir::asCall(s.expr());
  auto* p = m::callOf(s.expr(), from);
  if (!p) return fail("not a call of {}", patName(from));
  const Expr& in = c->args().back();
  arith::Expr len = lengthAt(s, in);
  if (!len || !len.isCst()) return fail("the loop length {} is not a constant", len ? str(len) : "?");
  if (len.value() > 64)
    return fail("the loop is too long to unroll ({} iterations, at most 64)", len.value());
  return Outcome::ok(m::call(m::withKind(*p, to), c->args()));
}

Outcome addressSpace(const Site& s, PatternKind space) {
  auto* c = ir::asCall(s.expr());
  if (!c) return fail("not a call");
  auto* p = ir::asPattern(c->fun());
  bool isUserFun = ir::asUserFun(c->fun()) != nullptr;
  bool isLoweredMap = p && ir::isMapLike(p->pattern()) && p->pattern() != PatternKind::Map &&
                      p->pattern() != PatternKind::MapVec;
  switch (space) {
    case PatternKind::ToGlobal:
      if (!isLoweredMap && !isUserFun) return fail("toGlobal wraps an OpenCL map or a user function call");
      break;
    case PatternKind::ToLocal:
      if (!isLoweredMap && !isUserFun) return fail("toLocal wraps an OpenCL map or a user function call");
      if (!s.insidePattern(PatternKind::MapWrg)) return fail("local memory is only used inside a mapWrg");
      break;
    case PatternKind::ToPrivate:
      if (!(p && m::isSequentialMap(p->pattern())) && !isUserFun)
        return fail("toPrivate wraps a mapSeq or a user function call");
      if (!s.insideParallelMap()) return fail("private memory is only used inside a parallel map");
      break;
    default:
      break;
  }
  return Outcome::ok(wrapCall(space, *c));
}

}  // namespace

void registerOpenCLRules(RuleRegistry& reg) {
  using K = PatternKind;
  auto dimRule = [&](const char* name, const char* desc, const char* rhs, K to) {
    Rule r = makeRule(name, Family::OpenCL, desc, "map(f)", rhs, {K::Map},
                      [to](const Site& s, const ParamValues& pv) { return lowerMap(s, pv, to); });
    r.params = {{"dim", ParamKind::Dim, "OpenCL dimension", "0", {}}};
    r.candidates = [](const Site&) { return dims(); };
    reg.add(std::move(r));
  };
  dimRule("map-to-glb", "Run the map's iterations in parallel on global threads of a dimension.",
          "mapGlb<dim>(f)", K::MapGlb);
  dimRule("map-to-wrg", "Give the map's iterations to work-groups of a dimension.", "mapWrg<dim>(f)",
          K::MapWrg);
  dimRule("map-to-lcl", "Give the map's iterations to the local threads of the enclosing work-group.",
          "mapLcl<dim>(f)", K::MapLcl);
  reg.add(makeRule("map-to-seq", Family::OpenCL, "Run the map as a sequential loop.", "map(f)", "mapSeq(f)",
                   {K::Map},
                   [](const Site& s, const ParamValues& pv) { return lowerMap(s, pv, K::MapSeq); }));
  reg.add(makeRule("reduce-to-seq", Family::OpenCL, "Run the reduction as a sequential loop.", "reduce(f, z)",
                   "reduceSeq(f, z)", {K::Reduce}, reduceToSeq));
  reg.add(makeRule("map-seq-unroll", Family::OpenCL, "Unroll a sequential map of constant length.",
                   "mapSeq(f)", "mapSeqUnroll(f)", {K::MapSeq},
                   [](const Site& s, const ParamValues&) { return unroll(s, K::MapSeq, K::MapSeqUnroll); }));
  reg.add(makeRule(
      "reduce-seq-unroll", Family::OpenCL, "Unroll a sequential reduction of constant length.",
      "reduceSeq(f, z)", "reduceSeqUnroll(f, z)", {K::ReduceSeq},
      [](const Site& s, const ParamValues&) { return unroll(s, K::ReduceSeq, K::ReduceSeqUnroll); }));
  reg.add(makeRule("to-global", Family::OpenCL,
                   "Write the result of an OpenCL map or a user function to global memory.", "mapX(f)",
                   "toGlobal(mapX(f))", {},
                   [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToGlobal); }));
  reg.add(makeRule("to-local", Family::OpenCL, "Write the result to the work-group's local memory.",
                   "mapX(f)", "toLocal(mapX(f))", {},
                   [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToLocal); }));
  reg.add(makeRule("to-private", Family::OpenCL, "Keep the result in the thread's private memory.",
                   "mapSeq(f)", "toPrivate(mapSeq(f))", {},
                   [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToPrivate); }));
}

}  // namespace lift::rewrite
