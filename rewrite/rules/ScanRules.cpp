// Scan rules (issue 16): the exclusive scan `scan(f, z)` lowered to a sequential loop, and split
// into chunks — the work-efficient decomposition of a parallel scan: the chunks' totals
// (reductions), their scan (each chunk's offset, the fold of z with every earlier element),
// then each chunk scanned from its offset. Like the partial reductions, the decomposition
// regroups the operator, so it must be associative with z its identity (or idempotent).
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// A scan applied to an input: Scan(f)(init, xs).
struct ScanCall {
  const ir::PatternNode* pattern = nullptr;
  Fun f;
  Expr init;
  Expr input;
};

std::optional<ScanCall> scanCall(const Expr& e, PatternKind kind) {
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 2) return std::nullopt;
  auto* p = ir::asPattern(c->fun());
  if (!p || p->pattern() != kind) return std::nullopt;
  return ScanCall{p, p->f(), c->args()[0], c->args()[1]};
}

Expr callScan(PatternKind k, const Fun& f, Expr init, Expr input) {
  return m::call(ir::scanPattern(k, f), {std::move(init), std::move(input)});
}

Outcome scanToSeq(const Site& s, const ParamValues&) {
  auto r = scanCall(s.expr(), PatternKind::Scan);
  if (!r) return fail("not a call of scan");
  if (containsPattern(r->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
    return fail("the operator contains parallel maps, which cannot run inside a sequential loop");
  return Outcome::ok(callScan(PatternKind::ScanSeq, r->f, r->init, r->input));
}

Outcome scanSplitChunks(const Site& s, const ParamValues& pv) {
  auto r = scanCall(s.expr(), PatternKind::Scan);
  if (!r) return fail("not a call of scan");
  if (std::string p = partialReductionProblem(r->f, r->init, false); !p.empty()) return Outcome::fail(p);
  if (!m::isTrivial(r->input))
    return fail(
        "the scanned array is computed here; it is read twice (the totals and the chunks), so make it a "
        "parameter or a value first");
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  arith::Expr n = pv.factor("n", *s.program);
  if (!arith::provablyDivisible(len, n))
    return fail("the chunk length {} does not provably divide the length {} of the input", str(n), str(len));
  Fun total = m::reduceAsFun(PatternKind::Reduce, m::freshCopy(r->f), m::freshCopy(r->init));
  Expr totals = m::callJoin(m::callMap(PatternKind::Map, total, m::callSplit(n, r->input)));
  Expr offsets = callScan(PatternKind::Scan, m::freshCopy(r->f), r->init, totals);
  Fun fromOffset = m::lambda1(
      "p", [&](Expr p) { return callScan(PatternKind::Scan, r->f, m::callGet(0, p), m::callGet(1, p)); });
  Expr chunks = m::callSplit(n, m::freshCopy(r->input));
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, fromOffset, m::callZip({offsets, chunks}))));
}

}  // namespace

void registerScanRules(RuleRegistry& reg) {
  reg.add(makeRule("scan-to-seq", Family::OpenCL, "Run the scan as a sequential loop.", "scan(f, z)",
                   "scanSeq(f, z)", {PatternKind::Scan}, scanToSeq));
  Rule chunks = makeRule(
      "scan-split-chunks", Family::Scan,
      "Scan chunks of n elements in parallel, each from its offset: the scan of the chunks' totals (the "
      "work-efficient parallel scan; f associative, z its identity).",
      "scan(f, z) $ x",
      "join o map(fun(p => scan(f, get(0, p)) $ get(1, p))) $ zip(scan(f, z) o join o map(reduce(f, z)) o "
      "split(n) $ x, split(n) $ x)",
      {PatternKind::Scan}, scanSplitChunks);
  chunks.params = {{"n", ParamKind::Factor, "chunk length", "4", {}}};
  chunks.candidates = [](const Site& s) {
    auto r = scanCall(s.expr(), PatternKind::Scan);
    return r ? factorCandidates("n", lengthAt(s, r->input), 4, 6, true) : std::vector<ParamValues>{};
  };
  reg.add(std::move(chunks));
}

}  // namespace lift::rewrite
