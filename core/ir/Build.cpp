// The program builder: Callable (composition and partial application without IR nodes of
// their own) and one constructor per pattern.
#include "core/ir/Build.h"

#include <fmt/format.h>

#include <unordered_set>

namespace lift::ir {

// ----- Callable ----------------------------------------------------------------------------

Callable Callable::partial(Fun pattern, std::vector<Expr> leading) {
  Callable c(Fun(std::move(pattern)));
  c.leading_ = std::move(leading);
  return c;
}

Callable Callable::compose(std::vector<Callable> chain) {
  LIFT_ASSERT(!chain.empty(), "empty composition");
  std::vector<Callable> flat;
  for (auto& c : chain) {
    LIFT_ASSERT(bool(c), "null function in a composition");
    if (c.isComposition())
      flat.insert(flat.end(), c.chain_.begin(), c.chain_.end());
    else
      flat.push_back(std::move(c));
  }
  if (flat.size() == 1) return flat.front();
  Callable r;
  r.chain_ = std::move(flat);
  return r;
}

Callable& Callable::at(SourceLoc loc) {
  loc_ = std::move(loc);
  return *this;
}

Expr Callable::apply(std::vector<Expr> args, LocationMap* locs) const {
  if (isComposition()) {
    Expr cur = chain_.back().apply(std::move(args), locs);
    for (size_t i = chain_.size() - 1; i-- > 0;) cur = chain_[i].apply({cur}, locs);
    return cur;
  }
  LIFT_ASSERT(fun_, "applying a null function");
  std::vector<Expr> all = leading_;
  all.insert(all.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  Expr call = CallNode::make(fun_, std::move(all));
  if (locs && loc_.known()) (*locs)[call->id()] = loc_;
  return call;
}

Fun Callable::toFun(LocationMap* locs, const std::string& paramName) const {
  if (!isComposition() && !isPartial()) return fun_;
  Param p = ParamNode::make(paramName);
  Expr body = apply({p}, locs);
  Lambda l = LambdaNode::make({p}, std::move(body));
  if (locs && loc_.known()) {
    (*locs)[l->id()] = loc_;
    (*locs)[p->id()] = loc_;
  }
  return l;
}

// ----- values ------------------------------------------------------------------------------

Param param(std::string name, Type declaredType) { return ParamNode::make(std::move(name), declaredType); }

Expr literal(std::string text, Type type) { return LiteralNode::make(std::move(text), type); }

namespace {

std::string decimal(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

Expr floatLit(double v) { return literal(decimal(v) + "f", Type::float_()); }
Expr doubleLit(double v) { return literal(decimal(v), Type::double_()); }
Expr intLit(int64_t v) { return literal(std::to_string(v), Type::int_()); }
Expr boolLit(bool v) { return literal(v ? "true" : "false", Type::bool_()); }

std::string zeroText(ScalarKind k) {
  switch (k) {
    case ScalarKind::Float:
      return "0.0f";
    case ScalarKind::Double:
      return "0.0";
    case ScalarKind::Int:
      return "0";
    case ScalarKind::Bool:
      return "false";
  }
  return "0";
}

Expr zeros(Type t) {
  Type inner = t.innermost();
  LIFT_ASSERT(inner.isScalar() || inner.isVector(), "zeros of " + t.toString());
  return literal(zeroText(inner.scalarKind()), t);
}

// ----- functions ---------------------------------------------------------------------------

Fun lambda(std::vector<Param> params, Expr body) {
  return LambdaNode::make(std::move(params), std::move(body));
}

Fun lambda(const std::string& name, const std::function<Expr(Expr)>& body) {
  Param p = param(name);
  return lambda({p}, body(p));
}

Fun lambda(const std::string& a, const std::string& b, const std::function<Expr(Expr, Expr)>& body) {
  Param pa = param(a), pb = param(b);
  return lambda({pa, pb}, body(pa, pb));
}

Fun userFun(std::shared_ptr<const UserFunDef> def) { return UserFunNode::make(std::move(def)); }

Callable compose(std::vector<Callable> chain) { return Callable::compose(std::move(chain)); }
Callable compose(const Callable& f, const Callable& g) { return Callable::compose({f, g}); }

Expr call(const Callable& f, std::vector<Expr> args) { return f.apply(std::move(args)); }

// ----- patterns ----------------------------------------------------------------------------

Fun pattern(PatternKind k, PatternNode::Params p) { return PatternNode::make(k, std::move(p)); }

namespace {

Fun withFun(PatternKind k, const Callable& f) {
  PatternNode::Params p;
  p.funs = {f.toFun()};
  return pattern(k, std::move(p));
}

Fun withSizes(PatternKind k, std::vector<arith::Expr> sizes) {
  PatternNode::Params p;
  p.sizes = std::move(sizes);
  return pattern(k, std::move(p));
}

}  // namespace

Fun mapLike(PatternKind k, const Callable& f, int dim) {
  LIFT_ASSERT(isMapLike(k), "not a map: " + std::string(patternName(k)));
  PatternNode::Params p;
  p.funs = {f.toFun()};
  if (hasMapDimension(k)) p.index = dim;
  return pattern(k, std::move(p));
}

Fun map(const Callable& f) { return mapLike(PatternKind::Map, f); }
Fun mapSeq(const Callable& f) { return mapLike(PatternKind::MapSeq, f); }
Fun mapSeqUnroll(const Callable& f) { return mapLike(PatternKind::MapSeqUnroll, f); }
Fun mapVec(const Callable& f) { return mapLike(PatternKind::MapVec, f); }
Fun mapGlb(const Callable& f, int dim) { return mapLike(PatternKind::MapGlb, f, dim); }
Fun mapWrg(const Callable& f, int dim) { return mapLike(PatternKind::MapWrg, f, dim); }
Fun mapLcl(const Callable& f, int dim) { return mapLike(PatternKind::MapLcl, f, dim); }
Fun mapWarp(const Callable& f) { return mapLike(PatternKind::MapWarp, f); }
Fun mapLane(const Callable& f) { return mapLike(PatternKind::MapLane, f); }
Fun mapAtomWrg(const Callable& f, int dim) { return mapLike(PatternKind::MapAtomWrg, f, dim); }
Fun mapAtomLcl(const Callable& f, int dim) { return mapLike(PatternKind::MapAtomLcl, f, dim); }

Fun reducePattern(PatternKind k, const Callable& f, std::vector<arith::Expr> sizes) {
  LIFT_ASSERT(isReduceLike(k), "not a reduction: " + std::string(patternName(k)));
  PatternNode::Params p;
  p.funs = {f.toFun()};
  p.sizes = std::move(sizes);
  return pattern(k, std::move(p));
}

Callable reduce(const Callable& f, Expr init) {
  return Callable::partial(reducePattern(PatternKind::Reduce, f), {std::move(init)});
}
Callable reduceSeq(const Callable& f, Expr init) {
  return Callable::partial(reducePattern(PatternKind::ReduceSeq, f), {std::move(init)});
}
Callable reduceSeqUnroll(const Callable& f, Expr init) {
  return Callable::partial(reducePattern(PatternKind::ReduceSeqUnroll, f), {std::move(init)});
}
Callable partRed(const Callable& f, Expr init, arith::Expr m) {
  return Callable::partial(reducePattern(PatternKind::PartRed, f, {m}), {std::move(init)});
}

// ----- issue 17: search, early exit, filter and sort (lift17p) -----
Callable bSearch(const Callable& cmp, Expr dflt) {
  return Callable::partial(withFun(PatternKind::BSearch, cmp), {std::move(dflt)});
}
Callable lSearch(const Callable& cmp, Expr dflt) {
  return Callable::partial(withFun(PatternKind::LSearch, cmp), {std::move(dflt)});
}
Callable reduceWhileSeq(const Callable& f, const Callable& p, Expr init) {
  PatternNode::Params ps;
  ps.funs = {f.toFun(), p.toFun()};
  return Callable::partial(pattern(PatternKind::ReduceWhileSeq, std::move(ps)), {std::move(init)});
}
Fun filterSeq(const Callable& p) { return withFun(PatternKind::FilterSeq, p); }
Fun insertionSortSeq(const Callable& less) { return withFun(PatternKind::InsertionSort, less); }
// ----- end of issue 17 (lift17p) -----

Fun scanPattern(PatternKind k, const Callable& f) {
  LIFT_ASSERT(isScanLike(k), "not a scan: " + std::string(patternName(k)));
  PatternNode::Params p;
  p.funs = {f.toFun()};
  return pattern(k, std::move(p));
}

Callable scan(const Callable& f, Expr init) {
  return Callable::partial(scanPattern(PatternKind::Scan, f), {std::move(init)});
}
Callable scanSeq(const Callable& f, Expr init) {
  return Callable::partial(scanPattern(PatternKind::ScanSeq, f), {std::move(init)});
}

Fun split(arith::Expr n) { return withSizes(PatternKind::Split, {n}); }
Fun split(int64_t n) { return split(arith::cst(n)); }
Fun join() { return pattern(PatternKind::Join); }
Fun transpose() { return pattern(PatternKind::Transpose); }
Fun unzip() { return pattern(PatternKind::Unzip); }
Fun id() { return pattern(PatternKind::Id); }
Fun asVector(int64_t n) { return withSizes(PatternKind::AsVector, {arith::cst(n)}); }
Fun asScalar() { return pattern(PatternKind::AsScalar); }
Fun dot() { return pattern(PatternKind::Dot); }
Fun fma() { return pattern(PatternKind::Fma); }
Fun head() { return pattern(PatternKind::Head); }
Fun tail() { return pattern(PatternKind::Tail); }
Fun transposeW() { return pattern(PatternKind::TransposeW); }
Fun reorderStride(arith::Expr s) { return withSizes(PatternKind::ReorderStride, {s}); }
Fun slide(arith::Expr size, arith::Expr step) { return withSizes(PatternKind::Slide, {size, step}); }

// ----- issue 16: MapSeqSlide -----
Fun mapSeqSlide(arith::Expr size, arith::Expr step, const Callable& f) {
  PatternNode::Params p;
  p.funs = {f.toFun()};
  p.sizes = {size, step};
  return pattern(PatternKind::MapSeqSlide, std::move(p));
}

// ----- issue 16: the array generators -----
Expr arrayFromValue(Expr v, arith::Expr n) {
  return CallNode::make(withSizes(PatternKind::ArrayFromValue, {n}), {std::move(v)});
}

Expr arrayFromGenerator(arith::Expr n, arith::Expr i, arith::Expr e) {
  return CallNode::make(withSizes(PatternKind::ArrayFromGenerator, {n, i, e}), {});
}

Expr arrayFromUserFun(const Callable& f, std::vector<arith::Expr> lengths) {
  static const PatternKind kinds[] = {PatternKind::ArrayFromUserFun, PatternKind::Array2DFromUserFun,
                                      PatternKind::Array3DFromUserFun};
  LIFT_ASSERT(!lengths.empty() && lengths.size() <= 3, "a generator of one, two or three dimensions");
  PatternNode::Params p;
  p.funs = {f.toFun()};
  PatternKind k = kinds[lengths.size() - 1];
  p.sizes = std::move(lengths);
  return CallNode::make(pattern(k, std::move(p)), {});
}

Fun pad(arith::Expr left, arith::Expr right, PadMode mode) {
  LIFT_ASSERT(mode != PadMode::Constant, "use padConstant for constant padding");
  PatternNode::Params p;
  p.sizes = {left, right};
  p.padMode = mode;
  return pattern(PatternKind::Pad, std::move(p));
}

Fun padConstant(arith::Expr left, arith::Expr right, std::string value) {
  PatternNode::Params p;
  p.sizes = {left, right};
  p.padMode = PadMode::Constant;
  p.padValue = std::move(value);
  return pattern(PatternKind::Pad, std::move(p));
}

Fun iterate(arith::Expr n, const Callable& f) {
  PatternNode::Params p;
  p.funs = {f.toFun()};
  p.sizes = {n};
  return pattern(PatternKind::Iterate, std::move(p));
}

Fun vectorize(int64_t n, const Callable& f) {
  PatternNode::Params p;
  p.funs = {f.toFun()};
  p.sizes = {arith::cst(n)};
  return pattern(PatternKind::Vectorize, std::move(p));
}

Fun toGlobal(const Callable& f) { return withFun(PatternKind::ToGlobal, f); }
Fun toLocal(const Callable& f) { return withFun(PatternKind::ToLocal, f); }
Fun toPrivate(const Callable& f) { return withFun(PatternKind::ToPrivate, f); }
Fun let(const Callable& f) { return withFun(PatternKind::Let, f); }

Fun get(int i) {
  PatternNode::Params p;
  p.index = i;
  return pattern(PatternKind::Get, std::move(p));
}

Fun zipPattern(int arity) {
  PatternNode::Params p;
  p.index = arity;
  return pattern(PatternKind::Zip, std::move(p));
}

Fun tuplePattern(int arity) {
  PatternNode::Params p;
  p.index = arity;
  return pattern(PatternKind::Tuple, std::move(p));
}

Fun gather(IndexFun f) {
  PatternNode::Params p;
  p.indexFun = std::move(f);
  return pattern(PatternKind::Gather, std::move(p));
}

Fun scatter(IndexFun f) {
  PatternNode::Params p;
  p.indexFun = std::move(f);
  return pattern(PatternKind::Scatter, std::move(p));
}

Fun mdHom(const Callable& f, const std::vector<std::optional<Callable>>& combine) {
  PatternNode::Params p;
  p.funs = {f.toFun()};
  for (auto& op : combine) {
    p.concat.push_back(!op);
    if (op) p.funs.push_back(op->toFun());
  }
  return pattern(PatternKind::MdHom, std::move(p));
}

Fun mdHomView(PatternKind k) {
  LIFT_ASSERT(isMdHomView(k), "not an md_hom view");
  return pattern(k);
}

IndexFun reverseIndex() { return IndexFun{IndexFun::Kind::Reverse, {}, {}}; }
IndexFun strideIndex(arith::Expr s) { return IndexFun{IndexFun::Kind::ReorderStride, s, {}}; }
IndexFun transposeIndex(arith::Expr rows, arith::Expr cols) {
  return IndexFun{IndexFun::Kind::Transpose, rows, cols};
}
IndexFun shiftIndex(arith::Expr k) { return IndexFun{IndexFun::Kind::Shift, k, {}}; }

Expr zip(std::vector<Expr> arrays) {
  int n = static_cast<int>(arrays.size());
  return CallNode::make(zipPattern(n), std::move(arrays));
}

Expr tuple(std::vector<Expr> elems) {
  int n = static_cast<int>(elems.size());
  return CallNode::make(tuplePattern(n), std::move(elems));
}

Expr get(int i, Expr t) { return CallNode::make(get(i), {std::move(t)}); }
Expr dot(Expr a, Expr b) { return CallNode::make(dot(), {std::move(a), std::move(b)}); }
Expr fma(Expr a, Expr b, Expr c) { return CallNode::make(fma(), {std::move(a), std::move(b), std::move(c)}); }
Expr at(Expr xs, Expr i) { return CallNode::make(pattern(PatternKind::At), {std::move(xs), std::move(i)}); }
Expr checkedAt(Expr xs, Expr i, Expr d) {
  return CallNode::make(pattern(PatternKind::CheckedAt), {std::move(xs), std::move(i), std::move(d)});
}
Expr filter(Expr xs, Expr ids) {
  return CallNode::make(pattern(PatternKind::Filter), {std::move(xs), std::move(ids)});
}
Expr pairVV(Expr x, Expr y) {
  return CallNode::make(mdHomView(PatternKind::PairVV), {std::move(x), std::move(y)});
}
Expr pairMV(Expr m, Expr v) {
  return CallNode::make(mdHomView(PatternKind::PairMV), {std::move(m), std::move(v)});
}
Expr pairMM(Expr a, Expr b) {
  return CallNode::make(mdHomView(PatternKind::PairMM), {std::move(a), std::move(b)});
}

// ----- programs ----------------------------------------------------------------------------

namespace {

void collectSizes(Type t, std::vector<SizeDecl>& out) {
  if (!t) return;
  switch (t.kind()) {
    case Type::Kind::Array:
      collectSizes(t.elem(), out);
      for (arith::Expr v : arith::variables(t.length())) {
        const std::string& name = arith::varName(v);
        bool known = false;
        for (auto& s : out) known = known || s.name == name;
        if (!known) out.push_back(SizeDecl{name, std::nullopt, v, {}});
      }
      break;
    case Type::Kind::Tuple:
      for (Type e : t.tupleElems()) collectSizes(e, out);
      break;
    default:
      break;
  }
}

}  // namespace

Program program(std::string name, std::vector<Param> inputs, Expr body) {
  Program p;
  p.name = std::move(name);
  for (auto& in : inputs) collectSizes(in->declaredType(), p.sizes);
  p.main = LambdaNode::make(std::move(inputs), std::move(body));
  p.userFuns = userFunsOf(p.main);
  return p;
}

std::vector<std::shared_ptr<const UserFunDef>> userFunsOf(const Fun& f) {
  std::vector<std::shared_ptr<const UserFunDef>> out;
  std::unordered_set<std::string> seen;
  visitPreOrder(f, [&](const NodePath& path) {
    if (auto* u = asUserFun(path.back().node.fun()); u && seen.insert(u->def().name).second)
      out.push_back(u->defPtr());
    return true;
  });
  return out;
}

}  // namespace lift::ir
