// Allocation of memories for values (MemoryAllocator.h).
#include "codegen/MemoryAllocator.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

namespace lift::codegen {

bool containsTuple(Type t) {
  while (t.isArray()) t = t.elem();
  return t.isTuple();
}

Type componentType(Type t, size_t k) {
  if (t.isTuple()) return t.tupleElems()[k];
  LIFT_ASSERT(t.isArray(), "componentType of a non-tuple");
  return Type::array(componentType(t.elem(), k), t.length());
}

Memory* MemoryAllocator::allocateMemory(const std::string& name, AddressSpace space, Memory::Role role,
                                        Type elemType, arith::Expr count, ir::NodeId node) {
  auto m = std::make_unique<Memory>();
  m->id = static_cast<int>(memories_.size());
  m->name = name;
  m->space = space;
  m->role = role;
  m->elemType = elemType;
  m->count = count;
  m->node = node;
  m->dynamicLocal = space == AddressSpace::Local && !count.isCst();
  reserve(name);
  memories_.push_back(std::move(m));
  return memories_.back().get();
}

View MemoryAllocator::build(Type t, AddressSpace space, Memory::Role role, const std::string& name,
                            ir::NodeId node, const std::vector<Replication>& replication, int& component,
                            std::vector<int>& path, const Bounds& bounds) {
  if (containsTuple(t)) {
    Type inner = t;
    while (inner.isArray()) inner = inner.elem();
    size_t n = inner.tupleElems().size();
    std::vector<View> parts;
    for (size_t k = 0; k < n; ++k) {
      path.push_back(static_cast<int>(k));
      parts.push_back(build(componentType(t, k), space, role, fmt::format("{}_{}", name, k), node,
                            replication, component, path, bounds));
      path.pop_back();
    }
    if (t.isTuple()) return view::tuple(std::move(parts));
    return view::retype(view::zip(std::move(parts)), t);
  }
  // An array nest of scalars or vectors: one memory, replicated outside.
  Type full = t;
  arith::Expr count = arith::cst(1);
  for (Type a = t; a.isArray(); a = a.elem()) count = count * a.length();
  for (auto it = replication.rbegin(); it != replication.rend(); ++it) {
    full = Type::array(full, it->length);
    count = count * it->length;
  }
  if (!bounds.empty()) count = arith::substitute(count, bounds);
  Memory* m = allocateMemory(name, space, role, t.isArray() ? t.innermost() : t, count, node);
  m->component = role == Memory::Role::Output ? component : -1;
  m->path = path;
  ++component;
  View v = view::mem(m, full);
  for (auto& r : replication) v = view::access(v, r.var);
  return v;
}

View MemoryAllocator::allocate(Type t, AddressSpace space, Memory::Role role, const std::string& base,
                               ir::NodeId node, const std::vector<Replication>& replication,
                               const Bounds& bounds) {
  int component = 0;
  std::vector<int> path;
  return build(t, space, role, base, node, replication, component, path, bounds);
}

Memory* MemoryAllocator::find(const Memory* m) {
  for (auto& owned : memories_)
    if (owned.get() == m) return owned.get();
  return nullptr;
}

void MemoryAllocator::rollback(size_t mark) {
  while (memories_.size() > mark) memories_.pop_back();
}

void MemoryAllocator::reserve(const std::string& name) { names_.push_back(name); }

bool MemoryAllocator::taken(const std::string& name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::string MemoryAllocator::freshName(const std::string& prefix) {
  while (true) {
    std::string n = fmt::format("{}{}", prefix, ++counters_[prefix]);
    if (!taken(n)) return n;
  }
}

}  // namespace lift::codegen
