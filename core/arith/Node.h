// Internal to core/arith: the layout of an ArithExpr node and the helpers that the node table,
// the analyses and the per-operator rule files share. Not part of the public API.
#pragma once

#include <atomic>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {

// A node is created once by the uniquing table (ArithExpr.cpp) and never changes afterwards,
// except for the lazily computed symbolic bounds, which are published through atomics (two
// threads computing them at once store the same uniqued nodes).
class Node {
 public:
  Kind kind = Kind::Cst;
  bool canonShape = true;       // Sum/Prod: flat, sorted, folded (false for raw-built shapes)
  bool hasRangeVar = false;     // contains a variable with an upper bound (not just symbols)
  bool dependentRange = false;  // contains a variable whose range mentions such a variable
  // Overflow facts (OverflowAnalysis.cpp), over every intermediate value of evaluating the
  // node (its sub-nodes and the partial sums and products of n-ary nodes): `fits` when the
  // constant bounds of each are known, so none can overflow 64 bits in the variables' ranges;
  // `exceeds` when the ranges bound the operands of one but its bounds lie outside 64 bits.
  bool fits = true;
  bool exceeds = false;
  uint32_t nOps = 0;  // stored operands; a Var stores {lo, hi} but reports none
  uint32_t depth = 1;
  int64_t value = 0;                  // Cst
  const std::string* name = nullptr;  // Var
  size_t hash = 0;                    // uniquing hash (identity based, per run)
  uint64_t stable = 0;                // structural hash, the same in every run
  size_t size = 1;                    // tree size, saturating
  int64_t cdiv = 1;                   // constantDivisor
  ConstBounds cb;                     // constant bounds by interval arithmetic
  const Expr* ops = nullptr;
  Node* next = nullptr;  // hash chain in the uniquing table

  mutable std::atomic<const Node*> symLo{nullptr}, symHi{nullptr};
  mutable std::atomic<bool> symDone{false};

  std::span<const Expr> all() const { return {ops, nOps}; }
  Expr op(size_t i) const { return ops[i]; }
};

namespace detail {

// A vector of trivially copyable values that keeps its first N elements inline: the rule
// code builds many short operand lists, and the heap allocations of std::vector dominated.
template <typename T, size_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  SmallVec() = default;
  SmallVec(std::initializer_list<T> l) { insert(end(), l.begin(), l.end()); }
  SmallVec(const T* first, const T* last) { insert(end(), first, last); }
  SmallVec(std::span<const T> s) { insert(end(), s.data(), s.data() + s.size()); }
  SmallVec(const SmallVec& o) { insert(end(), o.begin(), o.end()); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      size_ = 0;
      insert(end(), o.begin(), o.end());
    }
    return *this;
  }
  ~SmallVec() {
    if (data_ != inline_()) ::operator delete(data_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  operator std::span<const T>() const { return {data_, size_}; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n <= cap_) return;
    T* nd = static_cast<T*>(::operator new(n * sizeof(T)));
    if (size_) std::memcpy(static_cast<void*>(nd), data_, size_ * sizeof(T));
    if (data_ != inline_()) ::operator delete(data_);
    data_ = nd;
    cap_ = n;
  }
  void push_back(const T& v) {
    if (size_ == cap_) {
      T copy = v;  // v may live in this vector
      reserve(cap_ * 2);
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  T* insert(T* pos, const T* first, const T* last) {
    size_t at = static_cast<size_t>(pos - data_), n = static_cast<size_t>(last - first);
    if (size_ + n > cap_) {
      if (first >= data_ && first < data_ + size_) {  // the range lives in this vector
        std::vector<T> tmp(first, last);
        reserve(std::max(cap_ * 2, size_ + n));
        return insertNoAlias(at, tmp.data(), n);
      }
      reserve(std::max(cap_ * 2, size_ + n));
    }
    return insertNoAlias(at, first, n);
  }
  T* insert(T* pos, const T& v) {
    T copy = v;
    return insert(pos, &copy, &copy + 1);
  }
  T* erase(T* pos) {
    std::memmove(static_cast<void*>(pos), pos + 1, static_cast<size_t>(end() - pos - 1) * sizeof(T));
    --size_;
    return pos;
  }
  void assign(size_t n, const T& v) {
    size_ = 0;
    for (size_t i = 0; i < n; ++i) push_back(v);
  }

 private:
  T* inline_() { return reinterpret_cast<T*>(buf_); }
  T* insertNoAlias(size_t at, const T* first, size_t n) {
    std::memmove(static_cast<void*>(data_ + at + n), data_ + at, (size_ - at) * sizeof(T));
    std::memmove(static_cast<void*>(data_ + at), first, n * sizeof(T));
    size_ += n;
    return data_ + at;
  }

  alignas(T) unsigned char buf_[N * sizeof(T)];
  T* data_ = reinterpret_cast<T*>(buf_);
  size_t size_ = 0, cap_ = N;
};
using Exprs = SmallVec<Expr, 12>;

// Node fields without a call (Expr's accessors are out of line in the public header).
inline Kind kindOf(Expr e) { return e.node()->kind; }
inline bool isConst(Expr e) { return e.node()->kind == Kind::Cst; }

// ----- node table (ArithExpr.cpp) -----
// Returns the unique node with these fields, creating it if needed. For a Var, ops = {lo, hi}.
Expr intern(Kind k, int64_t value, const std::string* name, std::span<const Expr> ops);
inline Expr intern(Kind k, std::span<const Expr> ops) { return intern(k, 0, nullptr, ops); }
inline Expr intern2(Kind k, Expr a, Expr b) {
  Expr o[2] = {a, b};
  return intern(k, 0, nullptr, o);
}
// The structural order of Sum operands used for display: larger, unbounded terms first,
// constants last (see ARITH.md).
bool sumTermLess(Expr a, Expr b);

// ----- analyses computed when a node is created -----
ConstBounds computeConstBounds(const Node& n);  // RangeAnalysis.cpp
// The constant bounds of acc + operand (k == Sum) or acc * operand (k == Prod), one step of
// a sum's or product's evaluation; `exceeds` is set when a finite end lies outside 64 bits.
ConstBounds stepBounds(Kind k, const ConstBounds& acc, const ConstBounds& operand, bool& exceeds);
void computeOverflowFacts(Node& n);  // OverflowAnalysis.cpp, after cb

// ----- the overflow guard of the smart constructors (OverflowAnalysis.cpp) -----
// Whether a constructor may return `rewritten` for the operation k on `inputs` instead of the
// raw node (the inputs combined in their order): when every intermediate of `rewritten` fits
// in 64 bits, or when none is shown by the ranges to exceed them and the raw node's
// intermediates are not all known to fit either (an unbounded variable: ARITH.md, "Overflow").
bool overflowSafeRewrite(Expr rewritten, Kind k, std::span<const Expr> inputs);
int64_t computeConstDivisor(const Node& n);  // DivisibilityAnalysis.cpp

// ----- checked integer arithmetic: nullopt on overflow. INT64_MIN counts as overflow so
// that negating a folded constant is always safe. -----
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
inline std::optional<int64_t> checkedNeg(int64_t a) {
  if (a == INT64_MIN) return std::nullopt;
  return -a;
}
std::optional<int64_t> checkedPow(int64_t base, int64_t exp);  // exp >= 0
int64_t gcd64(int64_t a, int64_t b);                           // of absolute values
// pow with the semantics of Simplify_Pow.cpp; nullopt on overflow or 0 to a negative power.
std::optional<int64_t> foldPow(int64_t base, int64_t exp);

// floor(a/b) and ceil(a/b) of integers over the rationals, b != 0; nullopt on overflow
// (INT64_MIN / -1). Simplify_FloorCeil.cpp.
std::optional<int64_t> floorQuotient(int64_t a, int64_t b);
std::optional<int64_t> ceilQuotient(int64_t a, int64_t b);
// Constant bounds of floor(n/d) (k == Kind::Floor) or ceil(n/d) from those of n and d.
ConstBounds floorCeilBounds(Kind k, const ConstBounds& n, const ConstBounds& d);
// Whether lhs cmp rhs holds (Cmp::Lt, Le or Eq as stored in an Ite node).
inline bool compareValues(Cmp c, int64_t lhs, int64_t rhs) {
  switch (c) {
    case Cmp::Lt:
      return lhs < rhs;
    case Cmp::Le:
      return lhs <= rhs;
    case Cmp::Eq:
      return lhs == rhs;
    case Cmp::Ne:
      return lhs != rhs;
    case Cmp::Gt:
      return lhs > rhs;
    case Cmp::Ge:
      return lhs >= rhs;
  }
  return false;
}

// ----- n-ary builders (Simplify_Add.cpp, Simplify_Mul.cpp) -----
Expr addMany(std::span<const Expr> terms);
Expr mulMany(std::span<const Expr> factors);
inline Expr addMany(std::initializer_list<Expr> l) {
  return addMany(std::span<const Expr>(l.begin(), l.size()));
}
inline Expr mulMany(std::initializer_list<Expr> l) {
  return mulMany(std::span<const Expr>(l.begin(), l.size()));
}

// b - a, negating the terms of a one by one (cheaper than add(b, neg(a)) and the same value);
// used by the comparisons of the range analysis.
Expr difference(Expr b, Expr a);

// ----- terms of a sum: coefficient * product of non-constant factors -----
struct Term {
  int64_t coef = 1;
  Expr whole;  // the expression this term came from (null when built)
  const Expr* f = nullptr;
  uint32_t nf = 0;
  Expr single;  // the only factor when the term is not a product
  std::span<const Expr> factors() const {
    return f ? std::span<const Expr>(f, nf) : std::span<const Expr>(&single, 1);
  }
};
// Splits a non-constant canonical term into coefficient and factors.
Term decompose(Expr t);
// coef * factors through the smart constructors' canonical form.
Expr termExpr(int64_t coef, std::span<const Expr> factors);
bool sameFactors(std::span<const Expr> a, std::span<const Expr> b);

// ----- divisibility (DivisibilityAnalysis.cpp) -----
// a / b as an expression when b provably divides a (structurally), else null.
Expr exactDiv(Expr a, Expr b);

// x = d*q + r, where the sign condition that makes (d*q + r)/d = q + r/d and
// (d*q + r)%d = r%d hold under truncation is proven (r == 0, or x and r both >= 0, or both
// <= 0). Variant 0 moves every term divisible by d into q; variant 1 leaves the terms whose
// quotient is a constant in r ((i*N + N - 1)/N = i + (N - 1)/N); variant 2 (constant d) also
// splits the constant term ((32*M - 1)/32 = M - 1 + 31/32); variant 3 divides by a sum
// through its leading term ((i*N + i + j)/(N + 1) = i + j/(N + 1)). Simplify_Div.cpp.
struct QuotRem {
  Expr q, r;
};
std::optional<QuotRem> splitByDivisor(Expr x, Expr d, int variant);

// ----- range analysis helpers (RangeAnalysis.cpp) -----
bool provablyNonPositive(Expr e);
bool provablyNegative(Expr e);
bool provablyNonZero(Expr e);

// ----- recursion guard for the smart constructors and analyses -----
// Simplification recurses through constructors and side conditions; a guard keeps a
// pathological input from exhausting the stack: past the limit, constructors build nodes
// without further rules and proofs fail.
struct DepthGuard {
  static thread_local int depth;
  static thread_local unsigned trips;  // how often the limit was hit (results then not cached)
  static constexpr int kLimit = 160;
  DepthGuard() { ++depth; }
  ~DepthGuard() { --depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  bool tooDeep() const {
    if (depth <= kLimit) return false;
    ++trips;
    return true;
  }
};

// A rewrite rule of one operator: a name (kebab-case, listed in docs/ARITH.md) and a function
// returning the rewritten expression or null when the rule does not apply. The constructor
// keeps a result only when it is not larger than the unsimplified node.
template <typename Fn>
struct Rule {
  const char* name;
  Fn apply;
};

inline size_t sizeOf(Expr e) { return e ? e->size : 0; }
inline bool isCst(Expr e, int64_t v) { return e.node()->kind == Kind::Cst && e->value == v; }

}  // namespace detail
}  // namespace lift::arith
