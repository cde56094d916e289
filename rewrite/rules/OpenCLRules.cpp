// OpenCL rules (000 "OpenCL rewrite rules", Lift OpenCLRules.scala): map becomes mapGlb, mapWrg,
// mapLcl or mapSeq in a dimension, reduce becomes reduceSeq, loops may be unrolled, and results
// are placed in global, local or private memory. The preconditions keep the OpenCL thread
// hierarchy: mapLcl only inside a mapWrg of its dimension, no work-group or local map inside a
// global map (or the reverse), each dimension mapped once on a path, and no parallel map inside
// a sequential loop or a reduction's operator.
//
// reduce-to-tree is the work-group reduction (000 Listing 5.8, 002 Listing 1, and the shape of
// the GPU libraries' reductions) as one lowering rule: a reduction inside a mapWrg becomes L
// work-items, each reducing every L-th element of the input in private memory (so neighbouring
// work-items read neighbouring addresses), then a tree of log2(L) rounds in local memory, each
// work-item adding two partial results. A map that computes the reduction's input is fused into
// the first round. The result stays in local memory; the code generator writes the last round
// straight to its consumer. It is the composition of reduce-reorder, reduce-partial,
// partred-map-reduce, partred-iterate, reduce-single, map-to-lcl, reduce-to-seq and to-local,
// in one step so that the explorer can tune L.
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// What stands in the way of a mapLcl (workItemSequentialContext): a sequential loop of the whole
// work-group — a reduceSeq or mapSeq between the mapWrg and the site that no mapLcl encloses — is
// fine: every thread of the work-group runs it the same number of times (the loop over the K
// tiles of a tiled matmul, Lift's MapLcl inside ReduceSeq). Sequential code inside a local thread,
// and the operators of unlowered reductions, are not.
const WorkItemContextOptions kLocalMapContext{
    .workItemMaps = {PatternKind::MapLcl},
    .loopReason =
        "it is inside a sequential loop of one local thread (only loops of the whole work-group may "
        "contain local maps)"};

// ----- issue 17 (lift17w): the warp and atomic maps' nesting (TypeCheck) for the lowering rules
// Why `map(f)` at the site may not become a map of kind `to` in dimension d because of a mapWarp,
// mapLane, mapAtomWrg or mapAtomLcl around it or in f ("" if nothing stands in the way).
std::string warpOrAtomicConflict(const Site& s, const Fun& f, PatternKind to, int d) {
  using K = PatternKind;
  bool inWorkItems =
      s.insidePattern(K::MapAtomLcl) || s.insidePattern(K::MapWarp) || s.insidePattern(K::MapLane);
  switch (to) {
    case K::MapGlb:
      if (s.insidePattern(K::MapAtomWrg) || inWorkItems)
        return "global maps cannot be nested in work-group or local maps";
      if (containsPattern(f, {K::MapAtomWrg, K::MapAtomLcl, K::MapWarp, K::MapLane}))
        return "the function contains work-group or local maps";
      return "";
    case K::MapWrg:
      if (inWorkItems) return "work-group maps must enclose local maps, not the reverse";
      if (s.insidePattern(K::MapAtomWrg, d))
        return fmt::format("dimension {} is already mapped by an outer mapAtomWrg", d);
      if (containsPattern(f, {K::MapAtomWrg}))
        return "the function contains a mapAtomWrg, which must be the outermost map";
      return "";
    case K::MapLcl:
      if (inWorkItems)
        return "it is inside a mapAtomLcl, mapWarp or mapLane, which no local map can be nested in";
      if (containsPattern(f, {K::MapAtomWrg, K::MapAtomLcl, K::MapWarp, K::MapLane}))
        return "the function contains a mapAtomWrg, mapAtomLcl, mapWarp or mapLane, which cannot be nested "
               "in a local map";
      return "";
    default:
      return containsPattern(f, {K::MapAtomWrg, K::MapAtomLcl, K::MapWarp, K::MapLane})
                 ? "the function contains parallel maps, which cannot run inside a sequential loop"
                 : "";
  }
}
// ----- end issue 17 (lift17w)

Outcome lowerMap(const Site& s, const ParamValues& pv, PatternKind to) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  int d = pv.has("dim") ? static_cast<int>(pv.integer("dim")) : 0;
  if (std::string why = warpOrAtomicConflict(s, mc->f, to, d); !why.empty()) return Outcome::fail(why);
  if (to == PatternKind::MapSeq) {
    if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
      return fail("the function contains parallel maps, which cannot run inside a sequential loop");
    return Outcome::ok(m::callMap(PatternKind::MapSeq, mc->f, mc->input));
  }
  std::string why =
      to == PatternKind::MapLcl ? workItemSequentialContext(s, kLocalMapContext) : sequentialContext(s);
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
      if (!s.insidePattern(PatternKind::MapWrg, d) && !s.insidePattern(PatternKind::MapAtomWrg, d))
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
  if (containsPattern(r->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}) ||
      !warpOrAtomicConflict(s, r->f, PatternKind::ReduceSeq, 0).empty())
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
      // A mapLcl inside a mapWrg: each work-item keeps its own part (the code generator splits
      // the value over the work-items, e.g. a register-blocked accumulator).
      if (p && p->pattern() == PatternKind::MapLcl) {
        if (!s.insidePattern(PatternKind::MapWrg))
          return fail("toPrivate wraps a mapLcl only inside a mapWrg");
        break;
      }
      if (!(p && m::isSequentialMap(p->pattern())) && !isUserFun)
        return fail("toPrivate wraps a mapSeq, a mapLcl or a user function call");
      if (!s.insideParallelMap()) return fail("private memory is only used inside a parallel map");
      break;
    default:
      break;
  }
  return Outcome::ok(wrapCall(space, *c));
}

int log2Exact(int64_t v) {
  int k = 0;
  while (v > 1 && v % 2 == 0) {
    v /= 2;
    ++k;
  }
  return v == 1 ? k : -1;
}

// Why the reduction's operator or input cannot be given to a tree; "" if it can.
std::string treeProblem(const Site& s, const m::ReduceCall& r, int dim) {
  if (!s.insidePattern(PatternKind::MapWrg, dim))
    return fmt::format("the reduction is not inside a mapWrg{} (its work-items reduce it)", dim);
  if (s.insidePattern(PatternKind::MapLcl, dim)) return fmt::format("it is already inside a mapLcl{}", dim);
  if (std::string why = sequentialContext(s); !why.empty()) return why;
  // An iterate's rounds are not sequential code, but the lengths change between them.
  if (s.insidePattern(PatternKind::Iterate)) return "it is inside an iterate (the tree needs a fixed length)";
  if (std::string p = partialReductionProblem(r.f, r.init, true); !p.empty()) return p;
  if (containsPattern(r.f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
    return "the operator contains parallel maps";
  return "";
}

Outcome reduceToTree(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::Reduce);
  if (!r) return fail("not a call of reduce");
  int dim = pv.has("dim") ? static_cast<int>(pv.integer("dim")) : 0;
  if (std::string why = treeProblem(s, *r, dim); !why.empty()) return Outcome::fail(why);
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  int64_t threads = pv.has("threads") ? pv.integer("threads") : 256;
  int rounds = log2Exact(threads);
  if (rounds < 1) return fail("the number of work-items {} is not a power of two (at least 2)", threads);
  arith::Expr L = arith::cst(threads);
  if (!arith::provablyDivisible(len, L))
    return fail("{} work-items do not provably divide the length {} of the input", threads, str(len));

  // The first round reads the input; a map computing it is fused in.
  Fun first = m::freshCopy(r->f);
  Expr input = r->input;
  if (auto mc = m::mapCall(r->input, PatternKind::Map)) {
    if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
      return fail("the map computing the input contains parallel maps");
    Fun f = r->f;
    Fun g = mc->f;
    first = m::lambda2("acc", "x", [&](Expr acc, Expr x) { return m::apply(f, {acc, m::apply(g, {x})}); });
    input = mc->input;
  }
  auto round = [&](const Fun& op, arith::Expr part) {
    ir::Callable reduceOne =
        ir::compose({ir::toLocal(ir::mapSeq(ir::id())), ir::reduceSeq(op, m::freshCopy(r->init))});
    return ir::compose({ir::join(), ir::mapLcl(reduceOne, dim), ir::split(part)});
  };
  ir::Callable firstRound =
      ir::compose({round(first, arith::div(len, L)), ir::Callable(ir::reorderStride(L))});
  Expr partials = ir::call(firstRound, {input});
  Fun tree = ir::iterate(arith::cst(rounds), round(m::freshCopy(r->f), arith::cst(2)));
  return Outcome::ok(ir::call(tree, {partials}));
}

std::vector<ParamValues> threadCandidates(const Site& s) {
  auto r = m::reduceCall(s.expr(), PatternKind::Reduce);
  if (!r) return {};
  std::vector<ParamValues> out;
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return out;
  for (int d = 0; d < 3; ++d) {
    if (!s.insidePattern(PatternKind::MapWrg, d)) continue;
    for (int64_t t : {256, 128, 64, 32})
      if (arith::provablyDivisible(len, arith::cst(t)))
        out.push_back({{"threads", std::to_string(t)}, {"dim", std::to_string(d)}});
  }
  return out;
}

}  // namespace

void registerOpenCLRules(RuleRegistry& reg) {
  using K = PatternKind;
  auto dimRule = [&](const char* name, const char* desc, const char* rhs, K to, const char* lift) {
    Rule r = makeRule(
        name, Family::OpenCL, desc, "map(f)", rhs, {K::Map},
        [to](const Site& s, const ParamValues& pv) { return lowerMap(s, pv, to); }, lift);
    r.params = {{"dim", ParamKind::Dim, "OpenCL dimension", "0", {}}};
    r.candidates = [](const Site&) { return dims(); };
    reg.add(std::move(r));
  };
  dimRule("map-to-glb", "Run the map's iterations in parallel on global threads of a dimension.",
          "mapGlb<dim>(f)", K::MapGlb, "mapGlb");
  dimRule("map-to-wrg", "Give the map's iterations to work-groups of a dimension.", "mapWrg<dim>(f)",
          K::MapWrg, "mapWrg");
  dimRule("map-to-lcl", "Give the map's iterations to the local threads of the enclosing work-group.",
          "mapLcl<dim>(f)", K::MapLcl, "mapLcl");
  reg.add(makeRule(
      "map-to-seq", Family::OpenCL, "Run the map as a sequential loop.", "map(f)", "mapSeq(f)", {K::Map},
      [](const Site& s, const ParamValues& pv) { return lowerMap(s, pv, K::MapSeq); }, "mapSeq"));
  reg.add(makeRule("reduce-to-seq", Family::OpenCL, "Run the reduction as a sequential loop.", "reduce(f, z)",
                   "reduceSeq(f, z)", {K::Reduce}, reduceToSeq, "reduceSeq"));
  reg.add(makeRule("map-seq-unroll", Family::OpenCL, "Unroll a sequential map of constant length.",
                   "mapSeq(f)", "mapSeqUnroll(f)", {K::MapSeq},
                   [](const Site& s, const ParamValues&) { return unroll(s, K::MapSeq, K::MapSeqUnroll); }));
  reg.add(makeRule(
      "reduce-seq-unroll", Family::OpenCL, "Unroll a sequential reduction of constant length.",
      "reduceSeq(f, z)", "reduceSeqUnroll(f, z)", {K::ReduceSeq},
      [](const Site& s, const ParamValues&) { return unroll(s, K::ReduceSeq, K::ReduceSeqUnroll); },
      "reduceSeqUnroll"));
  reg.add(makeRule(
      "to-global", Family::OpenCL, "Write the result of an OpenCL map or a user function to global memory.",
      "mapX(f)", "toGlobal(mapX(f))", {},
      [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToGlobal); }, "globalMemory"));
  reg.add(makeRule(
      "to-local", Family::OpenCL, "Write the result to the work-group's local memory.", "mapX(f)",
      "toLocal(mapX(f))", {}, [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToLocal); },
      "localMemory"));
  reg.add(makeRule(
      "to-private", Family::OpenCL, "Keep the result in the thread's private memory.",
      "mapSeq(f) (or mapLcl(f) in a mapWrg)", "toPrivate(mapSeq(f))", {},
      [](const Site& s, const ParamValues&) { return addressSpace(s, K::ToPrivate); }, "privateMemory"));

  Rule tree = makeRule(
      "reduce-to-tree", Family::OpenCL,
      "Reduce in a work-group: each of L work-items reduces every L-th element, then a tree of log2(L) "
      "rounds in local memory (000 Listing 5.8).",
      "reduce(f, z) $ x (in a mapWrg)",
      "iterate(log2 L, join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(f, z)) o split(2)) o "
      "join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(f, z)) o split(len/L) o reorderStride(L) $ x",
      {K::Reduce}, reduceToTree);
  tree.params = {{"threads", ParamKind::Factor, "work-items L (a power of two)", "256", {}},
                 {"dim", ParamKind::Dim, "OpenCL dimension of the work-items", "0", {}}};
  tree.candidates = threadCandidates;
  reg.add(std::move(tree));
}

}  // namespace lift::rewrite
