// Reuse rules (Lift ReuseRules.scala finishTiling, MacroRules.scala moveReduceOutOneLevel): tile
// the reduction of a tile of dot products over its length, with the reduction over the K tiles
// moved outside the maps over the tile's elements, so that each step of that reduction reads
// one pair of tiles (which the copy rules can then place in local memory) and updates the whole
// result tile.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// The dot-product-of-maps body `reduce(f, z) o map(g) $ zip(a, b)` (or, fused,
// `reduce(f, z) $ zip(a, b)`) of a map over a's and b's.
struct TileBody {
  m::ReduceCall reduce;
  std::optional<m::MapCall> map;  // absent in the fused form
  const ir::LiteralNode* init = nullptr;
  bool aFirst = true;  // zip(a, b), else zip(b, a)
};

std::optional<TileBody> tileBody(const Expr& body, const ir::ParamNode* a, const ir::ParamNode* b,
                                 std::string& why) {
  TileBody t;
  auto r = m::reduceCall(body);
  if (!r || (r->kind() != PatternKind::Reduce && r->kind() != PatternKind::ReduceSeq)) {
    why = "the body of the inner map is not a reduction (reduce or reduceSeq)";
    return std::nullopt;
  }
  t.reduce = *r;
  t.init = ir::asLiteral(r->init);
  if (!t.init) {
    why = "the initial value of the reduction is not a constant (the accumulator tile repeats it)";
    return std::nullopt;
  }
  Expr zipped = r->input;
  if (auto mc = m::mapCall(r->input, PatternKind::Map)) {
    t.map = mc;
    zipped = mc->input;
  }
  if (!m::callOf(zipped, PatternKind::Zip) || m::argCount(zipped) != 2) {
    why = "the reduction's input is not map(g) $ zip(a, b) or zip(a, b) of the two maps' elements";
    return std::nullopt;
  }
  const Expr& z0 = m::arg(zipped, 0);
  const Expr& z1 = m::arg(zipped, 1);
  if (z0.get() == a && z1.get() == b) {
    t.aFirst = true;
  } else if (z0.get() == b && z1.get() == a) {
    t.aFirst = false;
  } else {
    why = "the zipped arrays are not exactly the outer and the inner map's elements";
    return std::nullopt;
  }
  if (m::mentions(r->f, a) || m::mentions(r->f, b) ||
      (t.map && (m::mentions(t.map->f, a) || m::mentions(t.map->f, b)))) {
    why = "the reduction's operator or the map's function uses a row or a column as a whole";
    return std::nullopt;
  }
  return t;
}

// map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At
//   =>  join o reduce((acc, tiles) =>
//          map((accRow, a) => map((c, b) => join o map(s => reduce(f, s) o map(g) $ zip(a, b)) $ c)
//                               $ zip(accRow, get(1, tiles))) $ zip(acc, get(0, tiles)),
//        [[[z]1]n]m) $ zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt)
// Each step continues every element's fold from its value so far, so the result is the original
// left fold for any f (no associativity needed).
Outcome tileReduction(const Site& s, const ParamValues& pv) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto* la = ir::asLambda(outer->f);
  if (!la || la->params().size() != 1)
    return fail("the function of the map is not a lambda of one parameter");
  const ir::ParamNode* a = la->params()[0].get();
  auto inner = m::mapCall(la->body(), PatternKind::Map);
  if (!inner) return fail("the body of the outer map is not a map");
  if (m::mentions(inner->input, a)) return fail("the inner map's input depends on the outer map's element");
  auto* lb = ir::asLambda(inner->f);
  if (!lb || lb->params().size() != 1)
    return fail("the function of the inner map is not a lambda of one parameter");
  const ir::ParamNode* b = lb->params()[0].get();
  std::string why;
  auto body = tileBody(lb->body(), a, b, why);
  if (!body) return Outcome::fail(why);

  Type ta = typeAt(s, outer->input), tb = typeAt(s, inner->input);
  if (!ta || !tb) return unknownType(s);
  if (!ta.isArray() || !ta.elem().isArray() || !tb.isArray() || !tb.elem().isArray())
    return fail("the maps' inputs are not two-dimensional arrays");
  arith::Expr len = ta.elem().length();
  for (arith::Expr e : {ta.length(), tb.length(), len})
    if (s.variesPerIteration(e))
      return fail("the lengths change from one iteration of the enclosing iterate to the next");
  arith::Expr k = pv.factor("k", *s.program);
  if (!arith::provablyDivisible(len, k))
    return fail("the tile length {} does not provably divide the reduced length {}", str(k), str(len));

  Type accType =
      Type::array(Type::array(Type::array(body->init->type(), arith::cst(1)), tb.length()), ta.length());
  Expr acc0 = ir::LiteralNode::make(body->init->text(), accType);
  PatternKind kind = body->reduce.kind();
  auto tiles = [&](const Expr& rows) {
    return m::callTranspose(m::callMap(PatternKind::Map, m::splitFun(k), rows));
  };
  Fun step = m::lambda2("acc", "tiles", [&](Expr acc, Expr ts) {
    Fun row = m::lambda2("accRow", "a", [&](Expr accRow, Expr ra) {
      Fun elem = m::lambda2("c", "b", [&](Expr c, Expr cb) {
        Fun cont = m::lambda1("s", [&](Expr sofar) {
          Expr zipped = body->aFirst ? m::callZip({ra, cb}) : m::callZip({cb, ra});
          Expr in = body->map ? m::callMap(PatternKind::Map, body->map->f, zipped) : zipped;
          return m::callReduce(kind, body->reduce.f, sofar, in);
        });
        return m::callJoin(m::callMap(PatternKind::Map, cont, c));
      });
      return m::callMap(PatternKind::Map, elem, m::callZip({accRow, m::callGet(1, ts)}));
    });
    return m::callMap(PatternKind::Map, row, m::callZip({acc, m::callGet(0, ts)}));
  });
  return Outcome::ok(
      m::callJoin(m::callReduce(kind, step, acc0, m::callZip({tiles(outer->input), tiles(inner->input)}))));
}

std::vector<ParamValues> tileReductionCandidates(const Site& s) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return {};
  Type t = typeAt(s, outer->input);
  if (!t || !t.isArray() || !t.elem().isArray()) return {};
  return factorCandidates("k", t.elem().length(), 4);
}

}  // namespace

void registerReuseRules(RuleRegistry& reg) {
  Rule r =
      makeRule("tile-reduction", Family::Interchange,
               "Tile the reduction of a tile of dot products over K: a reduction over pairs of k-tiles of "
               "the rows and "
               "columns, outside the maps over the tile, whose accumulator is the whole result tile (Lift "
               "moveReduceOutOneLevel and finishTiling).",
               "map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At",
               "join o reduce((acc, tiles) => map((accRow, a) => map((c, b) => join o map(s => reduce(f, s) "
               "o map(g) $ "
               "zip(a, b)) $ c) $ zip(accRow, tiles._1)) $ zip(acc, tiles._0), [[[z]1]n]m) $ "
               "zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt)",
               {PatternKind::Map}, tileReduction);
  r.params = {{"k", ParamKind::Factor, "tile length along the reduction", "4", {}}};
  r.candidates = tileReductionCandidates;
  reg.add(std::move(r));
}

}  // namespace lift::rewrite
