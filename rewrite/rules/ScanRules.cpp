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
using ir::Callable;
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

// Work-items of scan-work-groups' work-groups (a power of two: its totals halve them
// kWorkGroupLog2 times, its scan doubles the distance as often), and the vector width of their
// loads and stores.
constexpr int64_t kWorkGroup = 256;
constexpr int kWorkGroupLog2 = 8;
constexpr int64_t kVectorWidth = 4;

// The exclusive scan from z of a work-group's kWorkGroup values, in local memory (Hillis and
// Steele): the values shifted right behind z, then kWorkGroupLog2 rounds in which element i
// becomes f(r[i - d], r[i]) for d = 1, 2, 4, ..., r[i - d] read through pad(d, 0, z) where
// i < d (z the identity of f).
Callable workGroupScan(const Fun& f, const std::string& z) {
  std::vector<Callable> chain;
  for (int64_t d = kWorkGroup / 2; d >= 1; d /= 2) {
    Fun fc = m::freshCopy(f);
    chain.push_back(ir::lambda("r", [&](Expr r) {
      Fun combine = ir::lambda("a", [&](Expr a) {
        return m::apply(fc, {m::callGet(0, a), m::callGet(1, a)});
      });
      Expr shifted = ir::call(ir::compose({ir::get(0), ir::slide(arith::cst(kWorkGroup), arith::cst(d)),
                                           ir::padConstant(arith::cst(d), arith::cst(0), z)}),
                              {r});
      return ir::call(ir::toLocal(ir::mapLcl(combine)), {m::callZip({shifted, m::freshCopy(r)})});
    }));
  }
  chain.push_back(ir::compose({ir::get(0), ir::slide(arith::cst(kWorkGroup), arith::cst(1)),
                               ir::padConstant(arith::cst(1), arith::cst(0), z)}));
  return ir::compose(chain);
}

// A work-item's sum of its vectors' elements, stored in local memory; `load`: the vectors are
// first read (vector loads) into its private memory.
Callable itemSum(const Fun& f, const Expr& z, bool load) {
  std::vector<Callable> chain{ir::toLocal(ir::mapSeq(ir::id())),
                              ir::reduceSeq(m::freshCopy(f), m::freshCopy(z)), ir::asScalar()};
  if (load) chain.push_back(ir::toPrivate(ir::mapSeq(ir::id())));
  return ir::compose(chain);
}

Outcome scanWorkGroups(const Site& s, const ParamValues& pv) {
  auto r = scanCall(s.expr(), PatternKind::Scan);
  if (!r) return fail("not a call of scan");
  if (std::string p = partialReductionProblem(r->f, r->init, false); !p.empty()) return Outcome::fail(p);
  auto* zl = ir::asLiteral(r->init);
  if (!zl) return fail("the initial value is no literal (the work-groups' scans pad with it)");
  if (containsPattern(r->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
    return fail("the operator contains parallel maps, which cannot run inside a work-item");
  for (PatternKind k :
       {PatternKind::Map, PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl, PatternKind::MapSeq,
        PatternKind::MapSeqUnroll, PatternKind::MapVec, PatternKind::Reduce, PatternKind::ReduceSeq,
        PatternKind::PartRed, PatternKind::Scan, PatternKind::ScanSeq, PatternKind::Iterate})
    if (s.insidePattern(k))
      return fail("it is inside a {}: the work-group scan is a whole program's (its own kernels)",
                  patName(k));
  if (!m::isTrivial(r->input))
    return fail(
        "the scanned array is computed here; it is read twice (the totals and the tiles), so make it a "
        "parameter or a value first");
  Type t = typeAt(s, r->input);
  if (!t || !t.isArray() || !t.elem().isScalar())
    return fail("the input is no array of scalars (its tiles are read as vectors of {})", kVectorWidth);
  arith::Expr len = t.length();
  const int64_t vectors = pv.integer("v");
  if (vectors < 1 || vectors > 16)
    return fail("v = {} vectors a work-item: between 1 and 16 (they are kept in registers)", vectors);
  arith::Expr v = arith::cst(vectors);
  arith::Expr tile = arith::cst(kWorkGroup * kVectorWidth) * v;
  if (!arith::provablyDivisible(len, tile))
    return fail(
        "the tile length {} (256 work-items, v = {} vectors of 4 each) does not provably divide the "
        "length {} of the input",
        str(tile), str(v), str(len));
  const std::string& z = zl->text();
  // Kernel 1, the tiles' totals: each work-item sums its elements, the work-group halves the sums.
  Callable totals = ir::compose(
      {ir::join(), ir::toGlobal(ir::mapLcl(ir::mapSeq(ir::id()))), ir::split(1),
       ir::iterate(
           arith::cst(kWorkGroupLog2),
           ir::compose({ir::join(),
                        ir::mapLcl(ir::compose({ir::toLocal(ir::mapSeq(ir::id())),
                                                ir::reduceSeq(m::freshCopy(r->f), m::freshCopy(r->init))})),
                        ir::split(2)})),
       ir::join(), ir::mapLcl(itemSum(r->f, r->init, true)), ir::split(v), ir::asVector(kVectorWidth)});
  Expr tileTotals = m::callJoin(ir::call(ir::mapWrg(totals), {m::callSplit(tile, r->input)}));
  // Kernel 2, the tiles' offsets: one work-item scans the totals.
  Expr offsets = callScan(PatternKind::ScanSeq, m::freshCopy(r->f), m::freshCopy(r->init), tileTotals);
  // Kernel 3, each tile scanned from its offset: the work-items' sums scanned in local memory, then
  // each work-item's elements from its sum's scan, stored as vectors.
  Fun scanTile = ir::lambda("p", [&](Expr p) {
    Fun body = ir::lambda("xs", [&](Expr xs) {
      Fun item = ir::lambda("q", [&](Expr q) {
        Expr from = m::apply(m::freshCopy(r->f), {m::callGet(0, m::freshCopy(p)), m::callGet(0, q)});
        return ir::call(
            ir::compose({ir::asScalar(), ir::toGlobal(ir::mapSeq(ir::id())), ir::asVector(kVectorWidth),
                         ir::toPrivate(ir::scanSeq(m::freshCopy(r->f), from)), ir::asScalar()}),
            {m::callGet(1, q)});
      });
      Expr sums = ir::call(
          ir::compose({workGroupScan(r->f, z), ir::join(), ir::mapLcl(itemSum(r->f, r->init, false))}), {xs});
      return m::callJoin(ir::call(ir::mapLcl(item), {m::callZip({sums, m::freshCopy(xs)})}));
    });
    Expr items = ir::call(ir::compose({ir::toPrivate(ir::mapLcl(ir::mapSeq(ir::id()))), ir::split(v),
                                       ir::asVector(kVectorWidth)}),
                          {m::callGet(1, p)});
    return ir::call(body, {items});
  });
  Expr tiles = m::callSplit(tile, m::freshCopy(r->input));
  return Outcome::ok(m::callJoin(ir::call(ir::mapWrg(scanTile), {m::callZip({offsets, tiles})})));
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
  Rule wg = makeRule(
      "scan-work-groups", Family::OpenCL,
      "Scan in work-groups of 256 work-items, each v vectors of 4 consecutive elements read and written "
      "coalesced: the tiles' totals (one work-group a tile), their scan (one work-item), each tile scanned "
      "from its offset with the work-items' sums scanned in local memory (Hillis and Steele). Three kernels; "
      "f "
      "associative, z its identity.",
      "scan(f, z) $ x",
      "join o mapWrg0(fun(p => join o mapLcl0(fun(q => asScalar o toGlobal(mapSeq(id)) o asVector(4) o "
      "toPrivate(scanSeq(f, f(get(0, p), get(0, q)))) o asScalar $ get(1, q))) $ zip(hillisSteele(f, z) o "
      "join "
      "o mapLcl0(sum) $ xs, xs) where xs = toPrivate(mapLcl0(mapSeq(id))) o split(v) o asVector(4) $ get(1, "
      "p))) $ zip(scanSeq(f, z) o join o mapWrg0(tileTotal) o split(1024*v) $ x, split(1024*v) $ x)",
      {PatternKind::Scan}, scanWorkGroups);
  wg.params = {{"v", ParamKind::Count, "vectors of 4 elements per work-item", "4", {}}};
  wg.candidates = [](const Site& s) {
    auto r = scanCall(s.expr(), PatternKind::Scan);
    if (!r) return std::vector<ParamValues>{};
    arith::Expr len = lengthAt(s, r->input);
    std::vector<ParamValues> out;
    for (int64_t v : {4, 2, 1, 8})
      if (len && arith::provablyDivisible(len, arith::cst(kWorkGroup * kVectorWidth * v)))
        out.push_back({{"v", std::to_string(v)}});
    return out;
  };
  reg.add(std::move(wg));
}

}  // namespace lift::rewrite
