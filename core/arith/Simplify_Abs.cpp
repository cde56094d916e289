// Smart constructor for the absolute value (Lift's AbsFunction) and its rule table: the sign
// decided by the range analysis (abs(x) = x for x >= 0, -x for x <= 0), abs of abs, and a
// constant factor moved out.
#include <cstdlib>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

using AbsRule = Rule<Expr (*)(Expr)>;

Expr foldConstant(Expr x) {
  if (!x.isCst() || x->value == INT64_MIN) return Expr();
  return cst(x->value < 0 ? -x->value : x->value);
}
Expr nonNegative(Expr x) { return provablyNonNegative(x) ? x : Expr(); }
Expr nonPositive(Expr x) { return provablyNonPositive(x) ? neg(x) : Expr(); }
Expr ofAbs(Expr x) { return x.kind() == Kind::Abs ? x : Expr(); }

// abs(c*y) = |c|*abs(y).
Expr constantFactor(Expr x) {
  if (x.kind() != Kind::Prod || !x->canonShape || !x->ops[0].isCst()) return Expr();
  int64_t c = x->ops[0]->value;
  if (c == INT64_MIN) return Expr();
  Term t = decompose(x);
  return mul(cst(c < 0 ? -c : c), abs(termExpr(1, t.factors())));
}

const AbsRule kAbsRules[] = {
    {"abs-constant-fold", foldConstant},     {"abs-non-negative", nonNegative},
    {"abs-non-positive", nonPositive},       {"abs-of-abs", ofAbs},
    {"abs-constant-factor", constantFactor},
};

}  // namespace

Expr abs(Expr x) {
  LIFT_ASSERT(x, "abs of a null expression");
  DepthGuard guard;
  if (!guard.tooDeep()) {
    size_t rawSize = 1 + x->size;
    const Expr operands[1] = {x};
    for (const AbsRule& rule : kAbsRules) {
      Expr r = rule.apply(x);
      if (r && r->size <= rawSize && overflowSafeRewrite(r, Kind::Abs, operands)) return r;
    }
  }
  const Expr o[1] = {x};
  return intern(Kind::Abs, o);
}

Expr rawAbs(Expr x) {
  if (auto r = foldConstant(x)) return r;
  const Expr o[1] = {x};
  return intern(Kind::Abs, o);
}

}  // namespace lift::arith
