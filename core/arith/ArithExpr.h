// ArithExpr: immutable, uniqued symbolic integer expressions for array lengths and indices.
//
// Every node is created through the smart constructors below, which return the expression
// already simplified into canonical form; two equal expressions are the same node, so
// equality is pointer identity and hashing is free. `/` and `%` have C semantics (truncation
// toward zero), so every simplification is valid for the generated OpenCL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace lift::arith {

// Floor and Ceil are the exact quotients floor(n/d) and ceil(n/d) of two integer expressions
// (Lift's FloorFunction and CeilingFunction of n /^ d); Ite is `lhs cmp rhs ? then : else`
// (Lift's IfThenElse); Lookup is an entry of a constant table (Lift's Lookup).
enum class Kind : uint8_t { Cst, Var, Sum, Prod, Div, Mod, Pow, Min, Max, Floor, Ceil, Abs, Ite, Lookup };

// The comparison of an if-then-else. Nodes store only Lt, Le and Eq: the constructor swaps the
// operands of Gt and Ge and the branches of Ne.
enum class Cmp : uint8_t { Lt, Le, Eq, Ne, Gt, Ge };

class Node;

// A handle to a uniqued node. Cheap to copy; compares by identity.
class Expr {
 public:
  Expr() = default;  // the null expression; most operations require a non-null one
  explicit Expr(const Node* n) : n_(n) {}
  const Node* node() const { return n_; }
  const Node* operator->() const { return n_; }
  explicit operator bool() const { return n_ != nullptr; }
  friend bool operator==(Expr a, Expr b) { return a.n_ == b.n_; }
  friend bool operator!=(Expr a, Expr b) { return a.n_ != b.n_; }

  Kind kind() const;
  bool isCst() const;
  // The value of a constant; precondition isCst().
  int64_t value() const;
  std::span<const Expr> operands() const;
  size_t hash() const;
  // Number of nodes in the expression tree (shared subtrees counted each time).
  size_t size() const;

 private:
  const Node* n_ = nullptr;
};

// Orders by identity (for std::map keys); use canonicalLess for a stable order.
inline bool operator<(Expr a, Expr b) { return a.node() < b.node(); }

// A total order on expressions used for canonical operand sorting (stable across runs).
bool canonicalLess(Expr a, Expr b);

// ----- construction ---------------------------------------------------------------------
Expr cst(int64_t v);
// A variable with range lo <= v < hi. A null `hi` means no upper bound. Variables are uniqued
// by (name, lo, hi).
Expr var(const std::string& name, Expr lo, Expr hi);
// A size variable: an array length, >= 1, no upper bound.
Expr sizeVar(const std::string& name);

Expr add(Expr a, Expr b);
Expr sub(Expr a, Expr b);
Expr mul(Expr a, Expr b);
Expr neg(Expr a);
Expr div(Expr a, Expr b);  // C division, truncation toward zero
Expr mod(Expr a, Expr b);  // C remainder, sign of the dividend
Expr pow(Expr base, Expr exponent);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
Expr floorDiv(Expr n, Expr d);  // floor(n/d) over the rationals (d != 0)
Expr ceilDiv(Expr n, Expr d);   // ceil(n/d) over the rationals (d != 0)
Expr abs(Expr a);
// lhs cmp rhs ? then : otherwise. Only the branch the comparison selects is evaluated.
Expr ifThenElse(Expr lhs, Cmp cmp, Expr rhs, Expr then, Expr otherwise);
// table[index]; evaluating it with an index outside the table is an error.
Expr lookup(const std::vector<int64_t>& table, Expr index);

// Builds without any simplification beyond constant folding: the "raw" form that code
// generation shows next to the simplified one (and the input the simplifier is tested on).
Expr rawAdd(Expr a, Expr b);
Expr rawMul(Expr a, Expr b);
Expr rawDiv(Expr a, Expr b);
Expr rawMod(Expr a, Expr b);
Expr rawFloorDiv(Expr n, Expr d);
Expr rawCeilDiv(Expr n, Expr d);
Expr rawAbs(Expr a);
Expr rawIfThenElse(Expr lhs, Cmp cmp, Expr rhs, Expr then, Expr otherwise);
Expr rawLookup(const std::vector<int64_t>& table, Expr index);

// The parts of the new forms: the comparison of an Ite node (operands() are lhs, rhs, then,
// otherwise), and the table and index of a Lookup node (operands() are index, entries...).
Cmp iteCmp(Expr e);
std::vector<int64_t> lookupTable(Expr e);
Expr lookupIndex(Expr e);

inline Expr operator+(Expr a, Expr b) { return add(a, b); }
inline Expr operator-(Expr a, Expr b) { return sub(a, b); }
inline Expr operator*(Expr a, Expr b) { return mul(a, b); }
inline Expr operator/(Expr a, Expr b) { return div(a, b); }
inline Expr operator%(Expr a, Expr b) { return mod(a, b); }
inline Expr operator-(Expr a) { return neg(a); }
inline Expr operator+(Expr a, int64_t b) { return add(a, cst(b)); }
inline Expr operator-(Expr a, int64_t b) { return sub(a, cst(b)); }
inline Expr operator*(Expr a, int64_t b) { return mul(a, cst(b)); }
inline Expr operator/(Expr a, int64_t b) { return div(a, cst(b)); }
inline Expr operator%(Expr a, int64_t b) { return mod(a, cst(b)); }
inline Expr operator*(int64_t a, Expr b) { return mul(cst(a), b); }
inline Expr operator+(int64_t a, Expr b) { return add(cst(a), b); }

// ----- variables ------------------------------------------------------------------------
// For a Var node: its name and range.
const std::string& varName(Expr v);
Expr varLo(Expr v);
Expr varHi(Expr v);  // null when unbounded
// Every variable occurring in e, in canonical order, without duplicates.
std::vector<Expr> variables(Expr e);

// ----- analyses (queried by simplification rules' side conditions) ---------------------
// Inclusive bounds: lo <= e <= hi. Symbolic: bounds are expressions (a bound may be null when
// unknown). `constantBounds` gives numeric bounds where they are known.
struct Bounds {
  Expr lo, hi;  // inclusive; null = unknown (-inf / +inf)
};
Bounds bounds(Expr e);
struct ConstBounds {
  std::optional<int64_t> lo, hi;  // inclusive
};
ConstBounds constantBounds(Expr e);

// Proven facts (false means "not proven", never "disproven").
bool provablyNonNegative(Expr e);
bool provablyPositive(Expr e);
bool provablyLess(Expr a, Expr b);       // a < b for every value of the variables
bool provablyLessEqual(Expr a, Expr b);  // a <= b
// a is a multiple of b for every value of the variables (e.g. 4*N divisible by 2, N*M by M).
bool provablyDivisible(Expr a, Expr b);
// The largest constant known to divide e (1 when nothing is known; 0 for the constant 0).
int64_t constantDivisor(Expr e);

// ----- evaluation, substitution ---------------------------------------------------------
using Env = std::map<std::string, int64_t>;
// Evaluates with C semantics. Throws LiftError for a missing variable or division by zero.
int64_t evaluate(Expr e, const Env& env);
// Replaces variables (by node identity) and re-simplifies.
Expr substitute(Expr e, const std::map<Expr, Expr, std::less<>>& replacement);
// Rebuilds e through the smart constructors: the simplified form of a raw expression.
Expr simplify(Expr e);

// ----- text -----------------------------------------------------------------------------
// C syntax, minimal parentheses: "4*wg_id + l_id", "min(a, b)", "pow(a, b)", the text that
// `parse` reads back; floor, ceil and lookup in the parser's notation: "floor(i/4)",
// "ceil(n/d)", "lookup({3, 1, 4}, i)"; "abs(x)" and "a < b ? t : e".
std::string toString(Expr e);
// OpenCL C with int semantics, for kernels: as toString, except floor and ceil spelled with
// / and % ("(i/4 - (i%4 < 0))"), abs as "max(x, -x)" (OpenCL's abs returns an unsigned type)
// and lookup as a chain of conditionals.
std::string toOpenCL(Expr e);
// Parses C-like text: integers, identifiers, + - * / % (C precedence), unary minus,
// parentheses, min(a,b), max(a,b), pow(a,b), abs(a), floor(n/d) and ceil(n/d) (the
// argument's outermost / is exact division; an argument without one is an integer, its own
// floor), lookup({c0, c1, ...}, i) with integer literals, and `a < b ? t : e` with the
// comparisons < <= > >= == != (the lowest precedence, as in C). Identifiers are looked up in `vars` by name;
// unknown identifiers become size variables. Throws LiftError with the column (1-based) of
// the problem in the diagnostic's location; `file` names the source in messages. The result
// is simplified unless `raw` is set.
Expr parse(const std::string& text, const std::map<std::string, Expr>& vars = {},
           const std::string& file = "<expr>", bool raw = false);

}  // namespace lift::arith

template <>
struct std::hash<lift::arith::Expr> {
  size_t operator()(lift::arith::Expr e) const noexcept { return std::hash<const void*>()(e.node()); }
};

namespace lift::arith {
// e with every occurrence of a key of `replacement` (any node, by identity) replaced by its
// value, the rest of the tree kept as it is (no simplification): common subexpressions of
// printed indices replaced by temporaries.
Expr replaceSubexpressions(Expr e, const std::unordered_map<Expr, Expr>& replacement);
}  // namespace lift::arith
