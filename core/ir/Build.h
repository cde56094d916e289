// Building programs in C++: one function per pattern, composition, application, lambdas and
// whole programs. The builder produces exactly the IR the parser produces for the same text
// (the parser is written on top of it), so tests and rewrite rules can compare the two:
//
//   auto A = ir::param("A", ...), B = ir::param("B", ...);
//   auto dot = ir::compose(ir::reduce(add, ir::floatLit(0)), ir::map(mult));  // reduce(add, 0.0f) o
//   map(mult) Expr body = ir::call(ir::map(ir::lambda("rowA", [&](Expr rowA) { ... })), {A});
//
// The IR has no composition node: `f o g` applied to x is the call chain f(g(x)), and used as a
// function value (e.g. `map(f o g)`) it is the lambda fun(x => f(g(x))). Likewise a reduction
// with its initial value, `reduce(f, z)`, applied to xs is Reduce(f)(z, xs) and used as a value
// is fun(x => Reduce(f)(z, x)). `Callable` holds such a function until it is applied or used.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <unordered_map>

#include "core/ir/IR.h"

namespace lift::ir {

// Source positions of nodes by id, as collected by the parser (see Program::locations).
using LocationMap = std::unordered_map<NodeId, SourceLoc>;

// A function in the making: a declaration (pattern, user function, lambda), a pattern partially
// applied to its leading data arguments (reduce's initial value), or a composition.
class Callable {
 public:
  Callable() = default;
  // Implicit from Fun only (not from pointers to the node subclasses): a call elsewhere such as
  // f(std::shared_ptr<const PatternNode>, ...) must not find Callable as good as Fun.
  Callable(Fun f) : fun_(std::move(f)) {}  // NOLINT: implicit by design

  // `pattern` applied to `leading` followed by the arguments it is called with.
  static Callable partial(Fun pattern, std::vector<Expr> leading);
  // chain[0] o chain[1] o ... : the last is applied first. Nested compositions are flattened.
  static Callable compose(std::vector<Callable> chain);

  explicit operator bool() const { return fun_ || !chain_.empty(); }
  bool isComposition() const { return !chain_.empty(); }
  bool isPartial() const { return fun_ && !leading_.empty(); }
  // The declaration (or the pattern of a partial application); null for a composition.
  const Fun& decl() const { return fun_; }
  const std::vector<Expr>& leadingArgs() const { return leading_; }
  const std::vector<Callable>& chain() const { return chain_; }

  // Where it was written; the calls and lambdas built from it get this location in `locs`.
  Callable& at(SourceLoc loc);
  const SourceLoc& loc() const { return loc_; }

  // Applies to arguments: f(args) for a declaration, pattern(leading..., args) for a partial
  // application, f(g(h(args))) for a composition. New nodes' locations go to `locs` if given.
  Expr apply(std::vector<Expr> args, LocationMap* locs = nullptr) const;
  // As a function value: the declaration itself, or a lambda of one parameter named `paramName`.
  Fun toFun(LocationMap* locs = nullptr, const std::string& paramName = "x") const;

 private:
  Fun fun_;
  std::vector<Expr> leading_;
  std::vector<Callable> chain_;
  SourceLoc loc_;
};

// ----- values --------------------------------------------------------------------------
Param param(std::string name, Type declaredType = {});
Expr literal(std::string text, Type type);
Expr floatLit(double v);   // "1.5f"
Expr doubleLit(double v);  // "1.5"
Expr intLit(int64_t v);
Expr boolLit(bool v);
// The zero of a type ("0.0f", "0", "false"), for arrays too: an array whose elements all equal it.
Expr zeros(Type t);
// The text of the zero of a scalar or vector type's component ("0.0f", "0.0", "0", "false").
std::string zeroText(ScalarKind k);

// ----- functions -----------------------------------------------------------------------
// Lambdas as Fun (use LambdaNode::make where a Lambda is needed, e.g. for Program::main).
Fun lambda(std::vector<Param> params, Expr body);
Fun lambda(const std::string& name, const std::function<Expr(Expr)>& body);
Fun lambda(const std::string& a, const std::string& b, const std::function<Expr(Expr, Expr)>& body);
Fun userFun(std::shared_ptr<const UserFunDef> def);
// Non-template overloads only: unqualified calls elsewhere with IR arguments find these by
// argument-dependent lookup, and must still resolve to their own local helpers.
Callable compose(std::vector<Callable> chain);
Callable compose(const Callable& f, const Callable& g);
Expr call(const Callable& f, std::vector<Expr> args);

// ----- patterns (docs/LANGUAGE.md gives each one's meaning and type) ---------------------
Fun pattern(PatternKind k, PatternNode::Params p = {});

Fun map(const Callable& f);
Fun mapSeq(const Callable& f);
Fun mapSeqUnroll(const Callable& f);
Fun mapVec(const Callable& f);
Fun mapGlb(const Callable& f, int dim = 0);
Fun mapWrg(const Callable& f, int dim = 0);
Fun mapLcl(const Callable& f, int dim = 0);
// issue 17 (lift17w): Lift's warp maps (NVIDIA) and atomic work distribution.
Fun mapWarp(const Callable& f);
Fun mapLane(const Callable& f);
Fun mapAtomWrg(const Callable& f, int dim = 0);
Fun mapAtomLcl(const Callable& f, int dim = 0);
// map-like pattern `k` (one of isMapLike) of f, with dimension `dim` for mapGlb/Wrg/Lcl.
Fun mapLike(PatternKind k, const Callable& f, int dim = 0);

// reduce(f, init): applied to xs gives Reduce(f)(init, xs).
Callable reduce(const Callable& f, Expr init);
Callable reduceSeq(const Callable& f, Expr init);
Callable reduceSeqUnroll(const Callable& f, Expr init);
Callable partRed(const Callable& f, Expr init, arith::Expr m);
// The bare reduction patterns, called with (init, xs).
Fun reducePattern(PatternKind k, const Callable& f, std::vector<arith::Expr> sizes = {});

// scan(f, init): applied to xs gives Scan(f)(init, xs), the exclusive prefix scan
// [init, f(init, x0), f(f(init, x0), x1), ...] of the same length as xs.
Callable scan(const Callable& f, Expr init);
Callable scanSeq(const Callable& f, Expr init);
// The bare scan patterns (one of isScanLike), called with (init, xs).
Fun scanPattern(PatternKind k, const Callable& f);

// ----- issue 17: search, early exit, filter and sort (lift17p) -----
// bSearch(cmp, d) and lSearch(cmp, d): applied to a sorted xs give BSearch(cmp)(d, xs), the
// element e of xs with cmp(e) == 0 in an array of one ([d] when none is found); cmp(e) < 0
// where e is after the element looked for, > 0 where it is before (Lift's Search).
Callable bSearch(const Callable& cmp, Expr dflt);
Callable lSearch(const Callable& cmp, Expr dflt);
// reduceWhileSeq(f, p, init): the sequential fold of f that stops before the first element x
// where p(acc, x) is 0; called with (init, xs).
Callable reduceWhileSeq(const Callable& f, const Callable& p, Expr init);
// filterSeq(p): [T]N -> ([T]N, [int]1), the elements x with p(x) != 0 first, in order, then the
// others in order (a stable partition), and the count of the first.
Fun filterSeq(const Callable& p);
// insertionSortSeq(less): a stable sort, less(x, y) != 0 where x goes before y.
Fun insertionSortSeq(const Callable& less);
// ----- end of issue 17 (lift17p) -----

Fun split(arith::Expr n);
Fun split(int64_t n);
Fun join();
Fun transpose();
Fun unzip();
Fun id();
Fun asVector(int64_t n);
Fun asScalar();
Fun dot();
Fun fma();
Fun head();
Fun tail();
Fun transposeW();
// let(e, f): f applied to e, e computed once (Lift's Let); f is usually a lambda.
Fun let(const Callable& f);
Fun reorderStride(arith::Expr s);
Fun slide(arith::Expr size, arith::Expr step);
Fun pad(arith::Expr left, arith::Expr right, PadMode mode);
Fun padConstant(arith::Expr left, arith::Expr right, std::string value);
Fun iterate(arith::Expr n, const Callable& f);
Fun vectorize(int64_t n, const Callable& f);
Fun toGlobal(const Callable& f);
Fun toLocal(const Callable& f);
Fun toPrivate(const Callable& f);
Fun get(int i);
Fun zipPattern(int arity);
Fun tuplePattern(int arity);
Fun gather(IndexFun f);
Fun scatter(IndexFun f);

// md_hom(f, (⊛1, ..., ⊛d)) of seed 001: one combine operator per dimension, outermost first;
// nullopt stands for concatenation (++) in that dimension.
Fun mdHom(const Callable& f, const std::vector<std::optional<Callable>>& combine);
// The view pair_vv, pair_mv or pair_mm (see isMdHomView).
Fun mdHomView(PatternKind k);

// ----- issue 16: MapSeqSlide -----
// mapSeqSlide(size, step, f): map(f) o slide(size, step) computed sequentially, the window kept
// in private memory and shifted by `step` each iteration (Lift's MapSeqSlide(f, size, step)).
Fun mapSeqSlide(arith::Expr size, arith::Expr step, const Callable& f);

// ----- issue 16: the array generators (docs/LANGUAGE.md) -----
// arrayFromValue(v, n): [T]n, every element v.
Expr arrayFromValue(Expr v, arith::Expr n);
// arrayFromGenerator(n, i => e): [int]n whose element i is e, an index expression in the
// variable `i` (of range [0, n)).
Expr arrayFromGenerator(arith::Expr n, arith::Expr i, arith::Expr e);
// array(2D|3D)FromUserFun(f, lengths): element (i[, j[, k]]) is f(i[, j[, k]], lengths...), f a
// user function of int parameters; one, two or three lengths, outermost first.
Expr arrayFromUserFun(const Callable& f, std::vector<arith::Expr> lengths);

IndexFun reverseIndex();
IndexFun strideIndex(arith::Expr s);
IndexFun transposeIndex(arith::Expr rows, arith::Expr cols);
IndexFun shiftIndex(arith::Expr k);

// Calls of the patterns that take several data arguments.
Expr zip(std::vector<Expr> arrays);
Expr tuple(std::vector<Expr> elems);
Expr get(int i, Expr t);
Expr dot(Expr a, Expr b);
Expr fma(Expr a, Expr b, Expr c);
// Element i of xs, i an int value: at(xs, i) (unchecked) and checkedAt(xs, i, d) (d when i is
// out of range); filter(xs, ids) is the array of xs[ids[j]].
Expr at(Expr xs, Expr i);
Expr checkedAt(Expr xs, Expr i, Expr d);
Expr filter(Expr xs, Expr ids);
// pair_vv(x, y), pair_mv(M, v) and pair_mm(A, B): the inputs of md_dot, md_gemv and md_gemm.
Expr pairVV(Expr x, Expr y);
Expr pairMV(Expr m, Expr v);
Expr pairMM(Expr a, Expr b);

// ----- programs ------------------------------------------------------------------------
// A program whose inputs are `inputs` (with declared types). Its size declarations are the
// size variables of the input types (in order of appearance), its user functions those called.
Program program(std::string name, std::vector<Param> inputs, Expr body);
// The user functions reachable from f, each definition once, in order of first use.
std::vector<std::shared_ptr<const UserFunDef>> userFunsOf(const Fun& f);

}  // namespace lift::ir
