// Smart constructor for the C remainder (sign of the dividend) and its rule table. Every rule
// is sound for negative values; side conditions ask the range and divisibility analyses.
#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

using ModRule = Rule<Expr (*)(Expr, Expr)>;

Expr foldConstants(Expr x, Expr d) {
  if (x.isCst() && d.isCst()) {
    if (x->value == INT64_MIN && d->value == -1) return cst(0);
    return cst(x->value % d->value);
  }
  return Expr();
}

Expr byOne(Expr, Expr d) { return isCst(d, 1) || isCst(d, -1) ? cst(0) : Expr(); }

Expr zeroNumerator(Expr x, Expr) { return isCst(x, 0) ? x : Expr(); }

// x % (-d) = x % d in C: the remainder takes the sign of the dividend only.
Expr negativeDivisor(Expr x, Expr d) {
  if (!provablyNegative(d)) return Expr();
  if (d.isCst() && d->value == INT64_MIN) return Expr();
  return mod(x, neg(d));
}

// Every term of x is negative: (-x)/d = -(x/d) and (-x)%d = -(x%d) in C, and the sign then sits
// outside, where sums can cancel it ((-x)/4 + x/4 = 0).
Expr negatedNumerator(Expr x, Expr d) {
  auto terms = x->kind == Kind::Sum ? x->all() : std::span<const Expr>(&x, 1);
  for (Expr t : terms) {
    int64_t c = isConst(t) ? t->value : decompose(t).coef;
    if (c >= 0 || c == INT64_MIN) return Expr();
  }
  return neg(mod(neg(x), d));
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
  return c.lo && c.hi && *c.lo > -m && *c.hi < m ? x : Expr();
}

// |x| < |d|: x % d = x - d*(x/d) = x.
Expr inRange(Expr x, Expr d) {
  Expr ad = d;
  if (provablyNegative(d))
    ad = neg(d);
  else if (!provablyPositive(d))
    return Expr();
  if (!provablyLess(x, ad)) return Expr();
  if (provablyNonNegative(x) || provablyPositive(add(x, ad))) return x;  // -|d| < x
  return Expr();
}

Expr multiple(Expr x, Expr d) { return x == d || provablyDivisible(x, d) ? cst(0) : Expr(); }

// (y % a) % d = y % d when d divides a: y % a is congruent to y modulo d and has its sign.
Expr modOfMod(Expr x, Expr d) {
  if (x.kind() != Kind::Mod) return Expr();
  Expr y = x->ops[0], a = x->ops[1];
  if (!provablyDivisible(a, d)) return Expr();
  return mod(y, d);
}

Expr splitSum(Expr x, Expr d, int variant) {
  auto qr = splitByDivisor(x, d, variant);
  if (!qr) return Expr();
  return mod(qr->r, d);
}
Expr splitSumAll(Expr x, Expr d) { return splitSum(x, d, 0); }
Expr splitSumKeepOffset(Expr x, Expr d) { return splitSum(x, d, 1); }
Expr splitSumConstant(Expr x, Expr d) { return splitSum(x, d, 2); }
Expr splitSumBySum(Expr x, Expr d) { return splitSum(x, d, 3); }

// (g*a) % (g*b) = g*(a % b) for g != 0 (a constant or a non-zero factor of the divisor);
// kept only when strictly smaller (the caller's check allows equal size).
Expr commonFactor(Expr x, Expr d) {
  size_t rawSize = 1 + x->size + d->size;
  int64_t kd = d.isCst() ? d->value : decompose(d).coef;
  int64_t g = gcd64(x->cdiv, kd);
  if (g > 1) {
    Expr xq = exactDiv(x, cst(g)), dq = exactDiv(d, cst(g));
    if (xq && dq) {
      Expr r = mul(cst(g), mod(xq, dq));
      if (r->size < rawSize) return r;
    }
  }
  if (d.isCst()) return Expr();
  Term td = decompose(d);
  for (Expr f : td.factors()) {
    if (f.isCst() || !provablyNonZero(f) || !provablyDivisible(x, f)) continue;
    Expr xq = exactDiv(x, f), dq = exactDiv(d, f);
    if (!xq || !dq) continue;
    Expr r = mul(f, mod(xq, dq));
    if (r->size < rawSize) return r;
  }
  return Expr();
}

// x / d is a constant k over the range of x: x % d = x - k*d.
Expr constBounds(Expr x, Expr d) {
  if (!d.isCst() || x.isCst()) return Expr();
  ConstBounds b = constantBounds(x);
  if (!b.lo || !b.hi) return Expr();
  int64_t q1 = *b.lo / d->value, q2 = *b.hi / d->value;
  if (q1 != q2) return Expr();
  auto k = checkedMul(q1, d->value);
  if (!k) return Expr();
  return sub(x, cst(*k));
}

const ModRule kModRules[] = {
    {"mod-constant-fold", foldConstants},
    {"mod-by-one", byOne},
    {"mod-zero-numerator", zeroNumerator},
    {"mod-negative-divisor", negativeDivisor},
    {"mod-in-range-constant", inRangeConstant},
    {"mod-negated-numerator", negatedNumerator},
    {"mod-multiple", multiple},
    {"mod-of-mod", modOfMod},
    {"mod-split-sum", splitSumAll},
    {"mod-split-sum-keep-offset", splitSumKeepOffset},
    {"mod-split-sum-constant", splitSumConstant},
    {"mod-split-sum-by-sum", splitSumBySum},
    {"mod-in-range", inRange},
    {"mod-common-factor", commonFactor},
    {"mod-constant-bounds", constBounds},
};

}  // namespace

Expr mod(Expr x, Expr d) {
  LIFT_ASSERT(x && d, "mod of a null expression");
  if (isCst(d, 0)) throw LiftError("modulo by zero");
  DepthGuard guard;
  if (guard.tooDeep()) return rawMod(x, d);
  size_t rawSize = 1 + x->size + d->size;
  const Expr operands[2] = {x, d};
  for (const ModRule& rule : kModRules) {
    Expr r = rule.apply(x, d);
    if (r && r->size <= rawSize && overflowSafeRewrite(r, Kind::Mod, operands)) return r;
  }
  return intern2(Kind::Mod, x, d);
}

}  // namespace lift::arith
