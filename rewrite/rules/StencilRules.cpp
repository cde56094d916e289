// Stencil rules (Lift SlideTiling, Rules.slideTiling): overlapping tiles of sliding windows,
// so that a work-group can load a tile once and compute several windows from it; and the 2-D
// stencil rules of Lift's Rules.scala (slidePromotion, slideSwap, transposeSwap,
// slideTransposeSwap, slideTransposeReordering) with the 2-D tilings of its MacroRules
// (tileSlide2D, tile2DStencils) over the prelude's slide2D (core/ir/Prelude.h). Lift's joinSwap
// and transposeMapJoinReordering are join-map-map and transpose-map-join (TransposeRules.cpp);
// its mapSeqSlide and mapSeqSlideSeq are map-seq-slide (a sequential map over the windows that
// keeps the window in registers, issue 16).
#include "core/ir/Prelude.h"
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

// ----- 2-D stencils ---------------------------------------------------------------------------

// f is map^depth(P) with P the pattern of kind k (each level a map or its eta-expansion): P, or null.
const ir::PatternNode* nestedPattern(const Fun& f, int depth, PatternKind k) {
  Fun cur = f;
  for (int i = 0; i < depth; ++i) {
    auto mc = functionAsMap(cur);
    if (!mc || mc->kind() != PatternKind::Map) return nullptr;
    cur = mc->f;
  }
  return functionAsPattern(cur, k);
}

// map^depth(g).
Fun mapped(Fun g, int depth) {
  for (int i = 0; i < depth; ++i) g = m::mapOfKind(PatternKind::Map, g);
  return g;
}

// e is map(map^(depth-1)(P)) $ input with P of kind k: P, with the map's input in `input`.
const ir::PatternNode* mappedCall(const Expr& e, int depth, PatternKind k, Expr& input) {
  auto mc = m::mapCall(e, PatternKind::Map);
  if (!mc) return nullptr;
  const ir::PatternNode* p = nestedPattern(mc->f, depth - 1, k);
  if (p) input = mc->input;
  return p;
}

// slide(u, v) o map(join) => map(map(join)) o slide(u, v)
Outcome slidePromotion(const Site& s, const ParamValues&) {
  auto* sl = m::callOf(s.expr(), PatternKind::Slide);
  if (!sl) return fail("not a call of slide");
  Expr in;
  if (!mappedCall(m::arg(s.expr(), 0), 1, PatternKind::Join, in))
    return fail("the input of the slide is not a map(join)");
  Expr slid = m::call(slideFun(sl->size(0), sl->size(1)), {in});
  return Outcome::ok(m::call(mapped(m::joinFun(), 2), {slid}));
}

// slide(u, v) o map(map(slide(n, s))) => map(map(map(slide(n, s)))) o slide(u, v)
Outcome slideSwap(const Site& s, const ParamValues&) {
  auto* sl = m::callOf(s.expr(), PatternKind::Slide);
  if (!sl) return fail("not a call of slide");
  Expr in;
  auto* inner = mappedCall(m::arg(s.expr(), 0), 2, PatternKind::Slide, in);
  if (!inner) return fail("the input of the slide is not a map(map(slide))");
  Expr slid = m::call(slideFun(sl->size(0), sl->size(1)), {in});
  return Outcome::ok(m::call(mapped(slideFun(inner->size(0), inner->size(1)), 3), {slid}));
}

// map(map(map(P))) o map(transpose) => map(transpose) o map(map(map(P))), P a transpose
// (transpose-swap) or a slide (slide-transpose-swap): P works two levels below the transposed ones.
Outcome deepSwapTranspose(const Site& s, PatternKind k) {
  Expr mid;
  auto* p = mappedCall(s.expr(), 3, k, mid);
  if (!p) return fail("not a map(map(map({})))", patName(k));
  Expr in;
  if (!mappedCall(mid, 1, PatternKind::Transpose, in))
    return fail("the input of the maps is not a map(transpose)");
  Fun deep = k == PatternKind::Transpose ? m::transposeFun() : slideFun(p->size(0), p->size(1));
  return Outcome::ok(m::call(mapped(m::transposeFun(), 1), {m::call(mapped(deep, 3), {in})}));
}

// map(slide(u, v)) o map(transpose) => map(map(transpose)) o map(transpose) o map(map(slide(u, v)))
Outcome slideTransposeReordering(const Site& s, const ParamValues&) {
  Expr mid;
  auto* sl = mappedCall(s.expr(), 1, PatternKind::Slide, mid);
  if (!sl) return fail("not a map(slide)");
  Expr in;
  if (!mappedCall(mid, 1, PatternKind::Transpose, in))
    return fail("the input of the map is not a map(transpose)");
  Expr slid = m::call(mapped(slideFun(sl->size(0), sl->size(1)), 2), {in});
  return Outcome::ok(m::call(mapped(m::transposeFun(), 2), {m::call(mapped(m::transposeFun(), 1), {slid})}));
}

// A slide2D(n, s) call: map(transpose) o slide(n, s) o map(slide(n, s)), the same window and step
// in both dimensions; its input in `input`.
const ir::PatternNode* slide2DCall(const Expr& e, Expr& input) {
  Expr rows;
  if (!mappedCall(e, 1, PatternKind::Transpose, rows)) return nullptr;
  auto* sl = m::callOf(rows, PatternKind::Slide);
  if (!sl) return nullptr;
  auto* cols = mappedCall(m::arg(rows, 0), 1, PatternKind::Slide, input);
  if (!cols || cols->size(0) != sl->size(0) || cols->size(1) != sl->size(1)) return nullptr;
  return sl;
}

// The tiling of slide2D(n, st) over `in` with tiles stepping by v in both dimensions: "" if valid.
std::string tiling2DProblem(const Site& s, const Expr& in, arith::Expr n, arith::Expr st, arith::Expr v) {
  Type t = typeAt(s, in);
  if (!t || !t.isArray() || !t.elem().isArray()) return "the input is not a matrix";
  if (std::string p = tilingProblem(t.length(), n, st, v); !p.empty()) return "rows: " + p;
  if (std::string p = tilingProblem(t.elem().length(), n, st, v); !p.empty()) return "columns: " + p;
  return "";
}

// The windows of each tile back in one matrix: map(join) o join o map(transpose) $ perTile.
Expr untile2D(Expr perTile) {
  return m::call(mapped(m::joinFun(), 1), {m::callJoin(m::call(mapped(m::transposeFun(), 1), {perTile}))});
}

// slide2D(n, s) => map(join) o join o map(transpose) o map(map(slide2D(n, s))) o slide2D(v + n - s, v)
Outcome tileSlide2D(const Site& s, const ParamValues& pv) {
  Expr in;
  auto* sl = slide2DCall(s.expr(), in);
  if (!sl) return fail("not a slide2D(n, s) (map(transpose) o slide(n, s) o map(slide(n, s)))");
  arith::Expr n = sl->size(0), st = sl->size(1), v = pv.factor("v", *s.program);
  if (std::string p = tiling2DProblem(s, in, n, st, v); !p.empty()) return Outcome::fail(p);
  Expr tiles = ir::slide2D(n - st + v, v, n - st + v, v).apply({in});
  Fun windows = m::lambda1("tile", [&](Expr t) { return ir::slide2D(n, st, n, st).apply({t}); });
  return Outcome::ok(untile2D(m::call(mapped(windows, 2), {tiles})));
}

// map(map(f)) o slide2D(n, s) =>
//   map(join) o join o map(transpose) o map(map(tile => map(map(f)) o slide2D(n, s) $ tile)) o slide2D(v + n
//   - s, v)
Outcome tile2DStencils(const Site& s, const ParamValues& pv) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto inner = functionAsMap(outer->f);
  if (!inner || inner->kind() != PatternKind::Map) return fail("not a map(map(f))");
  Expr in;
  auto* sl = slide2DCall(outer->input, in);
  if (!sl) return fail("the input of the maps is not a slide2D(n, s)");
  arith::Expr n = sl->size(0), st = sl->size(1), v = pv.factor("v", *s.program);
  if (std::string p = tiling2DProblem(s, in, n, st, v); !p.empty()) return Outcome::fail(p);
  Expr tiles = ir::slide2D(n - st + v, v, n - st + v, v).apply({in});
  Fun f = inner->f;
  Fun perTile = m::lambda1(
      "tile", [&](Expr t) { return m::call(mapped(f, 2), {ir::slide2D(n, st, n, st).apply({t})}); });
  return Outcome::ok(untile2D(m::call(mapped(perTile, 2), {tiles})));
}

std::vector<ParamValues> tile2DCandidates(const Site& s, const Expr& slideCall) {
  Expr in;
  auto* sl = slide2DCall(slideCall, in);
  if (!sl) return {};
  std::vector<ParamValues> out;
  for (int64_t v : {4, 8, 16, 2, 32})
    if (out.size() < 3 && tiling2DProblem(s, in, sl->size(0), sl->size(1), arith::cst(v)).empty())
      out.push_back({{"v", std::to_string(v)}});
  return out;
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

// ----- issue 16: mapSeqSlide ------------------------------------------------------------------

// map(f) o slide(n, s) or mapSeq(f) o slide(n, s) => mapSeqSlide(n, s, f) (Lift's mapSeqSlide and
// mapSeqSlideSeq).
Outcome mapSeqSlide(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), std::nullopt);
  if (!mc || (mc->kind() != PatternKind::Map && mc->kind() != PatternKind::MapSeq))
    return fail("not a call of map or mapSeq");
  auto* sl = m::callOf(mc->input, PatternKind::Slide);
  if (!sl) return fail("the input of the map is not a slide");
  arith::Expr n = sl->size(0), st = sl->size(1);
  if (!n.isCst() || !st.isCst())
    return fail("the window size {} and step {} must be constants (the window is kept in registers)", str(n),
                str(st));
  if (containsPattern(mc->f, {PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl}))
    return fail("the function contains parallel maps, which cannot run inside a sequential loop");
  ir::PatternNode::Params ps;
  ps.funs = {mc->f};
  ps.sizes = {n, st};
  return Outcome::ok(
      m::call(ir::PatternNode::make(PatternKind::MapSeqSlide, std::move(ps)), {m::arg(mc->input, 0)}));
}

// ----- end issue 16: mapSeqSlide --------------------------------------------------------------

}  // namespace

void registerStencilRules(RuleRegistry& reg) {
  Rule t = makeRule("slide-tiling", Family::Stencil, "Slide over overlapping tiles, then within each tile.",
                    "slide(n, s)", "join o map(slide(n, s)) o slide(v + n - s, v)", {PatternKind::Slide},
                    slideTiling, "slideTiling");
  t.params = {{"v", ParamKind::Factor, "tile step (a multiple of s)", "4", {}}};
  t.candidates = [](const Site& s) { return tileCandidates(s, s.expr()); };
  reg.add(std::move(t));
  Rule st = makeRule("stencil-tiling", Family::Stencil,
                     "Compute a stencil tile by tile: each tile's windows are mapped separately.",
                     "map(f) o slide(n, s)",
                     "join o map(tile => map(f) o slide(n, s) $ tile) o slide(v + n - s, v)",
                     {PatternKind::Map}, stencilTiling, "tileStencils");
  st.params = {{"v", ParamKind::Factor, "tile step (a multiple of s)", "4", {}}};
  st.candidates = [](const Site& s) {
    auto mc = m::mapCall(s.expr(), PatternKind::Map);
    return mc ? tileCandidates(s, mc->input) : std::vector<ParamValues>{};
  };
  reg.add(std::move(st));
  reg.add(makeRule("slide-split", Family::Stencil, "Windows that neither overlap nor leave gaps are chunks.",
                   "slide(n, n)", "split(n)", {PatternKind::Slide}, slideSplit));
  using K = PatternKind;
  reg.add(makeRule("slide-promotion", Family::Stencil,
                   "Slide over the rows before joining them (Lift's slidePromotion).",
                   "slide(u, v) o map(join)", "map(map(join)) o slide(u, v)", {K::Slide}, slidePromotion,
                   "slidePromotion"));
  reg.add(makeRule("slide-swap", Family::Stencil,
                   "Slide over the outer dimension before sliding the inner ones (Lift's slideSwap).",
                   "slide(u, v) o map(map(slide(n, s)))", "map(map(map(slide(n, s)))) o slide(u, v)",
                   {K::Slide}, slideSwap, "slideSwap"));
  reg.add(makeRule(
      "transpose-swap", Family::Stencil,
      "Transpose two levels further down after transposing above them (Lift's transposeSwap).",
      "map(map(map(transpose))) o map(transpose)", "map(transpose) o map(map(map(transpose)))", {K::Map},
      [](const Site& s, const ParamValues&) { return deepSwapTranspose(s, K::Transpose); }, "transposeSwap"));
  reg.add(makeRule(
      "slide-transpose-swap", Family::Stencil,
      "Slide two levels further down before transposing above them (Lift's slideTransposeSwap).",
      "map(map(map(slide(u, v)))) o map(transpose)", "map(transpose) o map(map(map(slide(u, v))))", {K::Map},
      [](const Site& s, const ParamValues&) { return deepSwapTranspose(s, K::Slide); },
      "slideTransposeSwap"));
  reg.add(makeRule("slide-transpose-reordering", Family::Stencil,
                   "Slide the rows' elements before transposing (Lift's slideTransposeReordering).",
                   "map(slide(u, v)) o map(transpose)",
                   "map(map(transpose)) o map(transpose) o map(map(slide(u, v)))", {K::Map},
                   slideTransposeReordering, "slideTransposeReordering"));
  Rule t2 = makeRule(
      "tile-slide-2d", Family::Stencil,
      "2-D neighbourhoods tile by tile: overlapping v + n - s square tiles, then the windows of "
      "each, put back in place (Lift's tileSlide2D).",
      "slide2D(n, s)", "map(join) o join o map(transpose) o map(map(slide2D(n, s))) o slide2D(v + n - s, v)",
      {K::Map}, tileSlide2D, "tileSlide2D");
  t2.params = {{"v", ParamKind::Factor, "tile step in both dimensions (a multiple of s)", "4", {}}};
  t2.candidates = [](const Site& s) { return tile2DCandidates(s, s.expr()); };
  reg.add(std::move(t2));
  Rule s2 =
      makeRule("tile-2d-stencils", Family::Stencil,
               "Compute a 2-D stencil tile by tile: each tile's neighbourhoods are mapped separately "
               "(Lift's tile2DStencils).",
               "map(map(f)) o slide2D(n, s)",
               "map(join) o join o map(transpose) o map(map(tile => map(map(f)) o slide2D(n, s) $ tile)) o "
               "slide2D(v + n - s, v)",
               {K::Map}, tile2DStencils, "tile2DStencils");
  s2.params = {{"v", ParamKind::Factor, "tile step in both dimensions (a multiple of s)", "4", {}}};
  s2.candidates = [](const Site& s) {
    auto mc = m::mapCall(s.expr(), PatternKind::Map);
    return mc ? tile2DCandidates(s, mc->input) : std::vector<ParamValues>{};
  };
  reg.add(std::move(s2));
  // ----- issue 16: mapSeqSlide -----
  reg.add(makeRule("map-seq-slide", Family::Stencil,
                   "Compute the windows one after the other, the window kept in registers and shifted by "
                   "the step, each element loaded once (Lift's mapSeqSlide).",
                   "map(f) o slide(n, s)", "mapSeqSlide(n, s, f)", {K::Map, K::MapSeq}, mapSeqSlide,
                   "mapSeqSlide, mapSeqSlideSeq"));
}

}  // namespace lift::rewrite
