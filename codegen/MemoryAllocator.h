// Memory allocation (CGO 2017, section 5.2): memories are made only for values that a user
// function (or a copy) writes — kernel inputs, the kernel's output, temporaries and iterate's
// buffers; data-layout patterns only change views. A value's memory layout follows its type:
// arrays nest row-major, and tuples are split into one memory per component (so every buffer
// is a plain array of scalars or vectors). A temporary made inside parallel maps is replicated
// for each iteration that may hold one at the same time: global memory for every enclosing
// parallel iteration, local memory for every enclosing mapLcl iteration, private memory never.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/Memory.h"
#include "codegen/View.h"

namespace lift::codegen {

class MemoryAllocator {
 public:
  // One enclosing parallel iteration the memory is replicated over.
  struct Replication {
    arith::Expr length;  // iterations
    arith::Expr var;     // the loop variable that selects this iteration's copy
  };

  // Upper bounds of loop variables that lengths may contain (iterate's `size`): memory is
  // allocated for the largest value.
  using Bounds = std::map<arith::Expr, arith::Expr, std::less<>>;

  // Memories for a value of type t; the view addresses this iteration's copy.
  View allocate(Type t, AddressSpace space, Memory::Role role, const std::string& base, ir::NodeId node,
                const std::vector<Replication>& replication = {}, const Bounds& bounds = {});
  // A single memory of `count` elements of elemType (scalar or vector).
  Memory* allocateMemory(const std::string& name, AddressSpace space, Memory::Role role, Type elemType,
                         arith::Expr count, ir::NodeId node);

  // The memory of this allocator's that `m` names, to change it (nullptr: not one of its own).
  Memory* find(const Memory* m);

  const std::vector<std::unique_ptr<Memory>>& memories() const { return memories_; }
  std::vector<std::unique_ptr<Memory>>& memories() { return memories_; }

  // Allocations made after mark() can be dropped (code generated and then discarded).
  size_t mark() const { return memories_.size(); }
  void rollback(size_t mark);

  // A fresh name with the given prefix: tmp1, tmp2, ...
  std::string freshName(const std::string& prefix);
  // Names the caller has taken (so fresh names avoid them).
  void reserve(const std::string& name);
  bool taken(const std::string& name) const;

 private:
  View build(Type t, AddressSpace space, Memory::Role role, const std::string& name, ir::NodeId node,
             const std::vector<Replication>& replication, int& component, std::vector<int>& path,
             const Bounds& bounds);

  std::vector<std::unique_ptr<Memory>> memories_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, int> counters_;
};

// Replaces the innermost tuple of t (below its arrays) by its component k: [(A,B)]n -> [A]n.
Type componentType(Type t, size_t k);
// Whether t is a tuple or an array nest of tuples.
bool containsTuple(Type t);

}  // namespace lift::codegen
