// Smart constructors for min and max and their rule table: decided comparisons (by the range
// analysis), absorption, and pulling common terms and common factors out.
#include <algorithm>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

using MinMaxRule = Rule<Expr (*)(Expr, Expr, Kind)>;

Expr make(Kind k, Expr a, Expr b) { return k == Kind::Min ? min(a, b) : max(a, b); }
Kind opposite(Kind k) { return k == Kind::Min ? Kind::Max : Kind::Min; }

Expr foldConstants(Expr a, Expr b, Kind k) {
  if (!a.isCst() || !b.isCst()) return Expr();
  return k == Kind::Min ? (a->value < b->value ? a : b) : (a->value < b->value ? b : a);
}

Expr same(Expr a, Expr b, Kind) { return a == b ? a : Expr(); }

// min(a, b) = a when a <= b is proven, and so on.
Expr decided(Expr a, Expr b, Kind k) {
  bool le, ge;
  if (a.isCst() || b.isCst()) {
    le = provablyLessEqual(a, b);
    ge = !le && provablyLessEqual(b, a);
  } else {
    Expr d = difference(b, a);  // one difference answers both questions
    le = provablyNonNegative(d);
    ge = !le && provablyNonPositive(d);
  }
  if (le) return k == Kind::Min ? a : b;
  if (ge) return k == Kind::Min ? b : a;
  return Expr();
}

bool hasOperand(Expr e, Kind k, Expr x) { return e.kind() == k && (e->ops[0] == x || e->ops[1] == x); }

// min(a, min(a, c)) = min(a, c); min(a, max(a, c)) = a (and the same for max).
Expr absorb(Expr a, Expr b, Kind k) {
  if (hasOperand(b, k, a)) return b;
  if (hasOperand(a, k, b)) return a;
  if (hasOperand(b, opposite(k), a)) return a;
  if (hasOperand(a, opposite(k), b)) return b;
  return Expr();
}

void termsOf(Expr e, std::vector<Expr>& terms, int64_t& constant) {
  constant = 0;
  terms.clear();
  auto ops = e.kind() == Kind::Sum ? e.operands() : std::span<const Expr>(&e, 1);
  for (Expr t : ops) {
    if (t.isCst())
      constant = t->value;
    else
      terms.push_back(t);
  }
}

// min(x + a, x + b) = x + min(a, b): adding the same value to both sides keeps the order.
// Common terms come out, and with a constant on both sides one of them is moved out (the
// choice giving the smaller result).
Expr commonTerms(Expr a, Expr b, Kind k) {
  if (a.kind() != Kind::Sum && b.kind() != Kind::Sum) return Expr();
  std::vector<Expr> ta, tb, common;
  int64_t ca, cb;
  termsOf(a, ta, ca);
  termsOf(b, tb, cb);
  for (auto it = ta.begin(); it != ta.end();) {
    auto jt = std::find(tb.begin(), tb.end(), *it);
    if (jt != tb.end()) {
      common.push_back(*it);
      tb.erase(jt);
      it = ta.erase(it);
    } else {
      ++it;
    }
  }
  std::vector<int64_t> moves;
  if (ca != 0 && cb != 0)
    moves = {ca, cb};
  else if (!common.empty())
    moves = {0};
  Expr best;
  for (int64_t kc : moves) {
    auto ra = checkedAdd(ca, -kc), rb = checkedAdd(cb, -kc);
    if (!ra || !rb) continue;
    std::vector<Expr> xa = ta, xb = tb, out = common;
    xa.push_back(cst(*ra));
    xb.push_back(cst(*rb));
    out.push_back(cst(kc));
    out.push_back(make(k, addMany(std::move(xa)), addMany(std::move(xb))));
    Expr r = addMany(std::move(out));
    if (!best || r->size < best->size) best = r;
  }
  return best;
}

// min(g*a, g*b) = g*min(a, b) for a constant g > 0.
Expr commonFactor(Expr a, Expr b, Kind k) {
  int64_t g = gcd64(a->cdiv, b->cdiv);
  if (g <= 1) return Expr();
  Expr qa = exactDiv(a, cst(g)), qb = exactDiv(b, cst(g));
  if (!qa || !qb) return Expr();
  return mul(cst(g), make(k, qa, qb));
}

const MinMaxRule kMinMaxRules[] = {
    {"minmax-constant-fold", foldConstants},
    {"minmax-same", same},
    {"minmax-decided", decided},
    {"minmax-absorb", absorb},
    {"minmax-common-terms", commonTerms},
    {"minmax-common-factor", commonFactor},
};

Expr build(Kind k, Expr a, Expr b) {
  LIFT_ASSERT(a && b, "min/max of a null expression");
  if (canonicalLess(b, a)) std::swap(a, b);  // rules see the operands in one order
  DepthGuard guard;
  if (!guard.tooDeep()) {
    size_t rawSize = 1 + a->size + b->size;
    for (const MinMaxRule& rule : kMinMaxRules) {
      Expr r = rule.apply(a, b, k);
      const Expr operands[2] = {a, b};
      if (r && r->size <= rawSize && overflowSafeRewrite(r, k, operands)) return r;
    }
  }
  return intern2(k, a, b);
}

}  // namespace

Expr min(Expr a, Expr b) { return build(Kind::Min, a, b); }
Expr max(Expr a, Expr b) { return build(Kind::Max, a, b); }

}  // namespace lift::arith
