// Smart constructor for products: flattening, constant folding, sorted factors, and
// distribution of a constant over a sum when that is not larger (2*(x + 1) = 2*x + 2); the
// factors stay in their order where the ranges show that reordering could overflow.
#include <algorithm>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

void flatten(Expr e, Exprs& out, int64_t& k, bool& overflow) {
  if (isConst(e)) {
    if (auto r = checkedMul(k, e->value))
      k = *r;
    else
      overflow = true;
    return;
  }
  if (e->kind == Kind::Prod) {
    for (Expr o : e->all()) flatten(o, out, k, overflow);
    return;
  }
  out.push_back(e);
}

Expr rawFold(std::span<const Expr> inputs) {
  Expr r = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) r = rawMul(r, inputs[i]);
  return r;
}

// The product when its rewrite is refused for overflow: the inputs multiplied in their order,
// two at a time, as simplify rebuilds a raw chain (so that the result is a fixpoint).
Expr inputOrder(std::span<const Expr> inputs) {
  if (inputs.size() <= 2) return rawFold(inputs);
  Expr r = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) r = mulMany({r, inputs[i]});
  return r;
}

}  // namespace

namespace detail {

Expr mulMany(std::span<const Expr> inputs) {
  if (inputs.empty()) return cst(1);
  DepthGuard guard;
  if (guard.tooDeep()) return rawFold(inputs);
  Exprs fs;
  int64_t k = 1;
  bool overflow = false;
  for (Expr e : inputs) flatten(e, fs, k, overflow);
  if (overflow) return rawFold(inputs);
  if (k == 0) return cst(0);  // rule mul-zero
  if (fs.empty()) return cst(k);
  if (fs.size() > 1) std::sort(fs.begin(), fs.end(), canonicalLess);
  if (k == 1 && fs.size() == 1)  // rule mul-one
    return overflowSafeRewrite(fs[0], Kind::Prod, inputs) ? fs[0] : inputOrder(inputs);
  Exprs ops;
  if (k != 1) ops.push_back(cst(k));
  ops.insert(ops.end(), fs.begin(), fs.end());
  Expr p = intern(Kind::Prod, ops);
  if (k != 1 && fs.size() == 1 && fs[0]->kind == Kind::Sum) {
    // Rule mul-distribute-constant: c*(a + b) = c*a + c*b when not larger.
    Exprs parts;
    for (Expr t : fs[0]->all()) parts.push_back(mulMany({cst(k), t}));
    Expr d = addMany(parts);
    if (d->size <= p->size && overflowSafeRewrite(d, Kind::Prod, inputs)) return d;
  }
  return overflowSafeRewrite(p, Kind::Prod, inputs) ? p : inputOrder(inputs);
}

}  // namespace detail

Expr mul(Expr a, Expr b) {
  LIFT_ASSERT(a && b, "mul of a null expression");
  if (a.isCst() && b.isCst())
    if (auto r = checkedMul(a->value, b->value)) return cst(*r);
  return mulMany({a, b});
}

}  // namespace lift::arith
