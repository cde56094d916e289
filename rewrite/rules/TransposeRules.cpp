// Transpose movement and other data-layout reordering (Lift Rules.scala): transpositions,
// splits, joins and permutations (gather, scatter: Lift transposeMapTransposeReorder,
// reorderTranspose) move past each other and past element-wise maps, and transpose o transpose
// cancels (003 step 6).
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

bool is2D(Type t) { return t && t.isArray() && t.elem().isArray(); }

Expr mapOf(const Fun& f, Expr in) { return m::callMap(PatternKind::Map, f, std::move(in)); }

Outcome transposeTransposeId(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Transpose)) return fail("not a call of transpose");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::Transpose)) return fail("the input of the transpose is not a transpose");
  return Outcome::ok(m::arg(in, 0));
}

Outcome idTransposeTranspose(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Id)) return fail("not a call of id");
  const Expr& in = m::arg(s.expr(), 0);
  if (!is2D(typeAt(s, in))) return fail("the input of the id is not a two-dimensional array");
  return Outcome::ok(m::callTranspose(m::callTranspose(in)));
}

// map(gather(f) o transpose) o transpose  =>  map(transpose) o transpose o map(map(gather(f)))
Outcome transposeMapTransposeReorder(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  if (!m::callOf(mc->input, PatternKind::Transpose)) return fail("the input of the map is not a transpose");
  m::Unary u = m::unary(mc->f);
  if (!m::callOf(u.body, PatternKind::Gather))
    return fail("the map's function is not a gather of a transpose");
  const Expr& t = m::arg(u.body, 0);
  if (!m::callOf(t, PatternKind::Transpose) || ir::asParam(m::arg(t, 0)) != u.param.get())
    return fail("the gather in the map's function does not permute the transposed element");
  Fun gather = ir::asCall(u.body)->fun();
  Expr x = m::arg(mc->input, 0);
  Expr inner = mapOf(ir::map(gather), x);
  return Outcome::ok(mapOf(m::transposeFun(), m::callTranspose(inner)));
}

// transpose o scatter(f)  =>  map(scatter(f)) o transpose
Outcome reorderTranspose(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Transpose)) return fail("not a call of transpose");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::Scatter)) return fail("the input of the transpose is not a scatter");
  return Outcome::ok(mapOf(ir::asCall(in)->fun(), m::callTranspose(m::arg(in, 0))));
}

// map(split(n)) o transpose  =>  transpose o map(transpose) o split(n)
Outcome mapSplitTranspose(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  const ir::PatternNode* sp = mc ? functionAsPattern(mc->f, PatternKind::Split) : nullptr;
  if (!sp) return fail("not a map of split");
  if (!m::callOf(mc->input, PatternKind::Transpose)) return fail("the input of the map is not a transpose");
  Expr x = m::arg(mc->input, 0);
  return Outcome::ok(m::callTranspose(mapOf(m::transposeFun(), m::callSplit(sp->size(), x))));
}

// map(transpose) o split(n)  =>  transpose o map(split(n)) o transpose
Outcome mapTransposeSplit(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc || !functionAsPattern(mc->f, PatternKind::Transpose)) return fail("not a map of transpose");
  auto* sp = m::callOf(mc->input, PatternKind::Split);
  if (!sp) return fail("the input of the map is not a split");
  Expr x = m::arg(mc->input, 0);
  if (!is2D(typeAt(s, x))) return fail("the split array is not two-dimensional");
  return Outcome::ok(m::callTranspose(mapOf(m::splitFun(sp->size()), m::callTranspose(x))));
}

// transpose o map(split(n))  =>  map(transpose) o split(n) o transpose
Outcome transposeMapSplit(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Transpose)) return fail("not a call of transpose");
  auto mc = m::mapCall(m::arg(s.expr(), 0), PatternKind::Map);
  const ir::PatternNode* sp = mc ? functionAsPattern(mc->f, PatternKind::Split) : nullptr;
  if (!sp) return fail("the input of the transpose is not a map of split");
  return Outcome::ok(mapOf(m::transposeFun(), m::callSplit(sp->size(), m::callTranspose(mc->input))));
}

// split(n) o transpose  =>  map(transpose) o transpose o map(split(n))
Outcome splitTranspose(const Site& s, const ParamValues&) {
  auto* sp = m::callOf(s.expr(), PatternKind::Split);
  if (!sp) return fail("not a call of split");
  const Expr& in = m::arg(s.expr(), 0);
  if (!m::callOf(in, PatternKind::Transpose)) return fail("the input of the split is not a transpose");
  Expr x = m::arg(in, 0);
  return Outcome::ok(mapOf(m::transposeFun(), m::callTranspose(mapOf(m::splitFun(sp->size()), x))));
}

// map(transpose) o transpose o map(transpose)  =>  transpose o map(transpose) o transpose
Outcome mapTransposeTransposeMapTranspose(const Site& s, const ParamValues&) {
  auto m1 = m::mapCall(s.expr(), PatternKind::Map);
  if (!m1 || !functionAsPattern(m1->f, PatternKind::Transpose)) return fail("not a map of transpose");
  if (!m::callOf(m1->input, PatternKind::Transpose)) return fail("the input of the map is not a transpose");
  auto m2 = m::mapCall(m::arg(m1->input, 0), PatternKind::Map);
  if (!m2 || !functionAsPattern(m2->f, PatternKind::Transpose))
    return fail("the transposed array is not computed by a map of transpose");
  return Outcome::ok(m::callTranspose(mapOf(m::transposeFun(), m::callTranspose(m2->input))));
}

// transpose o map(join)  =>  join o map(transpose) o transpose
Outcome transposeMapJoin(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Transpose)) return fail("not a call of transpose");
  auto mc = m::mapCall(m::arg(s.expr(), 0), PatternKind::Map);
  if (!mc || !functionAsPattern(mc->f, PatternKind::Join))
    return fail("the input of the transpose is not a map of join");
  return Outcome::ok(m::callJoin(mapOf(m::transposeFun(), m::callTranspose(mc->input))));
}

// transpose o map(map(f))  =>  map(map(f)) o transpose
Outcome transposeMapMap(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Transpose)) return fail("not a call of transpose");
  const Expr& in = m::arg(s.expr(), 0);
  auto mc = m::mapCall(in, PatternKind::Map);
  if (!mc || !functionAsMap(mc->f)) return fail("the input of the transpose is not a map of a map");
  return Outcome::ok(m::call(mc->fun, {m::callTranspose(mc->input)}));
}

// map(map(f)) o transpose  =>  transpose o map(map(f))
Outcome mapMapTransposeCommute(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc || !functionAsMap(mc->f)) return fail("not a map of a map");
  if (!m::callOf(mc->input, PatternKind::Transpose)) return fail("the input of the map is not a transpose");
  return Outcome::ok(m::callTranspose(m::call(mc->fun, {m::arg(mc->input, 0)})));
}

// join o map(map(f))  =>  map(f) o join
Outcome joinMapMap(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Join)) return fail("not a call of join");
  auto mc = m::mapCall(m::arg(s.expr(), 0), PatternKind::Map);
  std::optional<m::MapCall> inner = mc ? functionAsMap(mc->f) : std::nullopt;
  if (!inner || inner->kind() != PatternKind::Map) return fail("the input of the join is not a map of a map");
  return Outcome::ok(mapOf(inner->f, m::callJoin(mc->input)));
}

// map(f) o join  =>  join o map(map(f))
Outcome mapJoin(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  if (!m::callOf(mc->input, PatternKind::Join)) return fail("the input of the map is not a join");
  Fun inner = m::lambda1("xs", [&](Expr xs) { return mapOf(mc->f, xs); });
  return Outcome::ok(m::callJoin(mapOf(inner, m::arg(mc->input, 0))));
}

// split(n) o map(f)  =>  map(map(f)) o split(n)
Outcome splitMap(const Site& s, const ParamValues&) {
  auto* sp = m::callOf(s.expr(), PatternKind::Split);
  if (!sp) return fail("not a call of split");
  auto mc = m::mapCall(m::arg(s.expr(), 0), PatternKind::Map);
  if (!mc) return fail("the input of the split is not a map");
  Fun inner = m::lambda1("xs", [&](Expr xs) { return mapOf(mc->f, xs); });
  return Outcome::ok(mapOf(inner, m::callSplit(sp->size(), mc->input)));
}

// map(map(f)) o split(n)  =>  split(n) o map(f)
Outcome mapMapSplit(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  std::optional<m::MapCall> inner = mc ? functionAsMap(mc->f) : std::nullopt;
  if (!inner || inner->kind() != PatternKind::Map) return fail("not a map of a map");
  auto* sp = m::callOf(mc->input, PatternKind::Split);
  if (!sp) return fail("the input of the map is not a split");
  return Outcome::ok(m::callSplit(sp->size(), mapOf(inner->f, m::arg(mc->input, 0))));
}

// map(f) o gather(g)  <=>  gather(g) o map(f), and the same for scatter.
Outcome mapReorderCommute(const Site& s, PatternKind reorder) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  auto* g = m::callOf(mc->input, reorder);
  if (!g) return fail("the input of the map is not a {}", patName(reorder));
  return Outcome::ok(m::call(ir::asCall(mc->input)->fun(), {m::call(mc->fun, {m::arg(mc->input, 0)})}));
}

Outcome reorderMapCommute(const Site& s, PatternKind reorder) {
  auto* g = m::callOf(s.expr(), reorder);
  if (!g) return fail("not a call of {}", patName(reorder));
  auto mc = m::mapCall(m::arg(s.expr(), 0), PatternKind::Map);
  if (!mc) return fail("the input of the {} is not a map", patName(reorder));
  return Outcome::ok(m::call(mc->fun, {m::call(ir::asCall(s.expr())->fun(), {mc->input})}));
}

}  // namespace

void registerTransposeRules(RuleRegistry& reg) {
  using K = PatternKind;
  reg.add(makeRule("transpose-transpose-id", Family::Transpose, "Two transpositions cancel (003 step 6).",
                   "transpose o transpose", "id", {K::Transpose}, transposeTransposeId,
                   "transposeTransposeId, transposeTransposeId2"));
  reg.add(makeRule("id-transpose-transpose", Family::Transpose,
                   "Replace an id of a matrix by two transpositions (enables moving them apart).", "id",
                   "transpose o transpose", {K::Id}, idTransposeTranspose, "idTransposeTranspose"));
  reg.add(makeRule("map-split-transpose", Family::Transpose, "Move a transpose below a map of split.",
                   "map(split(n)) o transpose", "transpose o map(transpose) o split(n)", {K::Map},
                   mapSplitTranspose, "Rules.mapSplitTranspose"));
  reg.add(makeRule("map-transpose-split", Family::Transpose, "Move a split below a map of transpose.",
                   "map(transpose) o split(n)", "transpose o map(split(n)) o transpose", {K::Map},
                   mapTransposeSplit, "mapTransposeSplit"));
  reg.add(makeRule("transpose-map-split", Family::Transpose, "Move a transpose above a map of split.",
                   "transpose o map(split(n))", "map(transpose) o split(n) o transpose", {K::Transpose},
                   transposeMapSplit, "Rules.transposeMapSplit"));
  reg.add(makeRule("split-transpose", Family::Transpose, "Split the rows of a matrix before transposing it.",
                   "split(n) o transpose", "map(transpose) o transpose o map(split(n))", {K::Split},
                   splitTranspose, "splitTranspose"));
  reg.add(makeRule("map-transpose-transpose-map-transpose", Family::Transpose,
                   "Exchange the roles of transposes in a three-dimensional reordering.",
                   "map(transpose) o transpose o map(transpose)", "transpose o map(transpose) o transpose",
                   {K::Map}, mapTransposeTransposeMapTranspose, "Rules.mapTransposeTransposeMapTranspose"));
  reg.add(makeRule("transpose-map-join", Family::Transpose, "Move a transpose below a map of join.",
                   "transpose o map(join)", "join o map(transpose) o transpose", {K::Transpose},
                   transposeMapJoin, "transposeMapJoinReordering"));
  reg.add(makeRule("transpose-map-map", Family::Transpose,
                   "An element-wise map of maps commutes with transposition.", "transpose o map(map(f))",
                   "map(map(f)) o transpose", {K::Transpose}, transposeMapMap, "transposeMapMapNoFission"));
  reg.add(makeRule("map-map-transpose-commute", Family::Transpose,
                   "An element-wise map of maps commutes with transposition.", "map(map(f)) o transpose",
                   "transpose o map(map(f))", {K::Map}, mapMapTransposeCommute));
  reg.add(makeRule("join-map-map", Family::Transpose, "Map over the joined array instead of over each row.",
                   "join o map(map(f))", "map(f) o join", {K::Join}, joinMapMap, "joinSwap"));
  reg.add(makeRule("map-join", Family::Transpose, "Map over each row before joining.", "map(f) o join",
                   "join o map(map(f))", {K::Map}, mapJoin, "movingJoin"));
  reg.add(makeRule("split-map", Family::Transpose, "Split before mapping, mapping over each chunk.",
                   "split(n) o map(f)", "map(map(f)) o split(n)", {K::Split}, splitMap, "movingSplit"));
  reg.add(makeRule("map-map-split", Family::Transpose, "Map before splitting.", "map(map(f)) o split(n)",
                   "split(n) o map(f)", {K::Map}, mapMapSplit));
  reg.add(makeRule("map-gather-commute", Family::Transpose, "An element-wise map commutes with a gather.",
                   "map(f) o gather(g)", "gather(g) o map(f)", {K::Map},
                   [](const Site& s, const ParamValues&) { return mapReorderCommute(s, K::Gather); }));
  reg.add(makeRule("gather-map-commute", Family::Transpose, "A gather commutes with an element-wise map.",
                   "gather(g) o map(f)", "map(f) o gather(g)", {K::Gather},
                   [](const Site& s, const ParamValues&) { return reorderMapCommute(s, K::Gather); }));
  reg.add(makeRule("map-scatter-commute", Family::Transpose, "An element-wise map commutes with a scatter.",
                   "map(f) o scatter(g)", "scatter(g) o map(f)", {K::Map},
                   [](const Site& s, const ParamValues&) { return mapReorderCommute(s, K::Scatter); }));
  reg.add(makeRule("scatter-map-commute", Family::Transpose, "A scatter commutes with an element-wise map.",
                   "scatter(g) o map(f)", "map(f) o scatter(g)", {K::Scatter},
                   [](const Site& s, const ParamValues&) { return reorderMapCommute(s, K::Scatter); }));
  reg.add(makeRule("transpose-map-transpose-reorder", Family::Transpose,
                   "Permute the innermost rows before the transpositions instead of after them.",
                   "map(gather(f) o transpose) o transpose",
                   "map(transpose) o transpose o map(map(gather(f)))", {K::Map}, transposeMapTransposeReorder,
                   "transposeMapTransposeReorder"));
  reg.add(makeRule("reorder-transpose", Family::Transpose,
                   "Permute the rows of the transposed array instead of the array before transposing it.",
                   "transpose o scatter(f)", "map(scatter(f)) o transpose", {K::Transpose}, reorderTranspose,
                   "reorderTranspose"));
}

}  // namespace lift::rewrite
