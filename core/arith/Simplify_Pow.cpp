// Smart constructor for integer powers and its rule table. pow(b, e) with e < 0 is the
// truncated value of 1/b^-e (so -1, 0 or 1), the integer-division reading of a negative power.
#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace detail {
std::optional<int64_t> foldPow(int64_t b, int64_t e) {
  if (e >= 0) return checkedPow(b, e);
  if (b == 0) return std::nullopt;  // division by zero: left for evaluation to report
  if (b == 1) return 1;
  if (b == -1) return e % 2 == 0 ? 1 : -1;
  return 0;
}
}  // namespace detail

namespace {

using PowRule = Rule<Expr (*)(Expr, Expr)>;

Expr foldConstants(Expr b, Expr e) {
  if (!b.isCst() || !e.isCst()) return Expr();
  auto r = foldPow(b->value, e->value);
  return r ? cst(*r) : Expr();
}

Expr exponentZero(Expr, Expr e) { return isCst(e, 0) ? cst(1) : Expr(); }
Expr exponentOne(Expr b, Expr e) { return isCst(e, 1) ? b : Expr(); }
Expr baseOne(Expr b, Expr) { return isCst(b, 1) ? b : Expr(); }
Expr baseZero(Expr b, Expr e) { return isCst(b, 0) && provablyPositive(e) ? b : Expr(); }

// (x^a)^b = x^(a*b) for a, b >= 0.
Expr powOfPow(Expr b, Expr e) {
  if (b.kind() != Kind::Pow) return Expr();
  Expr x = b->ops[0], a = b->ops[1];
  if (!provablyNonNegative(a) || !provablyNonNegative(e)) return Expr();
  if (a.isCst() && e.isCst() && !checkedMul(a->value, e->value)) return Expr();
  return pow(x, mul(a, e));
}

const PowRule kPowRules[] = {
    {"pow-constant-fold", foldConstants}, {"pow-exponent-zero", exponentZero},
    {"pow-exponent-one", exponentOne},    {"pow-base-one", baseOne},
    {"pow-base-zero", baseZero},          {"pow-of-pow", powOfPow},
};

}  // namespace

Expr pow(Expr b, Expr e) {
  LIFT_ASSERT(b && e, "pow of a null expression");
  DepthGuard guard;
  if (!guard.tooDeep()) {
    size_t rawSize = 1 + b->size + e->size;
    for (const PowRule& rule : kPowRules) {
      Expr r = rule.apply(b, e);
      const Expr operands[2] = {b, e};
      if (r && r->size <= rawSize && overflowSafeRewrite(r, Kind::Pow, operands)) return r;
    }
  }
  return intern2(Kind::Pow, b, e);
}

}  // namespace lift::arith
