// Cutting a prefetching step into parts, each with its share of the next tiles (PrefetchParts.h).
#include "codegen/PrefetchParts.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace lift::codegen {
namespace {

// A scope or guard around an assignment, and the declarations before it in that scope.
struct Level {
  const c::Stmt* holder = nullptr;  // null: the block itself
  std::vector<const c::Stmt*> declarations;
};

// The assignment as a statement of its own: inside copies of the scopes and guards around it, each
// with the declarations that came before it there.
c::StmtP wrap(const std::vector<Level>& levels, const c::Stmt& assign) {
  c::StmtP inner = c::clone(assign);
  for (size_t l = levels.size(); l-- > 0;) {
    const Level& level = levels[l];
    if (!level.holder && level.declarations.empty()) continue;
    c::StmtP holder;
    if (level.holder) {
      holder = c::clone(*level.holder);
      holder->body.clear();
    } else {
      holder = std::make_unique<c::Stmt>();
      holder->kind = c::Stmt::Kind::Scope;
      holder->node = assign.node;
    }
    for (const c::Stmt* d : level.declarations) holder->body.push_back(c::clone(*d));
    holder->body.push_back(std::move(inner));
    inner = std::move(holder);
  }
  return inner;
}

// Every assignment of `b` (the loads or the stores of a staged copy), each a statement of its own.
// False for a statement other than scopes, guards, declarations, comments and assignments.
bool separate(const c::Block& b, std::vector<Level>& levels, std::vector<c::StmtP>& units) {
  for (auto& s : b) {
    switch (s->kind) {
      case c::Stmt::Kind::Comment:
        break;
      case c::Stmt::Kind::Decl:
        levels.back().declarations.push_back(s.get());
        break;
      case c::Stmt::Kind::Scope:
      case c::Stmt::Kind::If:
        levels.push_back({s.get(), {}});
        if (!separate(s->body, levels, units)) return false;
        levels.pop_back();
        break;
      case c::Stmt::Kind::Assign:
        units.push_back(wrap(levels, *s));
        break;
      default:
        return false;
    }
  }
  return true;
}

std::vector<c::StmtP> separate(const c::Block& b, bool& ok) {
  std::vector<Level> levels(1);
  std::vector<c::StmtP> units;
  ok = ok && separate(b, levels, units);
  return units;
}

const c::Stmt& innermost(const c::Stmt& s) {
  return s.kind == c::Stmt::Kind::Assign || s.body.empty() ? s : innermost(*s.body.back());
}

// Whether a statement of `b` assigns to the variable `name`.
bool assigns(const c::Block& b, const std::string& name) {
  return std::any_of(b.begin(), b.end(), [&](const c::StmtP& s) {
    bool here = s->kind == c::Stmt::Kind::Assign && s->lhs && s->lhs->kind == c::Expr::Kind::Text &&
                s->lhs->text == name;
    return here || assigns(s->body, name);
  });
}

// The computation's loop along k: the one sequential loop `for (int j = 0; j < T; j += 1)` (T a
// constant that `parts` divides, no barrier inside) under scopes and guards that declare nothing
// but ints the computation does not change; null where the computation has another shape.
c::Stmt* loopAlongK(c::Block& b, int parts) {
  c::Stmt* found = nullptr;
  for (auto& s : b) {
    switch (s->kind) {
      case c::Stmt::Kind::Comment:
        continue;
      case c::Stmt::Kind::Decl:
        if (s->text != "int" || c::readsMemory(s->rhs) || assigns(b, s->name)) return nullptr;
        continue;
      case c::Stmt::Kind::Scope:
      case c::Stmt::Kind::If:
        if (found) return nullptr;
        found = loopAlongK(s->body, parts);
        if (!found) return nullptr;
        continue;
      case c::Stmt::Kind::For: {
        const c::Stmt& l = *s;
        bool shape = !l.pattern && l.parallelTrips == 0 && l.trips >= parts && l.trips % parts == 0 &&
                     l.init == "0" && l.step == l.text + " += 1" &&
                     l.cond == fmt::format("{} < {}", l.text, l.trips) &&
                     !c::contains(l.body, {c::Stmt::Kind::Barrier, c::Stmt::Kind::Line});
        if (found || !shape) return nullptr;
        found = s.get();
        continue;
      }
      default:
        return nullptr;
    }
  }
  return found;
}

c::StmtP comment(ir::NodeId node, std::string text) {
  auto note = std::make_unique<c::Stmt>();
  note->kind = c::Stmt::Kind::Comment;
  note->node = node;
  note->text = std::move(text);
  return note;
}

}  // namespace

std::optional<c::Block> interleaveInParts(const StagedCopy& staged, const c::Block& compute, int parts) {
  if (parts <= 1) return std::nullopt;
  bool ok = true;
  std::vector<c::StmtP> loads = separate(staged.loads, ok), stores = separate(staged.stores, ok);
  if (!ok || loads.empty() || loads.size() != stores.size()) return std::nullopt;

  // Each load pairs with the store of the same value; the store says which tile it fills.
  std::map<const Memory*, std::vector<size_t>> byTile;
  std::vector<const Memory*> tiles;
  for (size_t u = 0; u < loads.size(); ++u) {
    const c::Stmt& load = innermost(*loads[u]);
    const c::Stmt& store = innermost(*stores[u]);
    bool paired = load.kind == c::Stmt::Kind::Assign && store.kind == c::Stmt::Kind::Assign && load.lhs &&
                  load.lhs->kind == c::Expr::Kind::Text && store.rhs &&
                  store.rhs->kind == c::Expr::Kind::Text && load.lhs->text == store.rhs->text && store.lhs &&
                  store.lhs->kind == c::Expr::Kind::Access;
    if (!paired) return std::nullopt;
    const Memory* tile = store.lhs->access->mem;
    if (!byTile.count(tile)) tiles.push_back(tile);
    byTile[tile].push_back(u);
  }

  // The computation once a part, its loop along k cut to the part's steps.
  std::vector<c::Block> steps(static_cast<size_t>(parts));
  for (int p = 0; p < parts; ++p) {
    for (auto& s : compute) steps[p].push_back(c::clone(*s));
    c::Stmt* loop = loopAlongK(steps[p], parts);
    if (!loop) return std::nullopt;
    int64_t length = loop->trips / parts, lo = p * length, hi = lo + length;
    loop->init = std::to_string(lo);
    loop->cond = fmt::format("{} < {}", loop->text, hi);
    loop->trips = length;
    if (loop->unroll > 0) loop->unroll = static_cast<int>(std::min<int64_t>(loop->unroll, length));
  }

  // Each tile's values dealt out over the parts in order, kept in the copy's order within a part.
  std::vector<std::vector<size_t>> share(static_cast<size_t>(parts));
  for (const Memory* tile : tiles) {
    const std::vector<size_t>& units = byTile[tile];
    size_t n = units.size();
    for (size_t p = 0; p < share.size(); ++p)
      for (size_t k = p * n / share.size(); k < (p + 1) * n / share.size(); ++k) share[p].push_back(units[k]);
  }
  ir::NodeId node = loads.front()->node;
  c::Block out;
  for (int p = 0; p < parts; ++p) {
    std::sort(share[p].begin(), share[p].end());
    out.push_back(comment(
        node, fmt::format("part {} of {}: its share of the next tiles, then its steps", p + 1, parts)));
    for (size_t u : share[p]) out.push_back(std::move(loads[u]));
    for (auto& s : steps[p]) out.push_back(std::move(s));
    if (!share[p].empty()) out.push_back(comment(node, "its share, stored into the other buffers"));
    for (size_t u : share[p]) out.push_back(std::move(stores[u]));
  }
  return out;
}

}  // namespace lift::codegen
