// Groups a block's reads of a scalar local array at b .. b+3 into one float4 read.
#include "codegen/LocalVectorLoads.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lift::codegen {
namespace {

constexpr int W = kLocalVectorWidth;

// A local array of 4-byte scalars (float, int) whose size is a constant multiple of W.
bool vectorizable(const Memory& m) {
  if (m.space != AddressSpace::Local || m.dynamicLocal || !m.elemType.isScalar()) return false;
  arith::Expr bytes = m.elemType.byteSize();
  if (!bytes.isCst() || bytes.value() != 4) return false;
  return m.count.isCst() && m.count.value() % W == 0;
}

// A read that can be a lane of a vector read: its base (the index less its lane) and lane.
struct LaneRead {
  const c::Access* access;
  arith::Expr base;
  int lane;
};

std::optional<LaneRead> laneRead(const c::Access& a) {
  if (a.form != c::Access::Form::Element || a.write || !a.mem || !vectorizable(*a.mem)) return std::nullopt;
  for (int lane = 0; lane < W; ++lane) {
    arith::Expr base = arith::simplify(a.simplified - lane);
    if (arith::provablyDivisible(base, arith::cst(W)) && arith::provablyNonNegative(base))
      return LaneRead{&a, base, lane};
  }
  return std::nullopt;
}

// The reads of an expression that may become lanes (not under a guard: those may be out of
// bounds).
void collect(const c::ExprP& e, std::vector<LaneRead>& out) {
  if (!e) return;
  if (e->kind == c::Expr::Kind::Guarded) return;
  if (e->kind == c::Expr::Kind::Access) {
    if (auto r = laneRead(*e->access)) out.push_back(*r);
    return;
  }
  for (auto& op : e->ops) collect(op, out);
}

// The expression with the accesses of `lanes` replaced; the same pointer when nothing changed.
c::ExprP replace(const c::ExprP& e, const std::map<const c::Access*, c::ExprP>& lanes) {
  if (!e || e->kind == c::Expr::Kind::Guarded) return e;
  if (e->kind == c::Expr::Kind::Access) {
    auto it = lanes.find(e->access.get());
    return it == lanes.end() ? e : it->second;
  }
  std::vector<c::ExprP> ops;
  bool changed = false;
  for (auto& op : e->ops) {
    ops.push_back(replace(op, lanes));
    changed = changed || ops.back() != op;
  }
  if (!changed) return e;
  auto copy = std::make_shared<c::Expr>(*e);
  copy->ops = std::move(ops);
  return copy;
}

// Memories written and whether there is a barrier, in the statements at any depth.
void effects(const c::Block& b, std::set<const Memory*>& written, bool& barrier) {
  for (auto& s : b) {
    if (s->kind == c::Stmt::Kind::Barrier) barrier = true;
    if (s->lhs && s->lhs->kind == c::Expr::Kind::Access && s->lhs->access->write)
      written.insert(s->lhs->access->mem);
    if (s->kind == c::Stmt::Kind::Line) barrier = true;  // pointer swaps: nothing is known
    effects(s->body, written, barrier);
  }
}

class Vectorizer {
 public:
  Vectorizer(MemoryAllocator& memories, std::set<std::string> names)
      : memories_(memories), names_(std::move(names)) {}

  void block(c::Block& b) {
    for (auto& s : b) block(s->body);
    std::set<const Memory*> written;
    bool barrier = false;
    effects(b, written, barrier);
    if (barrier) return;

    // The groups: reads of the same vector, by array and base, with the statements using them.
    struct Group {
      const Memory* mem;
      arith::Expr base;
      std::set<int> lanes;
      std::vector<LaneRead> reads;
      size_t first = 0;
    };
    std::map<std::pair<const Memory*, std::string>, Group> groups;
    std::vector<std::pair<const Memory*, std::string>> order;
    for (size_t k = 0; k < b.size(); ++k) {
      const c::Stmt& s = *b[k];
      if (s.kind != c::Stmt::Kind::Assign && s.kind != c::Stmt::Kind::Decl && s.kind != c::Stmt::Kind::Store)
        continue;
      std::vector<LaneRead> reads;
      collect(s.rhs, reads);
      for (const LaneRead& r : reads) {
        if (written.count(r.access->mem)) continue;
        auto key = std::make_pair(r.access->mem, arith::toString(r.base));
        auto [it, fresh] = groups.try_emplace(key, Group{r.access->mem, r.base, {}, {}, k});
        if (fresh) order.push_back(key);
        it->second.lanes.insert(r.lane);
        it->second.reads.push_back(r);
      }
    }
    // A variable of the base declared in this block after the first use would not be in scope.
    auto declaredAfter = [&](const Group& g) {
      std::set<std::string> vars;
      for (arith::Expr v : arith::variables(g.base)) vars.insert(arith::varName(v));
      for (size_t k = g.first; k < b.size(); ++k)
        if (b[k]->kind == c::Stmt::Kind::Decl && vars.count(b[k]->name)) return true;
      return false;
    };

    std::map<const c::Access*, c::ExprP> lanes;
    std::multimap<size_t, c::StmtP> decls;
    for (auto& key : order) {
      Group& g = groups.at(key);
      if (g.lanes.size() < 2 || declaredAfter(g)) continue;
      std::string name = freshName();
      const LaneRead& r0 = g.reads.front();
      c::Access v;
      v.mem = g.mem;
      v.form = c::Access::Form::VectorCast;
      v.width = W;
      v.raw = arith::rawDiv(arith::rawAdd(r0.access->raw, arith::cst(-r0.lane)), arith::cst(W));
      v.simplified = arith::simplify(g.base / W);
      v.node = r0.access->node;
      auto d = std::make_unique<c::Stmt>();
      d->kind = c::Stmt::Kind::Decl;
      d->node = r0.access->node;
      d->text = fmt::format("{}{}", g.mem->elemType.openclName(), W);
      d->name = name;
      d->rhs = c::access(std::move(v));
      decls.emplace(g.first, std::move(d));
      for (const LaneRead& r : g.reads)
        lanes[r.access] = c::member(c::text(name), fmt::format(".s{}", r.lane));
      for (auto& m : memories_.memories())
        if (m.get() == g.mem) m->alignment = std::max(m->alignment, W * 4);
      ++count_;
    }
    if (decls.empty()) return;
    c::Block out;
    for (size_t k = 0; k < b.size(); ++k) {
      for (auto [it, end] = decls.equal_range(k); it != end; ++it) out.push_back(std::move(it->second));
      c::StmtP s = std::move(b[k]);
      s->rhs = replace(s->rhs, lanes);
      out.push_back(std::move(s));
    }
    b = std::move(out);
  }

  int count() const { return count_; }

 private:
  std::string freshName() {
    for (;;) {
      std::string n = fmt::format("lvec{}", ++next_);
      if (!names_.count(n) && !memories_.taken(n)) return n;
    }
  }

  MemoryAllocator& memories_;
  std::set<std::string> names_;
  int next_ = 0;
  int count_ = 0;
};

void declaredNames(const c::Block& b, std::set<std::string>& out) {
  for (auto& s : b) {
    if (s->kind == c::Stmt::Kind::Decl) out.insert(s->name);
    if (s->kind == c::Stmt::Kind::For) out.insert(s->text);
    declaredNames(s->body, out);
  }
}

}  // namespace

int vectorizeLocalLoads(c::Block& body, MemoryAllocator& memories) {
  std::set<std::string> names;
  declaredNames(body, names);
  Vectorizer v(memories, std::move(names));
  v.block(body);
  return v.count();
}

}  // namespace lift::codegen
