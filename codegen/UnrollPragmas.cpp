// Unroll pragmas on innermost sequential loops of a constant trip count.
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

}  // namespace lift::codegen
