// Padding of local tiles (LocalPadding.h).
#include "codegen/LocalPadding.h"

#include <optional>
#include <vector>

namespace lift::codegen {
namespace {

// The lengths of the array nest t, outermost first, if all are constants.
std::optional<std::vector<int64_t>> constantLengths(Type t) {
  std::vector<int64_t> lengths;
  for (; t.isArray(); t = t.elem()) {
    if (!t.length().isCst()) return std::nullopt;
    lengths.push_back(t.length().value());
  }
  return lengths;
}

// The rows of a memory viewed as an array nest of constant lengths: how many, how long.
struct Rows {
  int64_t count = 0, length = 0;
};
std::optional<Rows> rowsOf(Type t) {
  auto lengths = constantLengths(t);
  if (!lengths || lengths->size() < 2) return std::nullopt;
  Rows r{1, lengths->back()};
  for (size_t d = 0; d + 1 < lengths->size(); ++d) r.count *= (*lengths)[d];
  return r;
}

// `pad` > 0: pads; 0: removes the padding.
int setPadding(const ViewNode& node, MemoryAllocator& memories, int pad) {
  Memory* m = memories.find(node.mem);
  auto rows = rowsOf(node.type);
  if (!m || !rows || m->space != AddressSpace::Local || m->dynamicLocal ||
      m->role != Memory::Role::Temporary || !m->lclDims.empty() || !m->count.isCst() || m->rowPadding == pad)
    return 0;
  // The memory holds exactly this nest (not sized for a larger value of a loop variable).
  if (rows->count * (rows->length + m->rowPadding) != m->count.value()) return 0;
  if (pad > 0 && (m->addressTaken || rows->length < 2)) return 0;
  m->rowPadding = pad;
  m->count = arith::cst(rows->count * (rows->length + pad));
  return 1;
}

int forEachMem(const View& v, MemoryAllocator& memories, int pad) {
  if (!v) return 0;
  if (v->kind == ViewNode::Kind::Mem) return setPadding(*v, memories, pad);
  int n = 0;
  for (const View& p : v->parents) n += forEachMem(p, memories, pad);
  return n;
}

}  // namespace

int padLocalRows(const View& v, MemoryAllocator& memories, int pad) {
  return pad > 0 ? forEachMem(v, memories, pad) : 0;
}

void unpadLocalRows(const View& v, MemoryAllocator& memories) { forEachMem(v, memories, 0); }

}  // namespace lift::codegen
