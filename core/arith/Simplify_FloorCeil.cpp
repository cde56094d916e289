// Smart constructors for the exact quotients floor(n/d) and ceil(n/d) (Lift's FloorFunction and
// CeilingFunction of n /^ d) and their rule table: constant folding, integral parts of the
// numerator moved out (floor((d*q + r)/d) = q + floor(r/d), no sign condition: the division is
// exact), quotients decided by the ranges, and truncating division where the signs make it
// equal. See docs/ARITH.md.
#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace detail {
std::optional<int64_t> floorQuotient(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) --q;
  return q;
}
std::optional<int64_t> ceilQuotient(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) == (b < 0))) ++q;
  return q;
}
}  // namespace detail

namespace {

using QuotientRule = Rule<Expr (*)(Expr, Expr, Kind)>;

Expr make(Kind k, Expr n, Expr d) { return k == Kind::Floor ? floorDiv(n, d) : ceilDiv(n, d); }
std::optional<int64_t> quotient(Kind k, int64_t a, int64_t b) {
  return k == Kind::Floor ? floorQuotient(a, b) : ceilQuotient(a, b);
}

Expr foldConstants(Expr n, Expr d, Kind k) {
  if (!n.isCst() || !d.isCst()) return Expr();
  auto q = quotient(k, n->value, d->value);
  return q ? cst(*q) : Expr();
}

Expr byOne(Expr n, Expr d, Kind) {
  if (isCst(d, 1)) return n;
  if (isCst(d, -1)) return neg(n);
  return Expr();
}

// floor(d*q/d) = q.
Expr exact(Expr n, Expr d, Kind) { return exactDiv(n, d); }

// floor((d*q + r)/d) = q + floor(r/d), and ceil likewise, for any signs: the terms of the
// numerator that d divides move out, and with a constant d the constant term's multiple of d
// (floor((4*i + 7)/4) = i + 1 + floor(3/4) = i + 1).
Expr integralParts(Expr n, Expr d, Kind k) {
  auto terms = n.kind() == Kind::Sum ? n.operands() : std::span<const Expr>(&n, 1);
  Exprs whole, rest;
  for (Expr t : terms) {
    if (t.isCst() && d.isCst()) {
      auto q = quotient(k, t->value, d->value);
      auto m = q ? checkedMul(*q, d->value) : std::nullopt;
      auto r = m ? checkedAdd(t->value, -*m) : std::nullopt;
      if (!r || *q == 0) {
        rest.push_back(t);
        continue;
      }
      whole.push_back(cst(*q));
      if (*r != 0) rest.push_back(cst(*r));
      continue;
    }
    Expr q = t.isCst() ? Expr() : exactDiv(t, d);
    if (q)
      whole.push_back(q);
    else
      rest.push_back(t);
  }
  if (whole.empty() || rest.empty()) return Expr();  // nothing moves, or floor-exact applies
  whole.push_back(make(k, addMany(rest), d));
  return addMany(whole);
}

// The bounds of floor(n/d) or ceil(n/d) from constant bounds of n and d, where d's sign is
// known: the quotient is monotone in n, and at the ends of d's range for a given sign of n.
ConstBounds quotientBounds(Kind k, ConstBounds n, ConstBounds d) {
  ConstBounds r;
  if (d.hi && *d.hi <= -1) {  // floor(n/d) = floor(-n/-d)
    ConstBounds nn, nd;
    if (n.hi) nn.lo = checkedNeg(*n.hi);
    if (n.lo) nn.hi = checkedNeg(*n.lo);
    nd.lo = checkedNeg(*d.hi);
    if (d.lo) nd.hi = checkedNeg(*d.lo);
    if ((n.hi && !nn.lo) || (n.lo && !nn.hi) || !nd.lo) return r;
    return quotientBounds(k, nn, nd);
  }
  if (!d.lo || *d.lo < 1) return r;
  if (n.lo) {
    if (*n.lo >= 0)
      r.lo = d.hi ? quotient(k, *n.lo, *d.hi) : std::optional<int64_t>(k == Kind::Ceil && *n.lo > 0 ? 1 : 0);
    else
      r.lo = quotient(k, *n.lo, *d.lo);
  }
  if (n.hi) {
    if (*n.hi >= 0)
      r.hi = quotient(k, *n.hi, *d.lo);
    else
      r.hi = d.hi ? quotient(k, *n.hi, *d.hi) : std::optional<int64_t>(k == Kind::Floor ? -1 : 0);
  }
  return r;
}

// The ranges of n and d leave one value.
Expr decided(Expr n, Expr d, Kind k) {
  if (n.isCst() && d.isCst()) return Expr();
  ConstBounds b = quotientBounds(k, constantBounds(n), constantBounds(d));
  if (b.lo && b.hi && *b.lo == *b.hi) return cst(*b.lo);
  return Expr();
}

// Truncation is the floor for a non-negative quotient and the ceiling for a non-positive one.
Expr truncating(Expr n, Expr d, Kind k) {
  bool nonNegQuotient =
      (provablyNonNegative(n) && provablyPositive(d)) || (provablyNonPositive(n) && provablyNegative(d));
  bool nonPosQuotient =
      (provablyNonPositive(n) && provablyPositive(d)) || (provablyNonNegative(n) && provablyNegative(d));
  if (k == Kind::Floor ? nonNegQuotient : nonPosQuotient) return div(n, d);
  return Expr();
}

// floor(n/d) = floor(-n/-d) for a negative constant d.
Expr negativeDivisor(Expr n, Expr d, Kind k) {
  if (!d.isCst() || d->value >= 0 || d->value == INT64_MIN) return Expr();
  return make(k, neg(n), cst(-d->value));
}

const QuotientRule kQuotientRules[] = {
    {"floor-constant-fold", foldConstants},      {"floor-by-one", byOne},    {"floor-exact", exact},
    {"floor-integral-parts", integralParts},     {"floor-decided", decided}, {"floor-truncating", truncating},
    {"floor-negative-divisor", negativeDivisor},
};

Expr build(Kind k, Expr n, Expr d) {
  LIFT_ASSERT(n && d, "floor/ceil of a null expression");
  if (isCst(d, 0)) throw LiftError("division by zero");
  DepthGuard guard;
  if (!guard.tooDeep()) {
    size_t rawSize = 1 + n->size + d->size;
    const Expr operands[2] = {n, d};
    for (const QuotientRule& rule : kQuotientRules) {
      Expr r = rule.apply(n, d, k);
      if (r && r->size <= rawSize && overflowSafeRewrite(r, k, operands)) return r;
    }
  }
  return intern2(k, n, d);
}

}  // namespace

Expr floorDiv(Expr n, Expr d) { return build(Kind::Floor, n, d); }
Expr ceilDiv(Expr n, Expr d) { return build(Kind::Ceil, n, d); }

Expr rawFloorDiv(Expr n, Expr d) {
  if (isCst(d, 0)) throw LiftError("division by zero");
  if (n.isCst() && d.isCst())
    if (auto q = floorQuotient(n->value, d->value)) return cst(*q);
  return intern2(Kind::Floor, n, d);
}
Expr rawCeilDiv(Expr n, Expr d) {
  if (isCst(d, 0)) throw LiftError("division by zero");
  if (n.isCst() && d.isCst())
    if (auto q = ceilQuotient(n->value, d->value)) return cst(*q);
  return intern2(Kind::Ceil, n, d);
}

namespace detail {
ConstBounds floorCeilBounds(Kind k, const ConstBounds& n, const ConstBounds& d) {
  return quotientBounds(k, n, d);
}
}  // namespace detail

}  // namespace lift::arith
