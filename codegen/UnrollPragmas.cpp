// Unroll pragmas on innermost sequential loops of a constant trip count, and on the loops over K
// tiles.
#include "codegen/UnrollPragmas.h"

#include <algorithm>

namespace lift::codegen {
namespace {

// Marks the outermost loops `wanted` accepts: `#pragma unroll factor`, at most the trip count where
// that is a constant. Returns how many.
template <class Wanted>
int markLoops(c::Block& body, int factor, const Wanted& wanted) {
  int marked = 0;
  for (auto& s : body) {
    if (s->kind == c::Stmt::Kind::For && wanted(*s)) {
      s->unroll = s->trips > 0 ? static_cast<int>(std::min<int64_t>(factor, s->trips)) : factor;
      ++marked;
      continue;
    }
    marked += markLoops(s->body, factor, wanted);
  }
  return marked;
}

}  // namespace

int addUnrollPragmas(c::Block& body, int factor) {
  if (factor <= 1) return 0;
  return markLoops(body, factor, [](const c::Stmt& loop) {
    return loop.trips > 1 && !c::contains(loop.body, {c::Stmt::Kind::For, c::Stmt::Kind::Barrier});
  });
}

int addTileLoopUnrollPragmas(c::Block& body, int factor) {
  if (factor <= 1) return 0;
  // Sequential loops only: a parallel map's loop (over more work-groups than run) is not one.
  return markLoops(body, factor, [](const c::Stmt& loop) {
    return !loop.pattern && loop.trips != 1 && c::contains(loop.body, {c::Stmt::Kind::Barrier});
  });
}

}  // namespace lift::codegen
