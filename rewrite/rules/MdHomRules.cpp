// md_hom rules (seed 001): an md_hom as the nest of map and reduce it means and back, its input
// views as zips, and the decomposition of the homomorphism property (Proposition 1): dimension k
// split into chunks of n, the chunks' results combined with ⊛k — by ++ (a join) or by the
// reduction operator — so that the engine and the user reach 001's partitioning by rewriting.
//
// The nests are those whose ++ dimensions come first: one map per ++ dimension, then one reduce
// per reduced dimension, innermost the scalar function:
//
//   md_hom(f, (++, add)) $ pair_mv(A, v)
//     = join o map(fun(row => reduce(add, 0.0f) o map(f) $ zip(row, v))) $ A
//
//   md_hom(f, (++, ++, add)) $ pair_mm(A, B)
//     = map(join) o map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(f) $ zip(rowA, colB)))
//                                     $ transpose(B))) $ A
//
// (Lift's reduce gives an array of one element, hence the join of the last ++ dimension's parts;
// it is outside the maps, map^(d-1)(join) for d ++ dimensions, so that the maps nest directly as
// in matmul.lift and the tiling rules, tile-reduction and tile-reduction-blocked, apply to them.
// An md_hom that reduces every dimension, md_dot, expands only as the program's result, which
// becomes that array of one element.) A
// reduction needs an initial value where md_hom's combine operators have none: the operator's
// identity, which exists for the known associative operators (+, *, |, ^, &&, ||).
#include "core/ir/Build.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// ----- md_hom calls ------------------------------------------------------------------------------

struct MdHomCall {
  const ir::PatternNode* pattern = nullptr;
  Expr input;
  size_t dims() const { return pattern->params().concat.size(); }
  bool concat(size_t k) const { return pattern->params().concat[k]; }
  const Fun& f() const { return pattern->params().funs.at(0); }
  // The combine operator of dimension k (0: outermost); null for ++.
  Fun op(size_t k) const {
    const auto& ps = pattern->params();
    if (ps.concat[k]) return nullptr;
    size_t i = 1;
    for (size_t j = 0; j < k; ++j) i += ps.concat[j] ? 0 : 1;
    return ps.funs.at(i);
  }
};

std::optional<MdHomCall> mdHomCall(const Expr& e) {
  auto* p = m::callOf(e, PatternKind::MdHom);
  if (!p || m::argCount(e) != 1) return std::nullopt;
  return MdHomCall{p, m::arg(e, 0)};
}

// "(++, add)": the operators as written.
std::string operatorList(const MdHomCall& c) {
  std::string s;
  for (size_t k = 0; k < c.dims(); ++k) {
    std::string name = "++";
    if (Fun op = c.op(k)) {
      auto* u = ir::asUserFun(op);
      name = u ? u->def().name : "λ";
    }
    s += (k ? ", " : "") + name;
  }
  return "(" + s + ")";
}

// The dimensions of a view: pair_vv 1, pair_mv 2, pair_mm 3.
size_t viewDims(PatternKind k) { return k == PatternKind::PairVV ? 1 : k == PatternKind::PairMV ? 2 : 3; }

// g applied at depth `depth` of an array: g, map(g), map(map(g)), ...
Fun atDepth(Fun g, size_t depth) {
  for (size_t i = 0; i < depth; ++i) g = m::mapOfKind(PatternKind::Map, g);
  return g;
}

// The identity of a known operator on values of type t, as a literal; null where none can be
// written (max and min, tuples, vectors of ones).
Expr identityLiteral(BinOp op, Type t) {
  if (!t) return nullptr;
  Type inner = t.innermost();
  if (!inner.isScalar() && !inner.isVector()) return nullptr;
  switch (op) {
    case BinOp::Add:
    case BinOp::Or:
    case BinOp::Xor:
    case BinOp::LogOr:
      return ir::zeros(t);
    case BinOp::Mul:
    case BinOp::LogAnd:
      if (!t.isScalar()) return nullptr;
      switch (t.scalarKind()) {
        case ScalarKind::Float:
          return ir::literal("1.0f", t);
        case ScalarKind::Double:
          return ir::literal("1.0", t);
        case ScalarKind::Int:
          return ir::literal("1", t);
        case ScalarKind::Bool:
          return ir::literal("true", t);
      }
      return nullptr;
    default:
      return nullptr;
  }
}

// ----- md_hom => nest of map and reduce ------------------------------------------------------------

// Builds the nest of an md_hom whose ++ dimensions come first. `arrayAt(k, elems)` is the array
// dimension k iterates over, given the elements of the enclosing dimensions (the input's
// elements for a plain array; rows, columns and zips for a view).
class NestBuilder {
 public:
  NestBuilder(const MdHomCall& c, std::vector<Expr> identities,
              std::function<Expr(size_t, const std::vector<Expr>&)> arrayAt, std::vector<std::string> names)
      : c_(c), identities_(std::move(identities)), arrayAt_(std::move(arrayAt)), names_(std::move(names)) {}

  // The nest, and below the last ++ dimension (when a reduced one follows) the reductions'
  // arrays of one element joined outside the maps: map^(kept-1)(join) $ nest.
  Expr build() {
    Expr nest = level(0);
    size_t kept = 0;
    while (kept < c_.dims() && c_.concat(kept)) ++kept;
    if (kept == 0 || kept == c_.dims()) return nest;
    return kept == 1 ? m::callJoin(nest) : m::call(atDepth(m::joinFun(), kept - 1), {nest});
  }

 private:
  // Dimension k and those inside it. A ++ dimension gives the md_hom's array; a reduced one (and
  // every one inside it is reduced) gives the reduction's array of one element.
  Expr level(size_t k) {
    Expr array = arrayAt_(k, elems_);
    size_t d = c_.dims();
    if (k + 1 == d) {
      if (c_.concat(k)) return m::callMap(PatternKind::Map, c_.f(), array);
      Expr values = isIdentity(c_.f()) ? array : m::callMap(PatternKind::Map, c_.f(), array);
      return m::callReduce(PatternKind::Reduce, c_.op(k), identities_[k], values);
    }
    Fun inner = m::lambda1(names_[std::min(k, names_.size() - 1)], [&](Expr x) {
      elems_.push_back(x);
      Expr body = level(k + 1);
      elems_.pop_back();
      return body;
    });
    Expr mapped = m::callMap(PatternKind::Map, inner, array);
    // A ++ dimension keeps its parts (below the last one they are arrays of one element, which
    // build() joins outside the maps); below a reduced one they are arrays of one element too.
    if (c_.concat(k)) return mapped;
    return m::callReduce(PatternKind::Reduce, c_.op(k), identities_[k], m::callJoin(mapped));
  }

  static bool isIdentity(const Fun& f) {
    auto* p = ir::asPattern(f);
    return (p && p->pattern() == PatternKind::Id) || m::isIdentityFun(f);
  }

  const MdHomCall& c_;
  std::vector<Expr> identities_;
  std::function<Expr(size_t, const std::vector<Expr>&)> arrayAt_;
  std::vector<std::string> names_;
  std::vector<Expr> elems_;
};

Outcome mdHomToMapReduce(const Site& s, const ParamValues&) {
  auto c = mdHomCall(s.expr());
  if (!c) return fail("not a call of md_hom");
  size_t d = c->dims();
  std::string ops = operatorList(*c);
  size_t kept = 0;
  for (size_t k = 0; k < d; ++k) kept += c->concat(k) ? 1 : 0;
  // A reduction gives an array of one element where an md_hom that reduces every dimension gives
  // the value: only the program's result may change so, as a kernel writes a result of one value
  // to a buffer of one element either way (checkEquivalence compares them so).
  if (kept == 0 && s.loc != Location::body())
    return fail(
        "md_hom(…, {}) reduces every dimension to one value, but a reduction gives an array of one element: "
        "no nest of map and reduce has its type here (it expands as the program's result, or with a ++ "
        "dimension outside)",
        ops);
  for (size_t k = 0; k + 1 < d; ++k)
    if (!c->concat(k) && c->concat(k + 1))
      return fail(
          "md_hom(…, {}) reduces dimension {} outside the ++ dimension {}: its operator would combine whole "
          "partial arrays point by point; only md_homs whose ++ dimensions come first expand",
          ops, k + 1, k + 2);
  Type out = typeAt(s, s.expr());
  if (!out) return unknownType(s, "the md_hom's result");
  Type value = out;
  for (size_t k = 0; k < kept; ++k) value = value.elem();
  std::vector<Expr> identities(d);
  for (size_t k = kept; k < d; ++k) {
    OperatorInfo info = analyseOperator(c->op(k));
    if (!info.associative || !info.commutative)
      return fail(
          "the combine operator of dimension {} is not a known associative and commutative operator{}", k + 1,
          info.why.empty() ? "" : ": " + info.why);
    identities[k] = identityLiteral(info.op, value);
    if (!identities[k])
      return fail(
          "the combine operator of dimension {} has no identity a literal can write for {} (reduce needs one "
          "as "
          "its initial value; + and * have 0 and 1)",
          k + 1, typeStr(value));
  }
  // A view of as many dimensions as the md_hom becomes its zips; any other input is iterated over.
  auto* view = ir::calledPattern(c->input);
  if (view && ir::isMdHomView(view->pattern()) && viewDims(view->pattern()) == d) {
    Expr a = m::arg(c->input, 0), b = m::arg(c->input, 1);
    switch (view->pattern()) {
      case PatternKind::PairVV:
        return Outcome::ok(NestBuilder(*c, identities,
                                       [&](size_t, const std::vector<Expr>&) {
                                         return m::callZip({a, b});
                                       },
                                       {"p"})
                               .build());
      case PatternKind::PairMV:
        return Outcome::ok(NestBuilder(*c, identities,
                                       [&](size_t k, const std::vector<Expr>& e) {
                                         return k == 0 ? a : m::callZip({e[0], b});
                                       },
                                       {"row"})
                               .build());
      default:
        return Outcome::ok(
            NestBuilder(*c, identities,
                        [&](size_t k, const std::vector<Expr>& e) {
                          return k == 0 ? a : k == 1 ? m::callTranspose(b) : m::callZip({e[0], e[1]});
                        },
                        {"rowA", "colB"})
                .build());
    }
  }
  return Outcome::ok(
      NestBuilder(*c, identities,
                  [&](size_t k, const std::vector<Expr>& e) { return k == 0 ? c->input : e[k - 1]; }, {"x"})
          .build());
}

// ----- nest of map and reduce => md_hom ------------------------------------------------------------

// One dimension of a nest: a map (kept) or a reduce, the array it iterates over and the
// parameter its element is bound to (null at the innermost dimension).
struct NestLevel {
  bool reduced = false;
  Fun op;
  Expr init;
  Expr array;      // what the dimension iterates over
  Expr reduction;  // the reduce call (its input's elements are the combined values)
  ir::Param elem;
};

struct Nest {
  std::vector<NestLevel> levels;
  Fun f;  // the scalar function; null for none (md_hom's id)
  // The first reduced dimension, when its reduction's array of one element is kept (not joined):
  // the md_hom gets a ++ dimension of length 1 there.
  int unitAt = -1;
};

// The reduced dimensions: reduce(op, z) $ (map(f) $ A | A | join o map(fun(x => <reduced>)) $ A).
std::string parseReduced(const Expr& e, Nest& n) {
  auto r = m::reduceCall(e, PatternKind::Reduce);
  if (!r) return "below the reductions' dimensions something other than reduce computes";
  NestLevel level{true, r->f, r->init, nullptr, e, nullptr};
  if (m::callOf(r->input, PatternKind::Join)) {
    if (auto mc = m::mapCall(m::arg(r->input, 0), PatternKind::Map)) {
      m::Unary u = m::unary(mc->f, "x");
      if (m::reduceCall(u.body, PatternKind::Reduce)) {
        level.array = mc->input;
        level.elem = u.param;
        n.levels.push_back(level);
        return parseReduced(u.body, n);
      }
    }
  }
  if (auto mc = m::mapCall(r->input, PatternKind::Map)) {
    level.array = mc->input;
    n.f = mc->f;
  } else {
    level.array = r->input;
  }
  n.levels.push_back(level);
  return "";
}

// The kept dimensions: map(fun(x => <kept or reduced>)) $ A or join o map(fun(x => <reduced>)) $ A.
std::string parseKept(const Expr& e, Nest& n) {
  bool joined = m::callOf(e, PatternKind::Join) != nullptr;
  auto mc = m::mapCall(joined ? m::arg(e, 0) : e, PatternKind::Map);
  if (!mc) return joined ? "the join is not of a map" : "not a call of map or reduce";
  m::Unary u = m::unary(mc->f, "x");
  n.levels.push_back({false, nullptr, nullptr, mc->input, nullptr, u.param});
  if (m::reduceCall(u.body, PatternKind::Reduce)) {
    if (!joined) n.unitAt = static_cast<int>(n.levels.size());
    return parseReduced(u.body, n);
  }
  if (joined) return "the function of the map under the join does not reduce";
  if (!m::mapCall(u.body, PatternKind::Map) && !m::callOf(u.body, PatternKind::Join))
    return "no dimension is reduced: the innermost map's function neither maps nor reduces (a nest of maps "
           "alone is md_hom(f, (++, ...)); it is left as it is)";
  return parseKept(u.body, n);
}

// The md_hom's input: the view the nest's arrays build (pair_vv, pair_mv, pair_mm), or the outer
// array itself when each dimension iterates over the element of the one outside it.
std::optional<Expr> nestInput(const Nest& n, std::string& why) {
  const auto& L = n.levels;
  size_t d = L.size();
  auto zipOf = [](const Expr& e) -> const ir::CallNode* {
    return m::callOf(e, PatternKind::Zip) && m::argCount(e) == 2 ? ir::asCall(e) : nullptr;
  };
  auto is = [](const Expr& e, const ir::Param& p) { return p && e.get() == p.get(); };
  auto free = [&](const Expr& e) {
    for (auto& l : L)
      if (l.elem && m::mentions(e, l.elem.get())) return false;
    return true;
  };
  if (d == 1)
    if (auto* z = zipOf(L[0].array)) return ir::pairVV(z->args()[0], z->args()[1]);
  if (d == 2)
    if (auto* z = zipOf(L[1].array); z && is(z->args()[0], L[0].elem) && free(z->args()[1]))
      return ir::pairMV(L[0].array, z->args()[1]);
  if (d == 3 && m::callOf(L[1].array, PatternKind::Transpose) && free(m::arg(L[1].array, 0)))
    if (auto* z = zipOf(L[2].array); z && is(z->args()[0], L[0].elem) && is(z->args()[1], L[1].elem))
      return ir::pairMM(L[0].array, m::arg(L[1].array, 0));
  for (size_t k = 1; k < d; ++k)
    if (!is(L[k].array, L[k - 1].elem)) {
      why = fmt::format(
          "dimension {} does not iterate over the element of dimension {} (nor over a zip that pair_mv or "
          "pair_mm builds)",
          k + 1, k);
      return std::nullopt;
    }
  return L[0].array;
}

// map^j(join) $ x for j >= 1: j and x; otherwise 0 and e itself.
std::pair<size_t, Expr> joinInsideMaps(const Expr& e) {
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 1) return {0, e};
  size_t j = 0;
  Fun f = c->fun();
  for (auto* p = ir::asPattern(f); p && p->pattern() == PatternKind::Map; p = ir::asPattern(f)) {
    f = p->f();
    ++j;
  }
  auto* join = ir::asPattern(f);
  if (j == 0 || !join || join->pattern() != PatternKind::Join) return {0, e};
  return {j, c->args()[0]};
}

Outcome mapReduceToMdHom(const Site& s, const ParamValues&) {
  // The joins of the reductions' arrays of one element outside the maps (as mdhom-to-map-reduce
  // writes md_gemm): map^j(join) $ nest, the nest's first reduction below its (j+1)-th map.
  const std::pair<size_t, Expr> peeled = joinInsideMaps(s.expr());
  const size_t joinDepth = peeled.first;
  const Expr& e = peeled.second;
  Nest n;
  std::string why;
  if (m::reduceCall(e, PatternKind::Reduce)) {
    n.unitAt = 0;
    why = parseReduced(e, n);
  } else if (m::mapCall(e, PatternKind::Map) || m::callOf(e, PatternKind::Join)) {
    why = parseKept(e, n);
  } else {
    return fail("not a call of map, join or reduce");
  }
  if (!why.empty()) return Outcome::fail(why);
  if (joinDepth > 0) {
    if (n.unitAt != static_cast<int>(joinDepth) + 1)
      return fail(
          "the join inside {} map(s) does not join the reductions' arrays of one element to the dimension "
          "outside them",
          joinDepth);
    n.unitAt = -1;
  }
  std::optional<Expr> input = nestInput(n, why);
  if (!input) return Outcome::fail(why);
  // The scalar function, the operators and the initial values must not depend on the elements.
  for (auto& l : n.levels) {
    if (!l.elem) continue;
    auto uses = [&](const Fun& f) { return f && m::mentions(f, l.elem.get()); };
    bool used = uses(n.f);
    for (auto& o : n.levels) used = used || uses(o.op) || (o.init && m::mentions(o.init, l.elem.get()));
    if (used)
      return fail(
          "the scalar function, an operator or an initial value uses the element '{}' of an outer map",
          l.elem->name());
  }
  Type value;
  std::vector<std::optional<ir::Callable>> ops;
  for (size_t k = 0; k < n.levels.size(); ++k) {
    const NestLevel& l = n.levels[k];
    if (static_cast<int>(k) == n.unitAt) ops.emplace_back(std::nullopt);
    if (!l.reduced) {
      ops.emplace_back(std::nullopt);
      continue;
    }
    OperatorInfo info = analyseOperator(l.op);
    if (!info.associative || !info.commutative)
      return fail(
          "the reduction of dimension {} is not by a known associative and commutative operator (md_hom's "
          "combine operators are){}",
          k + 1, info.why.empty() ? "" : ": " + info.why);
    if (!isIdentityOf(info.op, l.init))
      return fail(
          "the reduction of dimension {} starts from {}, not from its operator's identity (md_hom's combine "
          "operators have no initial value)",
          k + 1, ir::asLiteral(l.init) ? ir::asLiteral(l.init)->text() : std::string("a computed value"));
    Type acc = typeAt(s, l.init), in = typeAt(s, m::arg(l.reduction, 1));
    if (!acc || !in || !in.isArray()) return unknownType(s, "a reduction's input");
    if (in.elem() != acc || (value && acc != value))
      return fail(
          "the reduction of dimension {} combines {} into a {}: md_hom's operators combine two values of one "
          "type",
          k + 1, typeStr(in.elem()), typeStr(acc));
    value = acc;
    ops.emplace_back(l.op);
  }
  Expr in = *input;
  if (n.unitAt >= 0) {
    arith::Expr len = lengthAt(s, n.levels[static_cast<size_t>(n.unitAt)].array);
    if (!len) return unknownType(s, "the reduced array");
    in = m::call(atDepth(m::splitFun(len), static_cast<size_t>(n.unitAt)), {in});
  }
  Fun f = n.f ? n.f : ir::id();
  return Outcome::ok(m::call(ir::mdHom(f, ops), {in}));
}

// ----- views ------------------------------------------------------------------------------

Outcome viewToZip(const Site& s, const ParamValues&) {
  auto* view = ir::calledPattern(s.expr());
  if (!view || !ir::isMdHomView(view->pattern()) || m::argCount(s.expr()) != 2)
    return fail("not a call of pair_vv, pair_mv or pair_mm");
  Expr a = m::arg(s.expr(), 0), b = m::arg(s.expr(), 1);
  switch (view->pattern()) {
    case PatternKind::PairVV:
      return Outcome::ok(m::callZip({a, b}));
    case PatternKind::PairMV:
      return Outcome::ok(m::callMap(PatternKind::Map,
                                    m::lambda1("row",
                                               [&](Expr row) {
                                                 return m::callZip({row, b});
                                               }),
                                    a));
    default: {
      Fun cols = m::lambda1("rowA", [&](Expr rowA) {
        return m::callMap(PatternKind::Map,
                          m::lambda1("colB",
                                     [&](Expr colB) {
                                       return m::callZip({rowA, colB});
                                     }),
                          m::callTranspose(b));
      });
      return Outcome::ok(m::callMap(PatternKind::Map, cols, a));
    }
  }
}

// ----- decomposition ------------------------------------------------------------------------------

// The md_hom at the site, its dimension `dim` (1-based, as ⊛1..⊛d) and that dimension's length,
// with the chunk size dividing it; or why not.
struct SplitSite {
  MdHomCall call;
  size_t k = 0;  // 0-based
  arith::Expr length, n;
};

std::variant<SplitSite, Outcome> splitSite(const Site& s, const ParamValues& pv) {
  auto c = mdHomCall(s.expr());
  if (!c) return fail("not a call of md_hom");
  int64_t dim = pv.integer("dim");
  size_t d = c->dims();
  if (dim < 1 || dim > static_cast<int64_t>(d))
    return fail("md_hom(…, {}) has dimensions 1 to {}, not {}", operatorList(*c), d, dim);
  Type t = typeAt(s, c->input);
  if (!t) return unknownType(s);
  for (int64_t j = 1; j < dim; ++j) t = t.elem();
  arith::Expr n = pv.factor("n", *s.program);
  if (!arith::provablyDivisible(t.length(), n))
    return fail("the chunk size {} does not provably divide the length {} of dimension {}", str(n),
                str(t.length()), dim);
  if (s.variesPerIteration(t.length()))
    return fail("the length of dimension {} changes from one iteration of the enclosing iterate to the next",
                dim);
  return SplitSite{*c, static_cast<size_t>(dim - 1), t.length(), n};
}

// md_hom(f, (⊛1, ..., ⊛d)) with ⊛k repeated: dimension k becomes the chunks and their elements.
Fun splitMdHom(const MdHomCall& c, size_t k) {
  std::vector<std::optional<ir::Callable>> ops;
  for (size_t j = 0; j < c.dims(); ++j) {
    std::optional<ir::Callable> op;
    if (Fun f = c.op(j)) op = f;
    if (j == k) ops.push_back(op ? std::optional<ir::Callable>(m::freshCopy(c.op(j))) : std::nullopt);
    ops.push_back(op);
  }
  return ir::mdHom(c.f(), ops);
}

Outcome mdHomSplit(const Site& s, const ParamValues& pv) {
  auto site = splitSite(s, pv);
  if (auto* o = std::get_if<Outcome>(&site)) return *o;
  const SplitSite& ss = std::get<SplitSite>(site);
  const MdHomCall& c = ss.call;
  Expr chunks = m::call(atDepth(m::splitFun(ss.n), ss.k), {c.input});
  Expr result = m::call(splitMdHom(c, ss.k), {chunks});
  if (!c.concat(ss.k)) return Outcome::ok(result);
  // ++: the chunks' results side by side, joined where dimension k is in the result.
  size_t before = 0;
  for (size_t j = 0; j < ss.k; ++j) before += c.concat(j) ? 1 : 0;
  return Outcome::ok(m::call(atDepth(m::joinFun(), before), {result}));
}

Outcome mdHomSplitStrided(const Site& s, const ParamValues& pv) {
  auto site = splitSite(s, pv);
  if (auto* o = std::get_if<Outcome>(&site)) return *o;
  const SplitSite& ss = std::get<SplitSite>(site);
  const MdHomCall& c = ss.call;
  if (c.concat(ss.k))
    return fail(
        "dimension {} is combined by ++: strided chunks would reorder the result (only a reduced dimension, "
        "whose operator is commutative, may be read in another order)",
        ss.k + 1);
  // Chunk i holds the elements i, i + C, i + 2C, ... for C = length/n chunks (001 Fig. 4).
  arith::Expr count = ss.length / ss.n;
  Fun stride = ir::gather(ir::strideIndex(count));
  Expr chunks = m::call(atDepth(m::splitFun(ss.n), ss.k), {m::call(atDepth(stride, ss.k), {c.input})});
  return Outcome::ok(m::call(splitMdHom(c, ss.k), {chunks}));
}

// (dim, n) for every dimension, outermost first, each with chunk sizes that divide its length.
std::vector<ParamValues> splitCandidates(const Site& s, bool reducedOnly) {
  std::vector<ParamValues> out;
  auto c = mdHomCall(s.expr());
  if (!c) return out;
  Type t = typeAt(s, c->input);
  for (size_t k = 0; k < c->dims() && t && t.isArray(); ++k, t = t.elem()) {
    if (reducedOnly && c->concat(k)) continue;
    for (ParamValues& pv : factorCandidates("n", t.length(), 4, 3)) {
      pv.set("dim", std::to_string(k + 1));
      out.push_back(pv);
    }
  }
  return out;
}

Rule withSplitParams(Rule r, bool reducedOnly) {
  r.params = {{"dim", ParamKind::Count, "the dimension to split (1 = outermost, as ⊛1 ... ⊛d)", "1", {}},
              {"n", ParamKind::Factor, "chunk size (elements of the dimension per chunk)", "4", {}}};
  r.candidates = [reducedOnly](const Site& s) { return splitCandidates(s, reducedOnly); };
  return r;
}

}  // namespace

void registerMdHomRules(RuleRegistry& reg) {
  reg.add(makeRule(
      "mdhom-to-map-reduce", Family::MdHom,
      "An md_hom whose ++ dimensions come first as the nest of map and reduce it means (001 Table 4).",
      "md_hom(f, (++, add)) $ pair_mv(A, v)", "join o map(row => reduce(add, 0) o map(f) $ zip(row, v)) $ A",
      {PatternKind::MdHom}, mdHomToMapReduce));
  reg.add(makeRule(
      "map-reduce-to-mdhom", Family::MdHom,
      "A nest of maps around reductions as one md_hom over the view its zips build (001 Table 4).",
      "join o map(row => reduce(add, 0) o map(f) $ zip(row, v)) $ A", "md_hom(f, (++, add)) $ pair_mv(A, v)",
      {PatternKind::Map, PatternKind::Join, PatternKind::Reduce}, mapReduceToMdHom));
  reg.add(makeRule("mdhom-view-to-zip", Family::MdHom, "Build an md_hom view from zips, maps and transpose.",
                   "pair_mm(A, B)", "map(rowA => map(colB => zip(rowA, colB)) $ transpose(B)) $ A",
                   {PatternKind::PairVV, PatternKind::PairMV, PatternKind::PairMM}, viewToZip));
  reg.add(withSplitParams(
      makeRule(
          "mdhom-split", Family::MdHom,
          "Split dimension k of an md_hom into chunks of n, combined with ⊛k: joined for ++, reduced for an "
          "operator (001 Proposition 1).",
          "md_hom(f, (++, add)) $ x", "md_hom(f, (++, add, add)) o map(split(n)) $ x  (dim=2)",
          {PatternKind::MdHom}, mdHomSplit),
      false));
  reg.add(withSplitParams(
      makeRule("mdhom-split-strided", Family::MdHom,
               "Split a reduced dimension of an md_hom into strided chunks of n (element i in chunk i mod "
               "len/n, 001 Fig. 4: coalesced sequential chunks).",
               "md_hom(f, (++, add)) $ x",
               "md_hom(f, (++, add, add)) o map(split(n) o reorderStride(len/n)) $ x  (dim=2)",
               {PatternKind::MdHom}, mdHomSplitStrided),
      true));
}

}  // namespace lift::rewrite
