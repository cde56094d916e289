// Parent links of a program's occurrences.
#include "codegen/ProgramIndex.h"

namespace lift::codegen {

ProgramIndex::ProgramIndex(const ir::Program& p) : program_(p) {
  ir::visitPreOrder(p.main, [&](const ir::NodePath& path) {
    const ir::PathStep& last = path.back();
    const ir::Node* key = last.node.get();
    if (parents_.count(key)) return false;  // a shared node: its first occurrence wins
    Parent par;
    if (path.size() >= 2) {
      par.node = path[path.size() - 2].node;
      par.edge = last.edge;
      par.index = last.index;
    }
    parents_.emplace(key, par);
    return true;
  });
}

ProgramIndex::Parent ProgramIndex::parentOf(const ir::Node* node) const {
  auto it = parents_.find(node);
  return it == parents_.end() ? Parent{} : it->second;
}

const ir::PatternNode* unwrapAddressSpace(const ir::Fun& f) {
  const ir::PatternNode* p = ir::asPattern(f);
  while (p && ir::isAddressSpace(p->pattern())) p = ir::asPattern(p->f());
  return p;
}

bool callsPattern(const ir::CallNode& c, ir::PatternKind k) {
  const ir::PatternNode* p = unwrapAddressSpace(c.fun());
  return p && p->pattern() == k;
}

}  // namespace lift::codegen
