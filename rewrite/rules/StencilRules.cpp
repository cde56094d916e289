// Stencil rules (Lift SlideTiling, Rules.slideTiling): overlapping tiles of sliding windows,
// so that a work-group can load a tile once and compute several windows from it.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Fun slideFun(arith::Expr size, arith::Expr step) {
  ir::PatternNode::Params ps;
  ps.sizes = {size, step};
  return ir::PatternNode::make(PatternKind::Slide, std::move(ps));
}

// Checks a tiling of slide(n, s) over length len with tiles stepping by v; "" if valid.
std::string tilingProblem(arith::Expr len, arith::Expr n, arith::Expr s, arith::Expr v) {
  if (!arith::provablyDivisible(v, s))
    return fmt::format("the tile step {} is not a multiple of the step {}", str(v), str(s));
  arith::Expr windows = len - n + s;
  if (!arith::provablyDivisible(windows, v))
    return fmt::format(
        "the tile step {} does not provably divide {} (the length {} minus the window size {} plus the step "
        "{})",
        str(v), str(windows), str(len), str(n), str(s));
  if (!arith::provablyLessEqual(n - s + v, len))
    return fmt::format("a tile ({} elements) may be longer than the array ({})", str(n - s + v), str(len));
  return "";
}

Outcome slideTiling(const Site& s, const ParamValues& pv) {
  auto* sl = m::callOf(s.expr(), PatternKind::Slide);
  if (!sl) return fail("not a call of slide");
  const Expr& in = m::arg(s.expr(), 0);
  arith::Expr len = lengthAt(s, in);
  if (!len) return unknownType(s);
  arith::Expr n = sl->size(0), st = sl->size(1), v = pv.factor("v", *s.program);
  if (std::string p = tilingProblem(len, n, st, v); !p.empty()) return Outcome::fail(p);
  Expr tiles = m::call(slideFun(n - st + v, v), {in});
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, slideFun(n, st), tiles)));
}

Outcome stencilTiling(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  auto* sl = m::callOf(mc->input, PatternKind::Slide);
  if (!sl) return fail("the input of the map is not a slide");
  const Expr& in = m::arg(mc->input, 0);
  arith::Expr len = lengthAt(s, in);
  if (!len) return unknownType(s);
  arith::Expr n = sl->size(0), st = sl->size(1), v = pv.factor("v", *s.program);
  if (std::string p = tilingProblem(len, n, st, v); !p.empty()) return Outcome::fail(p);
  Fun perTile = m::lambda1(
      "tile", [&](Expr t) { return m::callMap(PatternKind::Map, mc->f, m::call(slideFun(n, st), {t})); });
  Expr tiles = m::call(slideFun(n - st + v, v), {in});
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, perTile, tiles)));
}

Outcome slideSplit(const Site& s, const ParamValues&) {
  auto* sl = m::callOf(s.expr(), PatternKind::Slide);
  if (!sl) return fail("not a call of slide");
  if (sl->size(0) != sl->size(1))
    return fail("the windows overlap or leave gaps (size {} step {})", str(sl->size(0)), str(sl->size(1)));
  arith::Expr len = lengthAt(s, m::arg(s.expr(), 0));
  if (!len || !arith::provablyDivisible(len, sl->size(0)))
    return fail("the window size {} does not provably divide the length", str(sl->size(0)));
  return Outcome::ok(m::callSplit(sl->size(0), m::arg(s.expr(), 0)));
}

std::vector<ParamValues> tileCandidates(const Site& s, const Expr& slideCall) {
  auto* sl = m::callOf(slideCall, PatternKind::Slide);
  if (!sl) return {};
  arith::Expr len = lengthAt(s, m::arg(slideCall, 0));
  if (!len) return {};
  std::vector<ParamValues> out;
  for (int64_t v : {4, 8, 16, 2, 32, 64})
    if (out.size() < 4 && tilingProblem(len, sl->size(0), sl->size(1), arith::cst(v)).empty())
      out.push_back({{"v", std::to_string(v)}});
  return out;
}

}  // namespace

void registerStencilRules(RuleRegistry& reg) {
  Rule t = makeRule("slide-tiling", Family::Stencil, "Slide over overlapping tiles, then within each tile.",
                    "slide(n, s)", "join o map(slide(n, s)) o slide(v + n - s, v)", {PatternKind::Slide},
                    slideTiling);
  t.params = {{"v", ParamKind::Factor, "tile step (a multiple of s)", "4", {}}};
  t.candidates = [](const Site& s) { return tileCandidates(s, s.expr()); };
  reg.add(std::move(t));
  Rule st = makeRule("stencil-tiling", Family::Stencil,
                     "Compute a stencil tile by tile: each tile's windows are mapped separately.",
                     "map(f) o slide(n, s)",
                     "join o map(tile => map(f) o slide(n, s) $ tile) o slide(v + n - s, v)",
                     {PatternKind::Map}, stencilTiling);
  st.params = {{"v", ParamKind::Factor, "tile step (a multiple of s)", "4", {}}};
  st.candidates = [](const Site& s) {
    auto mc = m::mapCall(s.expr(), PatternKind::Map);
    return mc ? tileCandidates(s, mc->input) : std::vector<ParamValues>{};
  };
  reg.add(std::move(st));
  reg.add(makeRule("slide-split", Family::Stencil, "Windows that neither overlap nor leave gaps are chunks.",
                   "slide(n, n)", "split(n)", {PatternKind::Slide}, slideSplit));
}

}  // namespace lift::rewrite
