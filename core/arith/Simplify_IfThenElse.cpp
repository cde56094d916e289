// Smart constructor for the if-then-else `lhs cmp rhs ? then : otherwise` (Lift's IfThenElse)
// and its rule table: equal branches, and comparisons decided by the range analysis. The
// comparison is stored as Lt, Le or Eq (Gt and Ge swap the operands, Ne the branches).
#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

// The operands in their stored form: lhs, rhs, then, otherwise and a comparison Lt, Le or Eq.
struct Ite {
  Expr lhs, rhs, then, otherwise;
  Cmp cmp;
};

Ite normalise(Expr lhs, Cmp cmp, Expr rhs, Expr then, Expr otherwise) {
  switch (cmp) {
    case Cmp::Gt:
      return {rhs, lhs, then, otherwise, Cmp::Lt};
    case Cmp::Ge:
      return {rhs, lhs, then, otherwise, Cmp::Le};
    case Cmp::Ne:
      return {lhs, rhs, otherwise, then, Cmp::Eq};
    default:
      return {lhs, rhs, then, otherwise, cmp};
  }
}

using IteRule = Rule<Expr (*)(const Ite&)>;

Expr sameBranches(const Ite& x) { return x.then == x.otherwise ? x.then : Expr(); }

// The ranges decide the comparison: the branch it selects.
Expr decided(const Ite& x) {
  switch (x.cmp) {
    case Cmp::Lt:
      if (provablyLess(x.lhs, x.rhs)) return x.then;
      if (provablyLessEqual(x.rhs, x.lhs)) return x.otherwise;
      return Expr();
    case Cmp::Le:
      if (provablyLessEqual(x.lhs, x.rhs)) return x.then;
      if (provablyLess(x.rhs, x.lhs)) return x.otherwise;
      return Expr();
    case Cmp::Eq:
      if (x.lhs == x.rhs) return x.then;
      if (provablyLess(x.lhs, x.rhs) || provablyLess(x.rhs, x.lhs)) return x.otherwise;
      return Expr();
    default:
      return Expr();
  }
}

// x < 0 ? -x : x and 0 <= x ? x : -x are abs(x).
Expr absolute(const Ite& x) {
  if (x.cmp == Cmp::Lt && isCst(x.rhs, 0) && x.otherwise == x.lhs && x.then == neg(x.lhs)) return abs(x.lhs);
  if (x.cmp == Cmp::Le && isCst(x.lhs, 0) && x.then == x.rhs && x.otherwise == neg(x.rhs)) return abs(x.rhs);
  return Expr();
}

const IteRule kIteRules[] = {
    {"ite-same-branches", sameBranches},
    {"ite-decided", decided},
    {"ite-abs", absolute},
};

Expr node(const Ite& x) {
  const Expr o[4] = {x.lhs, x.rhs, x.then, x.otherwise};
  return intern(Kind::Ite, static_cast<int64_t>(x.cmp), nullptr, o);
}

}  // namespace

Expr ifThenElse(Expr lhs, Cmp cmp, Expr rhs, Expr then, Expr otherwise) {
  LIFT_ASSERT(lhs && rhs && then && otherwise, "if-then-else of a null expression");
  Ite x = normalise(lhs, cmp, rhs, then, otherwise);
  DepthGuard guard;
  if (!guard.tooDeep()) {
    size_t rawSize = 1 + x.lhs->size + x.rhs->size + x.then->size + x.otherwise->size;
    const Expr operands[4] = {x.lhs, x.rhs, x.then, x.otherwise};
    for (const IteRule& rule : kIteRules) {
      Expr r = rule.apply(x);
      if (r && r->size <= rawSize && overflowSafeRewrite(r, Kind::Ite, operands)) return r;
    }
  }
  return node(x);
}

Expr rawIfThenElse(Expr lhs, Cmp cmp, Expr rhs, Expr then, Expr otherwise) {
  Ite x = normalise(lhs, cmp, rhs, then, otherwise);
  if (x.lhs.isCst() && x.rhs.isCst())
    return compareValues(x.cmp, x.lhs->value, x.rhs->value) ? x.then : x.otherwise;
  return node(x);
}

Cmp iteCmp(Expr e) {
  LIFT_ASSERT(e && e.kind() == Kind::Ite, "iteCmp of a non-if-then-else");
  return static_cast<Cmp>(e->value);
}

}  // namespace lift::arith
