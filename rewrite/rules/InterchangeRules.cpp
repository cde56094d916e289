// Interchange rules (Lift InterchangeRules.scala; 003 steps 2, 4 and 5): swap nested maps, or a
// map and a reduction, transposing the data so that the result stays the same; and tile-reduction
// (Lift ReuseRules.scala finishTiling, MacroRules.scala moveReduceOutOneLevel), which moves the
// reduction of a tile of dot products, tiled over its length, outside the maps over the tile's
// elements, so that each step of that reduction reads one pair of tiles (which the copy rules
// can then place in local memory) and updates the whole result tile; tile-reduction-blocked does
// the same with the tile's elements in register blocks. Also Lift's mapMapTransposeZipOutside (the
// inner map runs over a component of a zipped element) and mapReducePartialReduce (a map of
// reductions of chunked partial reductions becomes one reduction over the chunks of all rows).
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// map(fun(a => map(fun(b => F) $ B) $ A)  =>  transpose $ map(fun(b => map(fun(a => F) $ A) $ B)
Outcome mapMapInterchange(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto* l = ir::asLambda(outer->f);
  if (!l || l->params().size() != 1) return fail("the function of the map is not a lambda of one parameter");
  const ir::Param& a = l->params()[0];
  auto inner = m::mapCall(l->body(), PatternKind::Map);
  if (!inner) return fail("the body of the outer map is not a map");
  if (m::mentions(inner->input, a.get()))
    return fail(
        "the inner map's input depends on the outer map's element (transpose-both-sides handles "
        "map(map(f)))");
  m::Unary b = m::unary(inner->f, "b");
  Fun newInner = ir::LambdaNode::make({a}, b.body);
  Fun newOuter = ir::LambdaNode::make({b.param}, m::callMap(PatternKind::Map, newInner, outer->input));
  return Outcome::ok(m::callTranspose(m::callMap(PatternKind::Map, newOuter, inner->input)));
}

// map(map(f)) $ A  =>  transpose $ map(map(f)) $ transpose(A)
Outcome mapMapTranspose(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  if (auto* p = ir::asPattern(outer->f); p && p->pattern() == PatternKind::Map) {
    // map(map(g)) written without a lambda
  } else {
    auto* l = ir::asLambda(outer->f);
    if (!l || l->params().size() != 1) return fail("the function of the map is not a map");
    auto inner = m::mapCall(l->body(), PatternKind::Map);
    if (!inner || inner->input != l->params()[0])
      return fail("the body of the outer map is not a map over its element");
    if (m::mentions(inner->f, l->params()[0].get()))
      return fail("the inner map's function uses the outer element");
  }
  Type t = typeAt(s, outer->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray()) return fail("the input is not a two-dimensional array");
  return Outcome::ok(m::callTranspose(m::call(outer->fun, {m::callTranspose(outer->input)})));
}

// map(fun(a => map(f) $ zip(..., a, ...)) $ A  with the other zipped arrays independent of a
//   =>  transpose $ map(fun(q => map(fun(x => f(..., x, ...)) $ q._i) $ zip(..., transpose(A), ...)
Outcome mapMapTransposeZip(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto* l = ir::asLambda(outer->f);
  if (!l || l->params().size() != 1) return fail("the function of the map is not a lambda of one parameter");
  const ir::ParamNode* a = l->params()[0].get();
  auto inner = m::mapCall(l->body(), PatternKind::Map);
  if (!inner) return fail("the body of the outer map is not a map");
  if (!m::callOf(inner->input, PatternKind::Zip)) return fail("the inner map's input is not a zip");
  if (m::mentions(inner->f, a)) return fail("the inner map's function uses the outer element");
  auto* zip = ir::asCall(inner->input);
  int ia = -1;
  for (size_t i = 0; i < zip->args().size(); ++i) {
    const Expr& z = zip->args()[i];
    if (z.get() == a) {
      if (ia >= 0) return fail("the outer element is zipped more than once");
      ia = static_cast<int>(i);
    } else if (m::mentions(z, a)) {
      return fail("a zipped array other than the outer element depends on it");
    }
  }
  if (ia < 0) return fail("the outer element is not one of the zipped arrays");
  Type t = typeAt(s, outer->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray()) return fail("the input is not a two-dimensional array");
  std::vector<Expr> zipArgs = zip->args();
  zipArgs[static_cast<size_t>(ia)] = m::callTranspose(outer->input);
  size_t n = zipArgs.size();
  Fun f = m::lambda1("q", [&](Expr q) {
    Fun g = m::lambda1("x", [&](Expr x) {
      std::vector<Expr> comps;
      for (size_t j = 0; j < n; ++j)
        comps.push_back(static_cast<int>(j) == ia ? x : m::callGet(static_cast<int>(j), q));
      return applyToTuple(inner->f, std::move(comps));
    });
    return m::callMap(PatternKind::Map, g, m::callGet(ia, q));
  });
  return Outcome::ok(m::callTranspose(m::callMap(PatternKind::Map, f, m::callZip(std::move(zipArgs)))));
}

// map(fun(x => map(fun(a => E) $ x._n)) $ zip(.., A, ..)
//   =>  transpose $ map(fun(y => map(fun(q => E[x._k := q._k, a := q._n]) $ zip(.., y, ..))) $ transpose(A)
Outcome mapMapTransposeZipOutside(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  if (!m::callOf(outer->input, PatternKind::Zip)) return fail("the input of the map is not a zip");
  auto* l = ir::asLambda(outer->f);
  if (!l || l->params().size() != 1) return fail("the function of the map is not a lambda of one parameter");
  const ir::ParamNode* x = l->params()[0].get();
  auto inner = m::mapCall(l->body(), PatternKind::Map);
  if (!inner) return fail("the body of the outer map is not a map");
  auto* g = m::callOf(inner->input, PatternKind::Get);
  if (!g || ir::asParam(m::arg(inner->input, 0)) != x)
    return fail("the inner map does not run over a component of the zipped element");
  if (!usedOnlyThroughGet(l->body(), x))
    return fail("the zipped element '{}' is not only used through its components (get)", x->name());
  const auto& zipArgs = ir::asCall(outer->input)->args();
  int n = g->index();
  if (componentUses(l->body(), x, static_cast<int>(zipArgs.size()))[static_cast<size_t>(n)] != 1)
    return fail("component {} of the element is used outside the inner map's input", n);
  Type t = typeAt(s, zipArgs[static_cast<size_t>(n)]);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray())
    return fail("the array the inner map runs over is not two-dimensional");
  m::Unary a = m::unary(inner->f, "a");
  ir::Param q = ir::param("q");
  ir::Param y = ir::param("y");
  Expr body = replaceComponents(a.body, x, [&](int k) { return m::callGet(k, q); });
  body = ir::substitute(body, {{a.param.get(), m::callGet(n, q)}});
  std::vector<Expr> newArgs = zipArgs;
  newArgs[static_cast<size_t>(n)] = y;
  Fun f =
      ir::lambda({y}, m::callMap(PatternKind::Map, ir::lambda({q}, body), m::callZip(std::move(newArgs))));
  return Outcome::ok(
      m::callTranspose(m::callMap(PatternKind::Map, f, m::callTranspose(zipArgs[static_cast<size_t>(n)]))));
}

// map(fun(r => reduceSeq(f, z) o join o map(partRed(f, z, m)) $ r)) $ X, with chunks of m elements
//   =>  transpose o reduceSeq(fun((acc, c) => join o map(fun(p => partRed(f, p._0, m) $ p._1)) $
//       zip(acc, c)), [z, ..., z]) o transpose $ X
Outcome mapReducePartialReduce(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  m::Unary u = m::unary(outer->f, "r");
  auto red = m::reduceCall(u.body, PatternKind::ReduceSeq);
  if (!red) return fail("the map's body is not a reduceSeq");
  auto* init = ir::asLiteral(red->init);
  if (!init)
    return fail("the initial value of the reduction is not a constant (it is repeated for each row)");
  if (!m::callOf(red->input, PatternKind::Join)) return fail("the reduction's input is not a join");
  auto parts = m::mapCall(m::arg(red->input, 0), PatternKind::Map);
  if (!parts || parts->input.get() != u.param.get())
    return fail("the join's input is not a map over the row '{}'", u.param->name());
  auto pr = m::reduceFun(parts->f);
  if (!pr || pr->kind() != PatternKind::PartRed)
    return fail("the map over the row's chunks is not a partRed");
  if (!ir::alphaEqual(pr->f, red->f))
    return fail("the partRed and the reduceSeq combine with different functions");
  auto* init2 = ir::asLiteral(pr->init);
  if (!init2 || init2->text() != init->text())
    return fail("the partRed and the reduceSeq start from different values");
  if (m::mentions(red->f, u.param.get())) return fail("the reduction's operator uses the row");
  std::string why = partialReductionProblem(red->f, red->init, false);
  if (!why.empty()) return Outcome::fail(why);
  Type t = typeAt(s, outer->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray() || !t.elem().elem().isArray())
    return fail("the input is not an array of rows of chunks");
  if (t.elem().elem().length() != pr->pattern->size())
    return fail("the partRed's parts ({}) are not the chunks ({})", str(pr->pattern->size()),
                str(t.elem().elem().length()));
  if (s.variesPerIteration(t.length()))
    return fail("the number of rows changes from one iteration of the enclosing iterate to the next");
  std::vector<arith::Expr> sizes = pr->pattern->params().sizes;
  Fun step = m::lambda2("acc", "c", [&](Expr acc, Expr c) {
    Fun chunk = m::lambda1("p", [&](Expr p) {
      return m::callReduce(PatternKind::PartRed, red->f, m::callGet(0, p), m::callGet(1, p), sizes);
    });
    return m::callJoin(m::callMap(PatternKind::Map, chunk, m::callZip({acc, c})));
  });
  Expr inits = ir::LiteralNode::make(init->text(), Type::array(init->type(), t.length()));
  return Outcome::ok(
      m::callTranspose(m::callReduce(PatternKind::ReduceSeq, step, inits, m::callTranspose(outer->input))));
}

// The element-wise operator for the interchanged reduction: map(f) over zip(acc, x).
Fun elementWise(const Fun& f) {
  Fun g = f;
  auto* u = ir::asUserFun(f);
  if (!u || u->def().params.size() != 2)
    g = m::lambda1("p", [&](Expr p) { return applyToTuple(f, {m::callGet(0, p), m::callGet(1, p)}); });
  return m::lambda2("acc", "x", [&](Expr acc, Expr x) {
    return m::callMap(PatternKind::Map, g, m::callZip({acc, x}));
  });
}

// map(reduce(f, z)) $ A  =>  transpose $ reduce(fun((acc, x) => map(f) $ zip(acc, x)), [z, ..., z]) $
// transpose(A)
Outcome mapReduceInterchange(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto rf = m::reduceFun(outer->f);
  if (!rf || !m::isReduction(rf->kind()))
    return fail("the function of the map is not a reduction reduce(f, z)");
  auto* lit = ir::asLiteral(rf->init);
  if (!lit) return fail("the initial value of the reduction is not a constant (it is repeated for each row)");
  Type t = typeAt(s, outer->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray()) return fail("the input is not a two-dimensional array");
  if (s.variesPerIteration(t.length()))
    return fail("the number of rows changes from one iteration of the enclosing iterate to the next");
  Expr inits = ir::LiteralNode::make(lit->text(), Type::array(lit->type(), t.length()));
  return Outcome::ok(
      m::callTranspose(m::callReduce(rf->kind(), elementWise(rf->f), inits, m::callTranspose(outer->input))));
}

// map(fun(p => reduce(f, p._i) $ p._j)) $ zip(X0, X1)  =>  transpose $ reduce(map(f) o zip, Xi) $
// transpose(Xj)
Outcome mapReduceInterchangeZip(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return fail("not a call of map");
  auto* l = ir::asLambda(outer->f);
  if (!l || l->params().size() != 1) return fail("the function of the map is not a lambda of one parameter");
  const ir::ParamNode* p = l->params()[0].get();
  auto r = m::reduceCall(l->body());
  if (!r || !m::isReduction(r->kind())) return fail("the body of the map is not a reduction");
  auto* gi = m::callOf(r->init, PatternKind::Get);
  auto* gj = m::callOf(r->input, PatternKind::Get);
  if (!gi || !gj || m::arg(r->init, 0).get() != p || m::arg(r->input, 0).get() != p ||
      gi->index() == gj->index())
    return fail("the reduction does not start from one component of the element and reduce the other");
  if (m::mentions(r->f, p)) return fail("the reduction's operator uses the element");
  if (!m::callOf(outer->input, PatternKind::Zip) || m::argCount(outer->input) != 2)
    return fail("the input of the map is not a zip of two arrays");
  Expr inits = m::arg(outer->input, static_cast<size_t>(gi->index()));
  Expr rows = m::arg(outer->input, static_cast<size_t>(gj->index()));
  Type t = typeAt(s, rows);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray())
    return fail("the reduced component is not a two-dimensional array");
  return Outcome::ok(
      m::callTranspose(m::callReduce(r->kind(), elementWise(r->f), inits, m::callTranspose(rows))));
}

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

// The site of tile-reduction and tile-reduction-blocked:
// map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At, with At's rows (of length
// len) and Bt's rows to be cut into tiles of k along the reduction.
struct TileSite {
  m::MapCall outer, inner;
  TileBody body;
  Type rowsA, rowsB;  // the types of At and Bt
  arith::Expr k;
};

std::optional<TileSite> tileSite(const Site& s, const ParamValues& pv, Outcome& why) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  if (!outer) return why = fail("not a call of map"), std::nullopt;
  auto* la = ir::asLambda(outer->f);
  if (!la || la->params().size() != 1)
    return why = fail("the function of the map is not a lambda of one parameter"), std::nullopt;
  const ir::ParamNode* a = la->params()[0].get();
  auto inner = m::mapCall(la->body(), PatternKind::Map);
  if (!inner) return why = fail("the body of the outer map is not a map"), std::nullopt;
  if (m::mentions(inner->input, a))
    return why = fail("the inner map's input depends on the outer map's element"), std::nullopt;
  auto* lb = ir::asLambda(inner->f);
  if (!lb || lb->params().size() != 1)
    return why = fail("the function of the inner map is not a lambda of one parameter"), std::nullopt;
  std::string problem;
  auto body = tileBody(lb->body(), la->params()[0].get(), lb->params()[0].get(), problem);
  if (!body) return why = Outcome::fail(problem), std::nullopt;

  Type ta = typeAt(s, outer->input), tb = typeAt(s, inner->input);
  if (!ta || !tb) return why = unknownType(s), std::nullopt;
  if (!ta.isArray() || !ta.elem().isArray() || !tb.isArray() || !tb.elem().isArray())
    return why = fail("the maps' inputs are not two-dimensional arrays"), std::nullopt;
  arith::Expr len = ta.elem().length();
  for (arith::Expr e : {ta.length(), tb.length(), len})
    if (s.variesPerIteration(e))
      return why = fail("the lengths change from one iteration of the enclosing iterate to the next"),
             std::nullopt;
  arith::Expr k = pv.factor("k", *s.program);
  if (!arith::provablyDivisible(len, k))
    return why = fail("the tile length {} does not provably divide the reduced length {}", str(k), str(len)),
           std::nullopt;
  return TileSite{*outer, *inner, *body, ta, tb, k};
}

// The pairs of k-tiles of At's and Bt's rows the tiled reduction steps through:
// zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt).
Expr tilePairs(const TileSite& t) {
  auto tiles = [&](const Expr& rows) {
    return m::callTranspose(m::callMap(PatternKind::Map, m::splitFun(t.k), rows));
  };
  return m::callZip({tiles(t.outer.input), tiles(t.inner.input)});
}

// map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At
//   =>  join o reduce((acc, tiles) =>
//          map((accRow, a) => map((c, b) => join o map(s => reduce(f, s) o map(g) $ zip(a, b)) $ c)
//                               $ zip(accRow, get(1, tiles))) $ zip(acc, get(0, tiles)),
//        [[[z]1]n]m) $ zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt)
// Each step continues every element's fold from its value so far, so the result is the original
// left fold for any f (no associativity needed).
Outcome tileReduction(const Site& s, const ParamValues& pv) {
  Outcome why;
  auto t = tileSite(s, pv, why);
  if (!t) return why;
  const TileBody& body = t->body;
  Type accType = Type::array(Type::array(Type::array(body.init->type(), arith::cst(1)), t->rowsB.length()),
                             t->rowsA.length());
  Expr acc0 = ir::LiteralNode::make(body.init->text(), accType);
  PatternKind kind = body.reduce.kind();
  Fun step = m::lambda2("acc", "tiles", [&](Expr acc, Expr ts) {
    Fun row = m::lambda2("accRow", "a", [&](Expr accRow, Expr ra) {
      Fun elem = m::lambda2("c", "b", [&](Expr c, Expr cb) {
        Fun cont = m::lambda1("s", [&](Expr sofar) {
          Expr zipped = body.aFirst ? m::callZip({ra, cb}) : m::callZip({cb, ra});
          Expr in = body.map ? m::callMap(PatternKind::Map, body.map->f, zipped) : zipped;
          return m::callReduce(kind, body.reduce.f, sofar, in);
        });
        return m::callJoin(m::callMap(PatternKind::Map, cont, c));
      });
      return m::callMap(PatternKind::Map, elem, m::callZip({accRow, m::callGet(1, ts)}));
    });
    return m::callMap(PatternKind::Map, row, m::callZip({acc, m::callGet(0, ts)}));
  });
  return Outcome::ok(m::callJoin(m::callReduce(kind, step, acc0, tilePairs(*t))));
}

// tile-reduction with the tile's elements in x-by-y blocks, each block's accumulators updated
// together from one column of the block's x rows of A and one of its y columns of B (Lift
// apply2DRegisterBlocking before moveReduceOutOneLevel):
// map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At
//   =>  OUT o join o reduce((acc, tiles) =>
//          map((accRow, as) => map((blk, bs) =>
//              join o reduce((blk2, ab) =>
//                  map((blkRow, a) => map((c, b) => f(c, g(a, b))) $ zip(blkRow, get(1, ab)))
//                    $ zip(blk2, get(0, ab)),
//                blk) $ zip(transpose(as), transpose(bs)))
//            $ zip(accRow, BLOCKS(y) $ get(1, tiles))) $ zip(acc, BLOCKS(x) $ get(0, tiles)),
//        [[[[z]y]x]n/y]m/x) $ zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt)
// The accumulator holds the result in blocks ([m/x][n/y][x][y]). With blocks=contiguous, block i
// has the rows i*x .. i*x+x-1 (BLOCKS(x) = split(x), OUT = map(split(1) o join) o join o
// map(transpose)); with blocks=strided (GPUs: neighbouring work-items read neighbouring rows and
// columns, without bank conflicts) the rows i, i + m/x, ... (BLOCKS(x) = transpose o split(m/x),
// OUT = map(split(1) o join o transpose) o join o transpose o map(transpose)). Strided blocks
// take their columns in runs of w side by side (a vector's width, so that a work-item reads its
// columns of a local tile as vectors): BLOCKS(y) = map(join) o transpose o split(n/y) o split(w),
// and OUT's row function is split(1) o join o join o transpose o map(split(w)) (w = 1: as above).
// Every element is still the left fold of f over its products in order, so any f is allowed.
Outcome tileReductionBlocked(const Site& s, const ParamValues& pv) {
  Outcome why;
  auto t = tileSite(s, pv, why);
  if (!t) return why;
  const TileBody& body = t->body;
  arith::Expr x = pv.factor("x", *s.program), y = pv.factor("y", *s.program);
  arith::Expr m = t->rowsA.length(), n = t->rowsB.length();
  bool strided = pv.text("blocks") == "strided";
  int64_t w = strided ? pv.integer("w") : 1;
  // The x (or y) rows a block takes from a tile's m rows, in runs of `run`.
  auto blocksOf = [&](arith::Expr b, arith::Expr len, Expr rows, int64_t run) {
    if (!strided) return m::callSplit(b, rows);
    if (run == 1) return m::callTranspose(m::callSplit(len / b, rows));
    Expr runs = m::callTranspose(m::callSplit(len / b, m::callSplit(arith::cst(run), rows)));
    return m::callMap(PatternKind::Map, m::joinFun(), runs);
  };
  if (w < 1 || !arith::provablyDivisible(y, arith::cst(w)))
    return fail("the run of columns {} does not divide the block columns {}", w, str(y));
  if (!arith::provablyDivisible(m, x))
    return fail("the block rows {} do not provably divide the rows {}", str(x), str(m));
  if (!arith::provablyDivisible(n, y))
    return fail("the block columns {} do not provably divide the columns {}", str(y), str(n));

  Type elem = body.init->type();
  Type accType = Type::array(Type::array(Type::array(Type::array(elem, y), x), n / y), m / x);
  Expr acc0 = ir::LiteralNode::make(body.init->text(), accType);
  PatternKind kind = body.reduce.kind();
  // f(c, g(a, b)), or f(c, (a, b)) for the fused form.
  auto update = [&](Expr c, Expr a, Expr b) {
    std::vector<Expr> pair = body.aFirst ? std::vector<Expr>{a, b} : std::vector<Expr>{b, a};
    Expr product = body.map ? applyToTuple(m::freshCopy(body.map->f), pair) : m::callTuple(pair);
    return simplifyGetOfTuple(m::apply(m::freshCopy(body.reduce.f), {c, product}));
  };
  Fun step = m::lambda2("acc", "tiles", [&](Expr acc, Expr ts) {
    Fun row = m::lambda2("accRow", "as", [&](Expr accRow, Expr as) {
      Fun block = m::lambda2("blk", "bs", [&](Expr blk, Expr bs) {
        Fun column = m::lambda2("blk2", "ab", [&](Expr blk2, Expr ab) {
          Fun blockRow = m::lambda2("blkRow", "a", [&](Expr blkRow, Expr a) {
            Fun one = m::lambda2("c", "b", [&](Expr c, Expr b) { return update(c, a, b); });
            return m::callMap(PatternKind::Map, one, m::callZip({blkRow, m::callGet(1, ab)}));
          });
          return m::callMap(PatternKind::Map, blockRow, m::callZip({blk2, m::callGet(0, ab)}));
        });
        return m::callJoin(
            m::callReduce(kind, column, blk, m::callZip({m::callTranspose(as), m::callTranspose(bs)})));
      });
      return m::callMap(PatternKind::Map, block, m::callZip({accRow, blocksOf(y, n, m::callGet(1, ts), w)}));
    });
    return m::callMap(PatternKind::Map, row, m::callZip({acc, blocksOf(x, m, m::callGet(0, ts), 1)}));
  });
  Expr blocks = m::callJoin(m::callReduce(kind, step, acc0, tilePairs(*t)));
  Fun splitOne = m::splitFun(arith::cst(1));
  if (!strided) {
    Expr rows = m::callJoin(m::callMap(PatternKind::Map, m::transposeFun(), blocks));
    return Outcome::ok(m::callMap(PatternKind::Map, m::compose(splitOne, m::joinFun()), rows));
  }
  Expr rows = m::callJoin(m::callTranspose(m::callMap(PatternKind::Map, m::transposeFun(), blocks)));
  Fun row = m::compose(m::joinFun(), m::transposeFun());
  if (w > 1)
    row = m::compose(m::joinFun(), m::compose(row, m::lambda1("blocks", [&](Expr b) {
                                                return m::callMap(PatternKind::Map,
                                                                  m::splitFun(arith::cst(w)), b);
                                              })));
  return Outcome::ok(m::callMap(PatternKind::Map, m::compose(splitOne, row), rows));
}

// The types of At and Bt at a site map(a => map(b => ...) $ Bt) $ At, for the candidates (At's
// must be two-dimensional, Bt's an array); nullopt elsewhere.
std::optional<std::pair<Type, Type>> tileInputTypes(const Site& s) {
  auto outer = m::mapCall(s.expr(), PatternKind::Map);
  auto* la = outer ? ir::asLambda(outer->f) : nullptr;
  auto inner = la ? m::mapCall(la->body(), PatternKind::Map) : std::nullopt;
  if (!inner) return std::nullopt;
  Type ta = typeAt(s, outer->input), tb = typeAt(s, inner->input);
  if (!ta || !tb || !ta.isArray() || !ta.elem().isArray() || !tb.isArray()) return std::nullopt;
  return std::pair{ta, tb};
}

std::vector<ParamValues> tileReductionCandidates(const Site& s) {
  auto types = tileInputTypes(s);
  if (!types) return {};
  return factorCandidates("k", types->first.elem().length(), 4);
}

// tile-reduction's tile lengths, each with the largest block of 4, 2 or 1 rows and columns that
// divides the tile and strided blocks; the first also with contiguous blocks and with runs of two
// columns.
std::vector<ParamValues> tileReductionBlockedCandidates(const Site& s) {
  auto types = tileInputTypes(s);
  std::vector<ParamValues> out =
      types ? factorCandidates("k", types->first.elem().length(), 4) : std::vector<ParamValues>{};
  if (out.empty()) return {};
  auto block = [](arith::Expr len) {
    for (int64_t b : {4, 2})
      if (arith::provablyDivisible(len, arith::cst(b))) return b;
    return int64_t{1};
  };
  int64_t bx = block(types->first.length()), by = block(types->second.length());
  for (ParamValues& pv : out) {
    pv.set("x", std::to_string(bx));
    pv.set("y", std::to_string(by));
    pv.set("blocks", "strided");
  }
  // The contiguous layout and runs of two columns once, with the first tile length.
  ParamValues contiguous = out.front(), runs = out.front();
  contiguous.set("blocks", "contiguous");
  out.insert(out.begin() + 1, contiguous);
  if (by % 2 == 0) {
    runs.set("w", "2");
    out.insert(out.begin() + 2, runs);
  }
  return out;
}

}  // namespace

void registerInterchangeRules(RuleRegistry& reg) {
  reg.add(makeRule("map-map-interchange", Family::Interchange,
                   "Swap two nested maps over independent arrays, transposing the result (003 step 2).",
                   "map(a => map(b => f(a, b)) $ B) $ A", "transpose o map(b => map(a => f(a, b)) $ A) $ B",
                   {PatternKind::Map}, mapMapInterchange, "InterchangeRules.mapMapInterchange"));
  reg.add(makeRule("map-map-transpose", Family::Interchange,
                   "Map over the columns instead of the rows: transpose both sides (003 step 5).",
                   "map(map(f))", "transpose o map(map(f)) o transpose", {PatternKind::Map}, mapMapTranspose,
                   "transposeBothSides"));
  reg.add(makeRule(
      "map-map-transpose-zip", Family::Interchange,
      "Transpose both sides when the inner map zips the row with arrays independent of it (003 step 5).",
      "map(a => map(f) $ zip(a, b)) $ A",
      "transpose o map(q => map(x => f(x, q._1)) $ q._0) $ zip(transpose(A), b)", {PatternKind::Map},
      mapMapTransposeZip, "mapMapTransposeZipInside"));
  reg.add(makeRule("map-reduce-interchange", Family::Interchange,
                   "Reduce all rows at once: a map of reductions becomes a reduction of rows (003 step 4).",
                   "map(reduce(f, z))",
                   "transpose o reduce((acc, x) => map(f) $ zip(acc, x), [z]) o transpose",
                   {PatternKind::Map}, mapReduceInterchange, "mapReduceInterchange"));
  reg.add(makeRule("map-reduce-interchange-zip", Family::Interchange,
                   "Interchange a map of reductions whose initial values come from a zipped array.",
                   "map(p => reduce(f, p._0) $ p._1) $ zip(a, b)",
                   "transpose o reduce((acc, x) => map(f) $ zip(acc, x), a) o transpose $ b",
                   {PatternKind::Map}, mapReduceInterchangeZip, "mapReduceInterchangeWithZipOutside"));
  reg.add(
      makeRule("map-map-transpose-zip-outside", Family::Interchange,
               "Swap a map over a zip and the map over one zipped component's rows, transposing that array.",
               "map(x => map(a => f(a, x._1)) $ x._0) $ zip(A, b)",
               "transpose o map(y => map(q => f(q._0, q._1)) $ zip(y, b)) o transpose $ A",
               {PatternKind::Map}, mapMapTransposeZipOutside, "mapMapTransposeZipOutside"));
  reg.add(makeRule(
      "map-reduce-partial-reduce", Family::Interchange,
      "Reduce the chunks of all rows at once: each step continues every row's reduction with its next chunk.",
      "map(r => reduceSeq(f, z) o join o map(partRed(f, z, m)) $ r)",
      "transpose o reduceSeq((acc, c) => join o map(p => partRed(f, p._0, m) $ p._1) $ zip(acc, c), [z]) "
      "o transpose",
      {PatternKind::Map}, mapReducePartialReduce, "mapReducePartialReduce"));
  Rule tile =
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
  tile.params = {{"k", ParamKind::Factor, "tile length along the reduction", "4", {}}};
  tile.candidates = tileReductionCandidates;
  reg.add(std::move(tile));
  Rule blocked = makeRule(
      "tile-reduction-blocked", Family::Interchange,
      "Tile the reduction over K as tile-reduction does, with the tile's elements in x-by-y blocks: each "
      "block's accumulators are updated together from one column of its x rows and one of its y columns "
      "per step (2-D register blocking inside the tile; Lift apply2DRegisterBlocking and "
      "moveReduceOutOneLevel).",
      "map(a => map(b => reduce(f, z) o map(g) $ zip(a, b)) $ Bt) $ At",
      "OUT o join o reduce((acc, tiles) => map((accRow, as) => map((blk, bs) => join o reduce((blk2, ab) "
      "=> map((blkRow, a) => map((c, b) => f(c, g(a, b))) $ zip(blkRow, ab._1)) $ zip(blk2, ab._0), blk) "
      "$ zip(transpose(as), transpose(bs))) $ zip(accRow, BLOCKS(y) $ tiles._1)) $ zip(acc, BLOCKS(x) $ "
      "tiles._0), [[[[z]y]x]n/y]m/x) $ zip(transpose o map(split(k)) $ At, transpose o map(split(k)) $ Bt) "
      "(strided blocks: BLOCKS(x) = transpose o split(m/x); contiguous: split(x))",
      {PatternKind::Map}, tileReductionBlocked);
  blocked.params = {
      {"k", ParamKind::Factor, "tile length along the reduction", "4", {}},
      {"x", ParamKind::Factor, "block rows (of A) per work-item", "4", {}},
      {"y", ParamKind::Factor, "block columns (of B) per work-item", "4", {}},
      {"blocks",
       ParamKind::Name,
       "which rows and columns a block takes",
       "strided",
       {"strided", "contiguous"}},
      {"w", ParamKind::Factor, "columns of a strided block side by side (a vector's width)", "1", {}}};
  blocked.candidates = tileReductionBlockedCandidates;
  reg.add(std::move(blocked));
}

}  // namespace lift::rewrite
