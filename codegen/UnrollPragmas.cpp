// Unroll pragmas on innermost sequential loops of a constant trip count, and on the loops over K
// tiles.
#include "codegen/UnrollPragmas.h"

#include <algorithm>

namespace lift::codegen {
namespace {

// Whether the statements contain a loop or a barrier, at any depth.
bool hasLoopOrBarrier(const c::Block& b) {
  for (auto& s : b) {
    if (s->kind == c::Stmt::Kind::For || s->kind == c::Stmt::Kind::Barrier) return true;
    if (hasLoopOrBarrier(s->body)) return true;
  }
  return false;
}

// Whether the statements contain a barrier, at any depth.
bool hasBarrier(const c::Block& b) {
  for (auto& s : b)
    if (s->kind == c::Stmt::Kind::Barrier || hasBarrier(s->body)) return true;
  return false;
}

}  // namespace

int addUnrollPragmas(c::Block& body, int factor) {
  if (factor <= 1) return 0;
  int marked = 0;
  for (auto& s : body) {
    if (s->kind == c::Stmt::Kind::For && s->trips > 1 && !hasLoopOrBarrier(s->body)) {
      s->unroll = static_cast<int>(std::min<int64_t>(factor, s->trips));
      ++marked;
      continue;
    }
    marked += addUnrollPragmas(s->body, factor);
  }
  return marked;
}

int addTileLoopUnrollPragmas(c::Block& body, int factor) {
  if (factor <= 1) return 0;
  int marked = 0;
  for (auto& s : body) {
    // A sequential loop (a parallel map's loop, over more work-groups than run, is not one).
    if (s->kind == c::Stmt::Kind::For && !s->pattern && s->trips != 1 && hasBarrier(s->body)) {
      s->unroll = s->trips > 1 ? static_cast<int>(std::min<int64_t>(factor, s->trips)) : factor;
      ++marked;
      continue;
    }
    marked += addTileLoopUnrollPragmas(s->body, factor);
  }
  return marked;
}

}  // namespace lift::codegen
