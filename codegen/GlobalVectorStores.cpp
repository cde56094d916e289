// Groups a block's four writes of a scalar global array at b .. b+3 into one float4 write.
#include "codegen/GlobalVectorStores.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lift::codegen {
namespace {

constexpr int W = 4;

// A global array of 4-byte scalars (float, int).
bool vectorizable(const Memory& m) {
  if (m.space != AddressSpace::Global || !m.elemType.isScalar()) return false;
  arith::Expr bytes = m.elemType.byteSize();
  return bytes.isCst() && bytes.value() == 4;
}

// A statement `mem[base + lane] = value;` that can be a lane of a vector write.
struct LaneWrite {
  size_t at;
  const c::Access* access;
  arith::Expr base;
  int lane;
};

std::optional<LaneWrite> laneWrite(const c::Stmt& s, size_t at) {
  if (s.kind != c::Stmt::Kind::Assign || !s.lhs || s.lhs->kind != c::Expr::Kind::Access) return std::nullopt;
  const c::Access& a = *s.lhs->access;
  if (!a.write || a.form != c::Access::Form::Element || !a.mem || !vectorizable(*a.mem)) return std::nullopt;
  for (int lane = 0; lane < W; ++lane) {
    arith::Expr base = arith::simplify(a.simplified - lane);
    if (arith::provablyDivisible(base, arith::cst(W)) && arith::provablyNonNegative(base))
      return LaneWrite{at, &a, base, lane};
  }
  return std::nullopt;
}

// The memories an expression reads.
void reads(const c::ExprP& e, std::set<const Memory*>& mems) {
  if (!e) return;
  c::forEachExpr(*e, [&](const c::Expr& x) {
    if (x.kind == c::Expr::Kind::Access) mems.insert(x.access->mem);
  });
}

class Vectorizer {
 public:
  void block(c::Block& b) {
    for (auto& s : b) block(s->body);
    // The writes by array and base, in order.
    std::map<std::pair<const Memory*, std::string>, std::vector<LaneWrite>> groups;
    for (size_t k = 0; k < b.size(); ++k)
      if (auto w = laneWrite(*b[k], k)) groups[{w->access->mem, arith::toString(w->base)}].push_back(*w);

    std::map<size_t, c::StmtP> replacement;  // at the last write of each group
    std::set<size_t> removed;
    for (auto& [key, writes] : groups) {
      if (writes.size() != W) continue;
      std::vector<const LaneWrite*> lane(W, nullptr);
      for (const LaneWrite& w : writes) lane[w.lane] = &w;
      bool complete = true;
      for (const LaneWrite* w : lane) complete = complete && w;
      if (!complete) continue;
      size_t first = writes.front().at, last = writes.back().at;
      if (!safeToDelay(b, first, last, key.first)) continue;
      std::vector<c::ExprP> values;
      for (const LaneWrite* w : lane) values.push_back(b[w->at]->rhs);
      const LaneWrite& w0 = *lane[0];
      c::Access v;
      v.mem = w0.access->mem;
      v.form = c::Access::Form::VectorCast;
      v.width = W;
      v.write = true;
      v.raw = arith::rawDiv(w0.access->raw, arith::cst(W));
      v.simplified = arith::simplify(w0.base / W);
      v.node = w0.access->node;
      auto s = std::make_unique<c::Stmt>();
      s->kind = c::Stmt::Kind::Assign;
      s->node = b[last]->node;
      s->lhs = c::access(std::move(v));
      s->rhs = c::vectorCons(w0.access->mem->elemType.openclName() + "4", std::move(values));
      replacement[last] = std::move(s);
      for (const LaneWrite& w : writes) removed.insert(w.at);
      ++count_;
    }
    if (replacement.empty()) return;
    c::Block out;
    for (size_t k = 0; k < b.size(); ++k) {
      if (auto it = replacement.find(k); it != replacement.end()) out.push_back(std::move(it->second));
      if (!removed.count(k)) out.push_back(std::move(b[k]));
    }
    b = std::move(out);
  }

  int count() const { return count_; }

 private:
  // Whether the writes of statements first..last may all happen at `last`: the statements between
  // only declare variables (never assign one) or write `mem`, and none of them reads `mem`.
  static bool safeToDelay(const c::Block& b, size_t first, size_t last, const Memory* mem) {
    std::set<const Memory*> mems;
    for (size_t k = first; k <= last; ++k) {
      const c::Stmt& s = *b[k];
      if (!s.body.empty()) return false;
      switch (s.kind) {
        case c::Stmt::Kind::Comment:
          break;
        case c::Stmt::Kind::Decl:
          reads(s.rhs, mems);
          break;
        case c::Stmt::Kind::Assign:
          if (!s.lhs || s.lhs->kind != c::Expr::Kind::Access || s.lhs->access->mem != mem) return false;
          reads(s.rhs, mems);
          break;
        default:
          return false;
      }
    }
    return !mems.count(mem);
  }

  int count_ = 0;
};

}  // namespace

int vectorizeGlobalStores(c::Block& body) {
  Vectorizer v;
  v.block(body);
  return v.count();
}

}  // namespace lift::codegen
