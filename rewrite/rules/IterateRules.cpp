// Iterate rules (Lift IterateRules.scala and beyond): merge and split iterations, unroll them,
// and drop trivial ones.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Expr iterateCall(arith::Expr n, const Fun& f, Expr input) {
  ir::PatternNode::Params ps;
  ps.funs = {f};
  ps.sizes = {n};
  return m::call(ir::PatternNode::make(PatternKind::Iterate, std::move(ps)), {std::move(input)});
}

Outcome iterateMerge(const Site& s, const ParamValues&) {
  auto* outer = m::callOf(s.expr(), PatternKind::Iterate);
  if (!outer) return fail("not a call of iterate");
  const Expr& in = m::arg(s.expr(), 0);
  auto* inner = m::callOf(in, PatternKind::Iterate);
  if (!inner) return fail("the input of the iterate is not an iterate");
  if (!ir::alphaEqual(outer->f(), inner->f())) return fail("the two iterations apply different functions");
  return Outcome::ok(iterateCall(outer->size() + inner->size(), outer->f(), m::arg(in, 0)));
}

Outcome iterateSplit(const Site& s, const ParamValues& pv) {
  auto* it = m::callOf(s.expr(), PatternKind::Iterate);
  if (!it) return fail("not a call of iterate");
  arith::Expr n = it->size();
  int64_t k = pv.integer("m");
  if (!n.isCst()) return fail("the iteration count {} is not a constant", str(n));
  if (n.value() < 2)
    return fail("an iteration of {} round{} cannot be split", n.value(), n.value() == 1 ? "" : "s");
  if (k < 1 || k >= n.value()) return fail("m = {} must be between 1 and {}", k, n.value() - 1);
  Expr first = iterateCall(arith::cst(k), m::freshCopy(it->f()), m::arg(s.expr(), 0));
  return Outcome::ok(iterateCall(arith::cst(n.value() - k), it->f(), first));
}

Outcome iterateOne(const Site& s, const ParamValues&) {
  auto* it = m::callOf(s.expr(), PatternKind::Iterate);
  if (!it) return fail("not a call of iterate");
  if (it->size() != arith::cst(1)) return fail("the iteration count is {}, not 1", str(it->size()));
  return Outcome::ok(m::apply(it->f(), {m::arg(s.expr(), 0)}));
}

Outcome iterateZero(const Site& s, const ParamValues&) {
  auto* it = m::callOf(s.expr(), PatternKind::Iterate);
  if (!it) return fail("not a call of iterate");
  if (it->size() != arith::cst(0)) return fail("the iteration count is {}, not 0", str(it->size()));
  return Outcome::ok(m::arg(s.expr(), 0));
}

Outcome iterateUnroll(const Site& s, const ParamValues&) {
  auto* it = m::callOf(s.expr(), PatternKind::Iterate);
  if (!it) return fail("not a call of iterate");
  arith::Expr n = it->size();
  if (!n.isCst()) return fail("the iteration count {} is not a constant", str(n));
  if (n.value() < 2 || n.value() > 8) return fail("unrolls 2 to 8 iterations, not {}", n.value());
  Expr cur = m::arg(s.expr(), 0);
  for (int64_t i = 0; i < n.value(); ++i) cur = m::apply(i == 0 ? it->f() : m::freshCopy(it->f()), {cur});
  return Outcome::ok(cur);
}

}  // namespace

void registerIterateRules(RuleRegistry& reg) {
  reg.add(makeRule("iterate-merge", Family::Iterate, "Merge two iterations of the same function.",
                   "iterate(n, f) o iterate(m, f)", "iterate(n + m, f)", {PatternKind::Iterate},
                   iterateMerge));
  Rule split =
      makeRule("iterate-split", Family::Iterate, "Split an iteration into two consecutive ones.",
               "iterate(n, f)", "iterate(n - m, f) o iterate(m, f)", {PatternKind::Iterate}, iterateSplit);
  split.params = {{"m", ParamKind::Count, "iterations of the first part", "1", {}}};
  reg.add(std::move(split));
  reg.add(makeRule("iterate-one", Family::Iterate, "One iteration is one application.", "iterate(1, f) $ x",
                   "f(x)", {PatternKind::Iterate}, iterateOne, "iterate1"));
  reg.add(makeRule("iterate-zero", Family::Iterate, "No iteration is the identity.", "iterate(0, f) $ x", "x",
                   {PatternKind::Iterate}, iterateZero, "iterateId"));
  reg.add(makeRule("iterate-unroll", Family::Iterate, "Unroll a short constant iteration completely.",
                   "iterate(n, f) $ x", "f(f(...f(x)))", {PatternKind::Iterate}, iterateUnroll));
}

}  // namespace lift::rewrite
