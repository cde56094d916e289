// An index of a program's occurrences for the analyses of code generation: the parent of each
// node (with the edge that leads to it), and helpers that see through the address-space
// wrappers (toGlobal(mapLcl(f)) is a mapLcl whose result is stored in global memory).
#pragma once

#include <unordered_map>

#include "core/ir/IR.h"

namespace lift::codegen {

class ProgramIndex {
 public:
  explicit ProgramIndex(const ir::Program& p);

  struct Parent {
    ir::NodeRef node;  // null node at the root
    ir::Edge edge = ir::Edge::Root;
    int index = 0;
  };
  // The parent of the (first) occurrence of a node; a root parent for the root or unknown nodes.
  Parent parentOf(const ir::Node* node) const;

  const ir::Program& program() const { return program_; }

 private:
  const ir::Program& program_;
  std::unordered_map<const ir::Node*, Parent> parents_;
};

// The pattern below any toGlobal/toLocal/toPrivate wrappers (null for non-patterns).
const ir::PatternNode* unwrapAddressSpace(const ir::Fun& f);
// Whether a call's function, below address-space wrappers, is a pattern of kind k.
bool callsPattern(const ir::CallNode& c, ir::PatternKind k);

}  // namespace lift::codegen
