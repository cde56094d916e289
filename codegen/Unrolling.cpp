// Unrolling decisions and the scalarization of private arrays (Unrolling.h).
#include "codegen/Unrolling.h"

#include <unordered_map>

namespace lift::codegen {

bool shouldUnroll(ir::PatternKind kind, arith::Expr n, bool touchesPrivateArray, bool enabled) {
  if (!enabled || !n.isCst()) return false;
  if (kind == ir::PatternKind::MapSeqUnroll || kind == ir::PatternKind::ReduceSeqUnroll)
    return n.value() <= kMaxUnroll;
  return touchesPrivateArray && n.value() <= kMaxUnrollDefault;
}

void scalarizePrivateArrays(const c::Block& body, MemoryAllocator& memories) {
  std::unordered_map<const Memory*, bool> ok;
  for (auto& m : memories.memories())
    if (m->space == AddressSpace::Private && m->role == Memory::Role::Temporary && !m->addressTaken &&
        m->count.isCst() && m->count.value() > 1)
      ok[m.get()] = true;
  c::forEachExpr(body, [&](const c::Expr& e) {
    if (e.kind != c::Expr::Kind::Access) return;
    auto it = ok.find(e.access->mem);
    if (it == ok.end()) return;
    using F = c::Access::Form;
    F f = e.access->form;
    bool constant = (f == F::Element || f == F::Lane || f == F::Swizzle ||
                     (f == F::VLoad && !e.access->write && e.access->mem->elemType.isScalar())) &&
                    e.access->simplified.isCst();
    if (!constant) it->second = false;
  });
  for (auto& m : memories.memories()) {
    auto it = ok.find(m.get());
    if (it != ok.end() && it->second) m->scalarized = true;
  }
}

}  // namespace lift::codegen
