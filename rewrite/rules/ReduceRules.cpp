// Reduce rules (000 slides "Reduce rules", Lift ReduceRules.scala): a reduction as a reduction
// of partial reductions, partial reductions as iterations, with reordered input, and split
// into chunks. Rules that change the order or grouping of the operator check its algebra:
// associativity (every regrouping), commutativity (reordering) and the initial value being
// the identity (each partial reduction starts from it).
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome reducePartial(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::Reduce);
  if (!r) return fail("not a call of reduce");
  if (std::string p = partialReductionProblem(r->f, r->init, false); !p.empty()) return Outcome::fail(p);
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  arith::Expr mm = pv.factor("m", *s.program);
  if (!arith::provablyDivisible(len, mm))
    return fail("the part size {} does not provably divide the length {} of the input", str(mm), str(len));
  Expr part = m::callReduce(PatternKind::PartRed, m::freshCopy(r->f), m::freshCopy(r->init), r->input, {mm});
  return Outcome::ok(m::callReduce(PatternKind::Reduce, r->f, r->init, part));
}

Outcome partRedToReduce(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  arith::Expr len = lengthAt(s, r->input);
  arith::Expr mm = r->pattern->size(0);
  if (!len || arith::sub(len, mm) != arith::cst(0))
    return fail("the part size {} is not the whole length {} of the input", str(mm), len ? str(len) : "?");
  return Outcome::ok(m::callReduce(PatternKind::Reduce, r->f, r->init, r->input));
}

Outcome partRedMapReduce(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  arith::Expr mm = r->pattern->size(0);
  Fun f = m::reduceAsFun(PatternKind::Reduce, r->f, r->init);
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, f, m::callSplit(mm, r->input))));
}

Outcome reduceSingle(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || !m::isReduction(r->kind())) return fail("not a call of a reduction");
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  if (len != arith::cst(1)) return fail("the input has length {}, not 1", str(len));
  OperatorInfo op = analyseOperator(r->f);
  if (!isIdentityOf(op.op, r->init)) return fail("the initial value is not the identity of the operator");
  return Outcome::ok(r->input);
}

Outcome partRedSplitJoin(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  arith::Expr mm = r->pattern->size(0);
  arith::Expr k = pv.factor("k", *s.program);
  if (!arith::provablyDivisible(k, mm))
    return fail("the chunk length {} is not a multiple of the part size {}", str(k), str(mm));
  if (!arith::provablyDivisible(len, k))
    return fail("the chunk length {} does not provably divide the length {} of the input", str(k), str(len));
  Fun f = m::reduceAsFun(PatternKind::PartRed, r->f, r->init, {mm});
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, f, m::callSplit(k, r->input))));
}

std::vector<ParamValues> partRedSplitCandidates(const Site& s) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return {};
  arith::Expr mm = r->pattern->size(0);
  std::vector<ParamValues> out;
  for (auto& pv : factorCandidates("k", lengthAt(s, r->input), 4, 64, true))
    if (mm.isCst() && pv.integer("k") % mm.value() == 0 && out.size() < 6) out.push_back(pv);
  return out;
}

Outcome partRedIterate(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  if (std::string p = partialReductionProblem(r->f, r->init, false); !p.empty()) return Outcome::fail(p);
  arith::Expr mm = r->pattern->size(0);
  int64_t step = pv.integer("r");
  if (step < 2) return fail("a round must reduce parts of at least 2 elements, not {}", step);
  if (!mm.isCst()) return fail("the part size {} is not a constant", str(mm));
  int64_t k = 0, v = mm.value();
  while (v > 1 && v % step == 0) {
    v /= step;
    ++k;
  }
  if (v != 1 || k < 1) return fail("the part size {} is not a power of {}", mm.value(), step);
  Fun f = m::reduceAsFun(PatternKind::PartRed, r->f, r->init, {arith::cst(step)});
  ir::PatternNode::Params ps;
  ps.funs = {f};
  ps.sizes = {arith::cst(k)};
  return Outcome::ok(m::call(ir::PatternNode::make(PatternKind::Iterate, std::move(ps)), {r->input}));
}

Expr reorderStride(arith::Expr stride, Expr input) {
  return m::call(ir::gather(ir::strideIndex(stride)), {std::move(input)});
}

Outcome reduceReorder(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr());
  if (!r || !m::isReduction(r->kind())) return fail("not a call of a reduction");
  OperatorInfo op = analyseOperator(r->f);
  if (!op.associative || !op.commutative)
    return fail("reordering needs an associative and commutative operator{}",
                op.why.empty() ? "" : ": " + op.why);
  arith::Expr len = lengthAt(s, r->input);
  arith::Expr st = pv.factor("s", *s.program);
  if (!len || !arith::provablyDivisible(len, st))
    return fail("the stride {} does not provably divide the length {} of the input", str(st),
                len ? str(len) : "?");
  return Outcome::ok(
      m::callReduce(r->kind(), r->f, r->init, reorderStride(st, r->input), r->pattern->params().sizes));
}

Outcome partRedReorder(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  if (std::string p = partialReductionProblem(r->f, r->init, true); !p.empty()) return Outcome::fail(p);
  // The partial results change with the order; only their reduction by the same operator
  // stays the same. So the partRed must feed a full reduction directly.
  ParentCall pc = parentCall(s);
  auto consumer = pc.call ? m::reduceCall(s.ancestors.back().expr()) : std::nullopt;
  if (!consumer || pc.argIndex != 1 || !m::isReduction(consumer->kind()))
    return fail("the partial results must be consumed directly by a reduction (they change with the order)");
  OperatorInfo a = analyseOperator(r->f), b = analyseOperator(consumer->f);
  if (a.op != b.op || a.liftDepth != b.liftDepth)
    return fail("the consuming reduction does not use the same operator");
  arith::Expr len = lengthAt(s, r->input);
  arith::Expr st = pv.factor("s", *s.program);
  if (!len || !arith::provablyDivisible(len, st))
    return fail("the stride {} does not provably divide the length {} of the input", str(st),
                len ? str(len) : "?");
  return Outcome::ok(m::callReduce(PatternKind::PartRed, r->f, r->init, reorderStride(st, r->input),
                                   r->pattern->params().sizes));
}

std::vector<ParamValues> strideCandidates(const Site& s) {
  auto r = m::reduceCall(s.expr());
  if (!r) return {};
  return factorCandidates("s", lengthAt(s, r->input), 2);
}

}  // namespace

void registerReduceRules(RuleRegistry& reg) {
  Rule partial = makeRule(
      "reduce-partial", Family::Reduce,
      "Reduce partial results: a partial reduction of parts of m elements first (000 rules).", "reduce(f, z)",
      "reduce(f, z) o partRed(f, z, m)", {PatternKind::Reduce}, reducePartial, "partialReduce");
  partial.params = {{"m", ParamKind::Factor, "part size (elements per partial result)", "4", {}}};
  partial.candidates = [](const Site& s) {
    auto r = m::reduceCall(s.expr(), PatternKind::Reduce);
    return r ? factorCandidates("m", lengthAt(s, r->input), 4, 6, true) : std::vector<ParamValues>{};
  };
  reg.add(std::move(partial));

  reg.add(makeRule("partred-to-reduce", Family::Reduce,
                   "A partial reduction whose part is the whole array is a reduction.",
                   "partRed(f, z, len(x)) $ x", "reduce(f, z) $ x", {PatternKind::PartRed}, partRedToReduce,
                   "partialReduceToReduce"));

  reg.add(makeRule("partred-map-reduce", Family::Reduce,
                   "A partial reduction is a map of reductions over its parts (its definition).",
                   "partRed(f, z, m)", "join o map(reduce(f, z)) o split(m)", {PatternKind::PartRed},
                   partRedMapReduce));
  reg.add(makeRule(
      "reduce-single", Family::Reduce, "Reducing one element from the identity gives that element.",
      "reduce(f, z) $ x (one element)", "x", {PatternKind::Reduce, PatternKind::ReduceSeq}, reduceSingle));

  Rule sj = makeRule("partred-split-join", Family::Reduce,
                     "Compute a partial reduction chunk by chunk (chunks of k, a multiple of the part size).",
                     "partRed(f, z, m)", "join o map(partRed(f, z, m)) o split(k)", {PatternKind::PartRed},
                     partRedSplitJoin, "partialReduceSplitJoin");
  sj.params = {{"k", ParamKind::Factor, "chunk length (a multiple of the part size)", "4", {}}};
  sj.candidates = partRedSplitCandidates;
  reg.add(std::move(sj));

  Rule it =
      makeRule("partred-iterate", Family::Reduce,
               "Compute a partial reduction of parts of r^k elements as k rounds of parts of r.",
               "partRed(f, z, r^k)", "iterate(k, partRed(f, z, r))", {PatternKind::PartRed}, partRedIterate);
  it.params = {{"r", ParamKind::Factor, "part size of one round", "2", {}}};
  reg.add(std::move(it));

  Rule pr =
      makeRule("partred-reorder", Family::Reduce,
               "Let a partial reduction read its input in strided order (its results feed a reduction).",
               "reduce(f, z) o partRed(f, z, m)", "reduce(f, z) o partRed(f, z, m) o reorderStride(s)",
               {PatternKind::PartRed}, partRedReorder, "partialReduceReorder");
  pr.params = {{"s", ParamKind::Factor, "stride", "2", {}}};
  pr.candidates = strideCandidates;
  reg.add(std::move(pr));

  Rule rr = makeRule("reduce-reorder", Family::Reduce,
                     "Reduce the input in strided order (needs a commutative operator).", "reduce(f, z)",
                     "reduce(f, z) o reorderStride(s)", {PatternKind::Reduce, PatternKind::ReduceSeq},
                     reduceReorder);
  rr.params = {{"s", ParamKind::Factor, "stride", "2", {}}};
  rr.candidates = strideCandidates;
  reg.add(std::move(rr));
}

}  // namespace lift::rewrite
