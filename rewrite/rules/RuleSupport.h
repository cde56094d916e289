// Helpers shared by the rule files: failure messages, types at a site, parameter candidates,
// the algebra of reduction operators (associativity, commutativity, identities) and the
// application of functions to tuple components.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "rewrite/Match.h"
#include "rewrite/Rule.h"
#include "rewrite/RuleRegistry.h"

namespace lift::rewrite::support {

using ir::Expr;
using ir::Fun;
using ir::PatternKind;

template <class... A>
Outcome fail(fmt::format_string<A...> f, A&&... a) {
  return Outcome::fail(fmt::format(f, std::forward<A>(a)...));
}

inline std::string str(arith::Expr e) { return arith::toString(e); }
std::string typeStr(Type t);
std::string patName(PatternKind k);

// The type of e at the site; its length if it is an array (null otherwise).
Type typeAt(const Site& s, const Expr& e);
arith::Expr lengthAt(const Site& s, const Expr& e);

// The failure for a rule that needs a type it cannot know: inside an iterate's function the
// lengths change between iterations.
Outcome unknownType(const Site& s, const std::string& what = "the input");

// Split-factor candidates for an array of length `len`: the default first (if it divides),
// then other constants that provably divide it, smallest first (at most `max`).
std::vector<ParamValues> factorCandidates(const std::string& name, arith::Expr len, int64_t def,
                                          size_t max = 6, bool allowWhole = false);
// The constant divisors (> 1) of `len`, as far as the arithmetic can prove them.
std::vector<int64_t> provenDivisors(arith::Expr len, size_t max = 12, bool allowWhole = false);

// ----- reduction operators --------------------------------------------------------------

enum class BinOp : uint8_t { None, Add, Mul, Max, Min, And, Or, Xor, LogAnd, LogOr };

struct OperatorInfo {
  BinOp op = BinOp::None;  // the scalar operator (also for element-wise lifted operators)
  bool associative = false;
  bool commutative = false;
  bool idempotent = false;  // op(a, a) = a: any initial value works for partial reductions
  int liftDepth = 0;        // 0: on scalars/vectors; d: element-wise over d array levels
  std::string why;          // when not associative: why not
};
// What is known about a binary function f used as a reduction operator.
OperatorInfo analyseOperator(const Fun& f);
// The binary operator computed by a user function body `return a OP b;` (either order).
BinOp userFunOperator(const ir::UserFunDef& d);
// Whether `init` is the identity of op (0 for +, 1 for *; array and vector literals of it).
bool isIdentityOf(BinOp op, const Expr& init);
// Why a reduction of f from init cannot be split into partial reductions; "" if it can.
std::string partialReductionProblem(const Fun& f, const Expr& init, bool needCommutative);

// ----- building ------------------------------------------------------------------------------

// f applied to the components of a tuple: a function of as many parameters (lambda or user
// function) gets them as arguments; a one-parameter lambda gets tuple(...) with get-of-tuple
// simplified away; other functions get the tuple.
Expr applyToTuple(const Fun& f, std::vector<Expr> components);
// Rewrites get(i, tuple(a0, ..., an)) to ai everywhere in e.
Expr simplifyGetOfTuple(const Expr& e);

// ----- components of tuples ------------------------------------------------------------------

// The number of uses of p in e that are components of it, get(i, p), by component (index i).
std::vector<int> componentUses(const Expr& e, const ir::ParamNode* p, int arity);
// Whether every use of p in e is a component of it, get(i, p) (p is used at least once).
bool usedOnlyThroughGet(const Expr& e, const ir::ParamNode* p);
// e with every get(i, p) replaced by component(i).
Expr replaceComponents(const Expr& e, const ir::ParamNode* p, const std::function<Expr(int)>& component);

using ir::containsPattern;
// Whether the expression calls a user function (computes rather than reorganises data).
bool computes(const Expr& e);

// Why the site may not run parallel maps (mapGlb, mapWrg, mapLcl): "it is inside a mapSeq
// (...)" when it is inside a sequential pattern's or a reduction's function; "" if it may.
std::string sequentialContext(const Site& s);

// What workItemSequentialContext counts; the rules for mapLcl and for the warp and atomic maps
// differ in it.
struct WorkItemContextOptions {
  // The maps over work-items: a sequential loop inside one of them (below the work-group map) is
  // one work-item's.
  std::vector<PatternKind> workItemMaps;
  bool iterateIsLoop = false;       // an iterate is such a loop (else it does not count)
  bool scansAreSequential = false;  // scan and scanSeq hold sequential code, as reduce does
  std::string loopReason;           // why not, when the site is inside one work-item's loop
};
// Why a map over work-items may not run at the site because one work-item's sequential code
// encloses it; "" if it may. Only the patterns between the site and the innermost work-group map
// count: a sequential loop of the whole work-group (mapSeq, reduceSeq or their unrolled forms
// that no map of `o.workItemMaps` encloses) is fine, as every work-item runs it the same number
// of times; the operator of an unlowered reduction (reduce, partRed), a mapVec (or a scan, with
// `o.scansAreSequential`) and a loop inside a map over work-items are not.
std::string workItemSequentialContext(const Site& s, const WorkItemContextOptions& o);

// The replacement of a call that keeps the type: e.g. an address-space wrapper around a map.
Expr wrapCall(PatternKind wrapper, const ir::CallNode& call);

// The parent expression of the site, when the site is argument `argIndex` of a call.
struct ParentCall {
  const ir::CallNode* call = nullptr;
  int argIndex = -1;
};
ParentCall parentCall(const Site& s);

// f is pattern k used as a function: the pattern itself, or fun(a => P $ a) with P of kind k
// not using a (its eta-expansion). The pattern node, or null.
const ir::PatternNode* functionAsPattern(const Fun& f, PatternKind k);
// f is a map used as a function: map(g) or fun(a => map(g) $ a) with g not using a.
std::optional<m::MapCall> functionAsMap(const Fun& f);

// The user function that `make` builds for `key` (its name, body and signature), made once and
// shared by every program, so that a program never holds two user functions of one name (the
// vector versions of vectorize-lanes, the fused functions of userfun-fusion). Null when `make`
// returns null.
std::shared_ptr<const ir::UserFunDef> cachedUserFun(
    const std::string& key, const std::function<std::shared_ptr<ir::UserFunDef>()>& make);

// Registration shorthand; `lift` is the Lift rule it corresponds to (Rule::lift).
Rule makeRule(std::string name, Family family, std::string description, std::string lhs, std::string rhs,
              std::vector<PatternKind> roots, std::function<Outcome(const Site&, const ParamValues&)> apply,
              std::string lift = "new");

}  // namespace lift::rewrite::support
