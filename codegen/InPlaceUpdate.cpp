// Whether a sequential loop may update its accumulator in place (InPlaceUpdate.h).
#include "codegen/InPlaceUpdate.h"

#include <algorithm>
#include <functional>

namespace lift::codegen {

namespace {

bool hasDivMod(arith::Expr e) {
  if (e.kind() == arith::Kind::Div || e.kind() == arith::Kind::Mod) return true;
  for (auto o : e.operands())
    if (hasDivMod(o)) return true;
  return false;
}

bool mentionsVar(arith::Expr e, const std::string& name) {
  for (auto v : arith::variables(e))
    if (arith::varName(v) == name) return true;
  return false;
}

}  // namespace

bool inPlaceSafe(const c::Block& iteration, int tag) {
  struct Site {
    const c::Access* a;
    size_t stmt;
    std::vector<std::string> loops;
  };
  std::vector<Site> reads, writes;
  size_t counter = 0;
  std::vector<std::string> loops;
  std::function<void(const c::Block&)> walk = [&](const c::Block& b) {
    for (auto& s : b) {
      size_t idx = counter++;
      auto visit = [&](const c::ExprP& e, bool lhs) {
        if (!e) return;
        c::forEachExpr(*e, [&](const c::Expr& x) {
          if (x.kind != c::Expr::Kind::Access) return;
          const c::Access* a = x.access.get();
          if (lhs && a->write && (s->kind == c::Stmt::Kind::Assign || s->kind == c::Stmt::Kind::Store))
            writes.push_back({a, idx, loops});
          else if (!a->write && std::find(a->tags.begin(), a->tags.end(), tag) != a->tags.end())
            reads.push_back({a, idx, loops});
        });
      };
      visit(s->rhs, false);
      visit(s->lhs, true);
      if (s->kind == c::Stmt::Kind::For) {
        loops.push_back(s->text);
        walk(s->body);
        loops.pop_back();
      } else {
        walk(s->body);
      }
    }
  };
  walk(iteration);
  for (auto& r : reads) {
    for (auto& w : writes) {
      if (w.a->mem != r.a->mem) continue;
      size_t common = 0;
      while (common < r.loops.size() && common < w.loops.size() && r.loops[common] == w.loops[common])
        ++common;
      bool sameForm = w.a->form == r.a->form && w.a->lane == r.a->lane && w.a->width == r.a->width;
      arith::Expr diff = arith::simplify(w.a->simplified - r.a->simplified);
      bool different = sameForm && diff.isCst() && diff.value() != 0;
      if (w.stmt < r.stmt && !different) return false;
      if (common > 0) {
        bool same = sameForm && w.a->simplified == r.a->simplified && !hasDivMod(r.a->simplified);
        for (size_t l = 0; l < common && same; ++l) same = mentionsVar(r.a->simplified, r.loops[l]);
        if (!same) return false;
      }
    }
  }
  return true;
}

}  // namespace lift::codegen
