// Smart constructor for C division (truncation toward zero) and its rule table. Every rule is
// sound for negative values; side conditions ask the range and divisibility analyses.
#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace detail {

namespace {
bool signsAgree(Expr x, Expr r) {
  return isCst(r, 0) || (provablyNonNegative(r) && provablyNonNegative(x)) ||
         (provablyNonPositive(r) && provablyNonPositive(x));
}

// x = q*d + r for a divisor that is a sum, by dividing the terms of x by the leading term of d
// and taking the remainder as a difference: (i*N + j + i)/(N + 1) has q = i, r = j.
std::optional<QuotRem> splitBySum(Expr x, Expr d) {
  if (d->kind != Kind::Sum || isConst(d->ops[0])) return std::nullopt;
  Expr lead = d->ops[0];
  auto terms = x->kind == Kind::Sum ? x->all() : std::span<const Expr>(&x, 1);
  Exprs qs;
  for (Expr t : terms)
    if (Expr q = exactDiv(t, lead)) qs.push_back(q);
  if (qs.empty()) return std::nullopt;
  Expr q = addMany(qs);
  Expr r = difference(x, mul(q, d));
  if (r->size >= x->size || !signsAgree(x, r)) return std::nullopt;
  return QuotRem{q, r};
}
}  // namespace

std::optional<QuotRem> splitByDivisor(Expr x, Expr d, int variant) {
  if (variant == 3) return splitBySum(x, d);
  auto terms = x.kind() == Kind::Sum ? x.operands() : std::span<const Expr>(&x, 1);
  Exprs qs, rs;
  bool constQuotient = false;
  int64_t constant = 0;
  for (Expr t : terms) {
    if (variant == 2 && t.isCst()) {
      constant = t->value;
      continue;
    }
    Expr q = exactDiv(t, d);
    if (q && variant == 1 && q.isCst()) {
      constQuotient = true;
      q = Expr();
    }
    if (q)
      qs.push_back(q);
    else
      rs.push_back(t);
  }
  if (variant == 2) {
    // The constant splits as c = d*k + c' with c' in [0, d) for x >= 0 (floor) or in
    // (-d, 0] for x <= 0: (32*M - 1)/32 = M - 1 + 31/32.
    if (!d.isCst() || d->value <= 0 || constant == 0) return std::nullopt;
    bool nonNeg = provablyNonNegative(x);
    if (!nonNeg && !provablyNonPositive(x)) return std::nullopt;
    int64_t c = d->value, k = constant / c, rem = constant % c;
    if (nonNeg && rem < 0) {
      --k;
      rem += c;
    } else if (!nonNeg && rem > 0) {
      ++k;
      rem -= c;
    }
    if (k == 0) return std::nullopt;  // nothing moves: variant 0 covers it
    qs.push_back(cst(k));
    rs.push_back(cst(rem));
  }
  if (qs.empty() || (variant == 1 && !constQuotient)) return std::nullopt;
  Expr r = addMany(rs);
  if (!signsAgree(x, r)) return std::nullopt;
  return QuotRem{addMany(qs), r};
}

}  // namespace detail

namespace {

using DivRule = Rule<Expr (*)(Expr, Expr)>;

// |x| < |d|, so that x/d = 0 and x%d = x.
bool absLess(Expr x, Expr d) {
  if (provablyNegative(d))
    d = neg(d);
  else if (!provablyPositive(d))
    return false;
  if (!provablyLess(x, d)) return false;
  return provablyNonNegative(x) || provablyPositive(add(x, d));  // -d < x
}

Expr foldConstants(Expr x, Expr d) {
  if (x.isCst() && d.isCst() && !(x->value == INT64_MIN && d->value == -1)) return cst(x->value / d->value);
  return Expr();
}

Expr byOne(Expr x, Expr d) {
  if (isCst(d, 1)) return x;
  if (isCst(d, -1)) return neg(x);
  return Expr();
}

Expr zeroNumerator(Expr x, Expr) { return isCst(x, 0) ? x : Expr(); }

Expr self(Expr x, Expr d) { return x == d ? cst(1) : Expr(); }

// Every term of x is negative: (-x)/d = -(x/d) and (-x)%d = -(x%d) in C, and the sign then sits
// outside, where sums can cancel it ((-x)/4 + x/4 = 0).
Expr negatedNumerator(Expr x, Expr d) {
  auto terms = x->kind == Kind::Sum ? x->all() : std::span<const Expr>(&x, 1);
  for (Expr t : terms) {
    int64_t c = isConst(t) ? t->value : decompose(t).coef;
    if (c >= 0 || c == INT64_MIN) return Expr();
  }
  return neg(div(neg(x), d));
}

// |x| < |d| by constant bounds alone (cheap: tried before the rules that split x).
Expr inRangeConstant(Expr x, Expr d) {
  const ConstBounds& b = d->cb;
  int64_t m;  // a lower bound of |d|
  if (b.lo && *b.lo >= 1)
    m = *b.lo;
  else if (b.hi && *b.hi <= -1 && *b.hi != INT64_MIN)
    m = -*b.hi;
  else
    return Expr();
  const ConstBounds& c = x->cb;
  return c.lo && c.hi && *c.lo > -m && *c.hi < m ? cst(0) : Expr();
}

Expr inRange(Expr x, Expr d) { return absLess(x, d) ? cst(0) : Expr(); }

// (g*a)/(g*b) = a/b for g != 0: the rational values are equal, so are their truncations.
Expr commonFactor(Expr x, Expr d) {
  int64_t kd = d.isCst() ? d->value : decompose(d).coef;
  int64_t g = gcd64(x->cdiv, kd);
  if (g > 1) {
    Expr xq = exactDiv(x, cst(g)), dq = exactDiv(d, cst(g));
    if (xq && dq) return div(xq, dq);
  }
  if (d.isCst()) return Expr();
  Term td = decompose(d);
  for (Expr f : td.factors()) {
    if (f.isCst() || !provablyNonZero(f) || !provablyDivisible(x, f)) continue;
    Expr xq = exactDiv(x, f), dq = exactDiv(d, f);
    if (xq && dq) return div(xq, dq);
  }
  return Expr();
}

// (y/a)/d = y/(a*d) for a, d != 0 (truncation composes: both sides are sign * floor(|y|/|a*d|)).
Expr divOfDiv(Expr x, Expr d) {
  if (x.kind() != Kind::Div) return Expr();
  Expr y = x->ops[0], a = x->ops[1];
  if (a.isCst() && d.isCst() && !checkedMul(a->value, d->value)) return Expr();
  if (!provablyNonZero(a) || !provablyNonZero(d)) return Expr();
  return div(y, mul(a, d));
}

Expr splitSum(Expr x, Expr d, int variant) {
  auto qr = splitByDivisor(x, d, variant);
  if (!qr) return Expr();
  if (isCst(qr->r, 0)) return qr->q;
  return add(qr->q, div(qr->r, d));
}
Expr splitSumAll(Expr x, Expr d) { return splitSum(x, d, 0); }
Expr splitSumKeepOffset(Expr x, Expr d) { return splitSum(x, d, 1); }
Expr splitSumConstant(Expr x, Expr d) { return splitSum(x, d, 2); }
Expr splitSumBySum(Expr x, Expr d) { return splitSum(x, d, 3); }

// x/d is the same constant over the whole range of x (d a constant).
Expr constBounds(Expr x, Expr d) {
  if (!d.isCst() || x.isCst()) return Expr();
  ConstBounds b = constantBounds(x);
  if (!b.lo || !b.hi) return Expr();
  int64_t q1 = *b.lo / d->value, q2 = *b.hi / d->value;
  return q1 == q2 ? cst(q1) : Expr();
}

// x/(-d) = -(x/d) in C.
Expr negativeDivisor(Expr x, Expr d) {
  if (!provablyNegative(d)) return Expr();
  if (d.isCst() && d->value == INT64_MIN) return Expr();
  return neg(div(x, neg(d)));
}

const DivRule kDivRules[] = {
    {"div-constant-fold", foldConstants},
    {"div-by-one", byOne},
    {"div-zero-numerator", zeroNumerator},
    {"div-self", self},
    {"div-in-range-constant", inRangeConstant},
    {"div-negated-numerator", negatedNumerator},
    {"div-common-factor", commonFactor},
    {"div-of-div", divOfDiv},
    {"div-split-sum", splitSumAll},
    {"div-split-sum-keep-offset", splitSumKeepOffset},
    {"div-split-sum-constant", splitSumConstant},
    {"div-split-sum-by-sum", splitSumBySum},
    {"div-in-range", inRange},
    {"div-constant-bounds", constBounds},
    {"div-negative-divisor", negativeDivisor},
};

}  // namespace

Expr div(Expr x, Expr d) {
  LIFT_ASSERT(x && d, "div of a null expression");
  if (isCst(d, 0)) throw LiftError("division by zero");
  DepthGuard guard;
  if (guard.tooDeep()) return rawDiv(x, d);
  size_t rawSize = 1 + x->size + d->size;
  const Expr operands[2] = {x, d};
  for (const DivRule& rule : kDivRules) {
    Expr r = rule.apply(x, d);
    if (r && r->size <= rawSize && overflowSafeRewrite(r, Kind::Div, operands)) return r;
  }
  return intern2(Kind::Div, x, d);
}

}  // namespace lift::arith
