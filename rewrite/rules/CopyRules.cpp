// Copy rules (Lift CopyRules.scala): insert copies (id) where data should move to another
// memory, and implement them as maps that the OpenCL rules then lower (000 Listing 5.8 copies
// into local memory with toLocal(mapLcl(mapSeq(id)))).
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome addId(const Site& s, const ParamValues&) {
  if (!s.node.isExpr() || ir::asLiteral(s.expr())) return fail("only computed arrays and inputs are copied");
  if (m::callOf(s.expr(), PatternKind::Id)) return fail("the array is already copied");
  ParentCall pc = parentCall(s);
  if (pc.call) {
    if (auto* p = ir::asPattern(pc.call->fun()); p && p->pattern() == PatternKind::Id)
      return fail("the array is already copied");
  }
  // Copies move data between memories: a computed array, or the input that a map, reduction or
  // iteration reads.
  auto computesArray = [](const ir::PatternNode* p) {
    return p && (ir::isMapLike(p->pattern()) || ir::isReduceLike(p->pattern()) ||
                 p->pattern() == PatternKind::Iterate || ir::isAddressSpace(p->pattern()));
  };
  bool result = computes(s.expr());
  bool input = pc.call && pc.argIndex + 1 == static_cast<int>(pc.call->args().size()) &&
               computesArray(ir::asPattern(pc.call->fun()));
  if (!result && !input)
    return fail("copies are made of computed arrays and of the inputs of maps, reductions and iterations");
  Type t = typeAt(s, s.expr());
  if (!t) return unknownType(s);
  if (!t.isArray()) return fail("only arrays are copied, not {}", typeStr(t));
  return Outcome::ok(m::call(ir::PatternNode::make(PatternKind::Id, {}), {s.expr()}));
}

Outcome implementId(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Id)) return fail("not a call of id");
  const Expr& in = m::arg(s.expr(), 0);
  Type t = typeAt(s, in);
  if (!t) return unknownType(s);
  if (!t.isArray()) return fail("the copied value is not an array");
  Fun id = ir::PatternNode::make(PatternKind::Id, {});
  Fun f = t.elem().isArray() ? m::lambda1("y", [&](Expr y) { return m::call(id, {y}); }) : id;
  return Outcome::ok(m::callMap(PatternKind::Map, f, in));
}

}  // namespace

void registerCopyRules(RuleRegistry& reg) {
  reg.add(makeRule("add-id", Family::Copy, "Copy an array (the copy can then be placed in another memory).",
                   "x", "id $ x", {}, addId));
  reg.add(makeRule("implement-id", Family::Copy, "Implement a copy as a map of copies of the elements.",
                   "id $ x", "map(id) $ x", {PatternKind::Id}, implementId));
}

}  // namespace lift::rewrite
