// Matching and building helpers shared by the rules: views of pattern calls (a reduction
// applied directly or wrapped in a lambda), unary functions as parameter + body, application
// with beta reduction, composition, and fresh copies for subtrees a rule duplicates.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Build.h"
#include "core/ir/IR.h"

namespace lift::rewrite::m {

using ir::Expr;
using ir::Fun;
using ir::PatternKind;

// The pattern node called by e when e is a call of a pattern of kind k.
inline const ir::PatternNode* callOf(const Expr& e, PatternKind k) { return ir::calledPattern(e, k); }
inline const ir::PatternNode* callOfAny(const Expr& e) { return ir::calledPattern(e); }
// Argument i of a call (precondition: e is a call with more than i arguments).
const Expr& arg(const Expr& e, size_t i);
size_t argCount(const Expr& e);

bool isSequentialMap(PatternKind k);  // mapSeq, mapSeqUnroll
bool isReduction(PatternKind k);      // reduce, reduceSeq, reduceSeqUnroll (not partRed)

// A call of a map-like pattern: map(f) $ input.
struct MapCall {
  const ir::PatternNode* pattern = nullptr;
  Fun fun;  // the pattern node as a Fun
  Fun f;
  Expr input;
  PatternKind kind() const { return pattern->pattern(); }
  int dim() const { return pattern->index(); }
};
// When `kind` is given, only maps of that kind match; otherwise every map-like pattern except mapVec.
std::optional<MapCall> mapCall(const Expr& e, std::optional<PatternKind> kind = std::nullopt);

// A reduction applied to an input: Reduce(f)(init, xs), also partRed and the sequential forms.
struct ReduceCall {
  const ir::PatternNode* pattern = nullptr;
  Fun fun;
  Fun f;
  Expr init;
  Expr input;
  PatternKind kind() const { return pattern->pattern(); }
};
std::optional<ReduceCall> reduceCall(const Expr& e, std::optional<PatternKind> kind = std::nullopt);

// A function value that is a reduction with its initial value: fun(x => Reduce(f)(init, x))
// with x not used in init (how `reduce(f, init)` appears as map's function).
struct ReduceFun {
  const ir::PatternNode* pattern = nullptr;
  Fun fun;
  Fun f;
  Expr init;
  PatternKind kind() const { return pattern->pattern(); }
};
std::optional<ReduceFun> reduceFun(const Fun& f);

// A unary function as parameter + body. A lambda of one parameter is taken apart; any other
// function g becomes (p, g(p)) with a fresh p.
struct Unary {
  ir::Param param;
  Expr body;
  bool synthesized = false;
};
Unary unary(const Fun& f, const std::string& name = "x");

// Whether f is a function of one argument that returns it unchanged: fun(x => x), or a user
// function whose body is `return <its parameter>;`.
bool isIdentityFun(const Fun& f);
// Whether a user function's body is exactly `return p;` for its only parameter.
bool isIdentityUserFun(const ir::UserFunDef& d);

// Number of uses of p in e (or f).
int uses(const Expr& e, const ir::ParamNode* p);
int uses(const Fun& f, const ir::ParamNode* p);
bool mentions(const Expr& e, const ir::ParamNode* p);
bool mentions(const Fun& f, const ir::ParamNode* p);

// Whether e is a parameter, a literal or a component (get) of one: free to duplicate.
bool isTrivial(const Expr& e);
// f applied to args. A lambda is beta-reduced when that duplicates no work (each parameter is
// used at most once or its argument is trivial); any other function is called.
Expr apply(const Fun& f, std::vector<Expr> args);
// fun(x => f(g(x))), beta-reducing where apply does.
Fun compose(const Fun& f, const Fun& g, const std::string& name = "x");
// A lambda of one fresh parameter.
Fun lambda1(const std::string& name, const std::function<Expr(Expr)>& body);
Fun lambda2(const std::string& a, const std::string& b, const std::function<Expr(Expr, Expr)>& body);
// The lambda for `reduce(f, init)` used as a function: fun(x => R(f)(init, x)).
Fun reduceAsFun(PatternKind k, const Fun& f, const Expr& init, std::vector<arith::Expr> sizes = {});

// A pattern node with the same parameters as p but another kind / nested function.
Fun withKind(const ir::PatternNode& p, PatternKind k);
Fun withFun(const ir::PatternNode& p, Fun f, size_t i = 0);
Fun mapOfKind(PatternKind k, const Fun& f, int dim = 0);

// Calls of common patterns.
Expr call(const Fun& f, std::vector<Expr> args);
Expr callMap(PatternKind k, const Fun& f, Expr input, int dim = 0);
Expr callSplit(arith::Expr n, Expr input);
Expr callJoin(Expr input);
Expr callTranspose(Expr input);
Expr callGet(int i, Expr t);
Expr callZip(std::vector<Expr> arrays);
Expr callTuple(std::vector<Expr> elems);
Expr callReduce(PatternKind k, const Fun& f, Expr init, Expr input, std::vector<arith::Expr> sizes = {});
Fun splitFun(arith::Expr n);
Fun joinFun();
Fun transposeFun();
Fun getFun(int i);

// Deep copies with fresh parameters and fresh node ids (user function definitions and types
// are shared), for subtrees a rule puts in two places: the IR is a graph, and two occurrences
// must not share binders or nodes that code generation gives memory to.
Expr freshCopy(const Expr& e);
Fun freshCopy(const Fun& f);

// A literal as a scalar value, for the checks of reduction identities ("0.0f" -> 0).
std::optional<double> literalValue(const Expr& e);

}  // namespace lift::rewrite::m
