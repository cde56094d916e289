// The work-group reduction (000 Listing 5.8, 002 Listing 1, and the shape of the GPU libraries'
// reductions) as one lowering rule: a reduction inside a mapWrg becomes L work-items, each
// reducing every L-th element of the input in private memory (so neighbouring work-items read
// neighbouring addresses), then a tree of log2(L) rounds in local memory, each work-item adding
// two partial results. A map that computes the reduction's input is fused into the first round.
// The result stays in local memory; the code generator writes the last round straight to its
// consumer. It is the composition of reduce-reorder, reduce-partial, partred-map-reduce,
// partred-iterate, reduce-single, map-to-lcl, reduce-to-seq and to-local, in one step so that
// the explorer can tune L.
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

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

void registerTreeReductionRules(RuleRegistry& reg) {
  Rule r = makeRule(
      "reduce-to-tree", Family::OpenCL,
      "Reduce in a work-group: each of L work-items reduces every L-th element, then a tree of log2(L) "
      "rounds in local memory (000 Listing 5.8).",
      "reduce(f, z) $ x (in a mapWrg)",
      "iterate(log2 L, join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(f, z)) o split(2)) o "
      "join o mapLcl(toLocal(mapSeq(id)) o reduceSeq(f, z)) o split(len/L) o reorderStride(L) $ x",
      {PatternKind::Reduce}, reduceToTree);
  r.params = {{"threads", ParamKind::Factor, "work-items L (a power of two)", "256", {}},
              {"dim", ParamKind::Dim, "OpenCL dimension of the work-items", "0", {}}};
  r.candidates = threadCandidates;
  reg.add(std::move(r));
}

}  // namespace lift::rewrite
