// Overflow analysis: whether every intermediate value of evaluating a node is known to fit in
// 64 bits (from the constant bounds of the variables' ranges), or one is shown to exceed them,
// and the guard that keeps the smart constructors from replacing an expression by one whose
// intermediates overflow where the original's do not (ARITH.md, "Overflow").
#include "core/arith/OverflowAnalysis.h"

#include "core/arith/Node.h"

namespace lift::arith {
using namespace detail;

namespace {

bool known(const ConstBounds& b) { return b.lo && b.hi; }

// Whether the steps of evaluating k over operands in this order (a sum or product folded from
// the left, or one binary operation) all have known bounds; `exceeds` as in stepBounds.
bool stepsFit(Kind k, std::span<const Expr> ops, const ConstBounds& result, bool& exceeds) {
  if (k != Kind::Sum && k != Kind::Prod) {
    if (known(result)) return true;
    bool operandsKnown = true;
    for (Expr o : ops) operandsKnown = operandsKnown && known(o->cb);
    exceeds = exceeds || operandsKnown;  // bounded operands, yet no bound (a power's overflow)
    return false;
  }
  ConstBounds acc;
  acc.lo = acc.hi = k == Kind::Sum ? 0 : 1;
  bool fits = true;
  for (Expr o : ops) {
    acc = stepBounds(k, acc, o->cb, exceeds);
    fits = fits && known(acc);
  }
  return fits;
}

}  // namespace

namespace detail {

void computeOverflowFacts(Node& n) {
  if (n.kind == Kind::Cst || n.kind == Kind::Var) return;  // a variable's value is an input
  bool fits = true, exceeds = false;
  for (Expr o : n.all()) {
    fits = fits && o->fits;
    exceeds = exceeds || o->exceeds;
  }
  fits = stepsFit(n.kind, n.all(), n.cb, exceeds) && fits;
  n.fits = fits;
  n.exceeds = exceeds;
}

bool overflowSafeRewrite(Expr rewritten, Kind k, std::span<const Expr> inputs) {
  if (rewritten->fits) return true;
  for (Expr in : inputs)
    if (rewritten == in) return true;  // an operand is evaluated by the raw node too
  if (rewritten->exceeds) return false;
  for (Expr in : inputs)
    if (!in->fits) return true;
  // Every input fits, the rewritten form does not: it may only replace a raw node that does
  // not fit either. Only the raw node's own steps remain to be checked.
  bool exceeds = false;
  if (k == Kind::Sum || k == Kind::Prod) return !stepsFit(k, inputs, {}, exceeds);
  Node raw;
  raw.kind = k;
  raw.nOps = static_cast<uint32_t>(inputs.size());
  raw.ops = inputs.data();
  return !stepsFit(k, inputs, computeConstBounds(raw), exceeds);
}

}  // namespace detail

bool provablyNoOverflow(Expr e) { return e->fits; }

}  // namespace lift::arith
