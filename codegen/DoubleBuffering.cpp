// Two local buffers per copied tile and one barrier per step of the loop over tiles.
#include "codegen/DoubleBuffering.h"

#include "codegen/PrefetchParts.h"
#include "codegen/RegisterPrefetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace lift::codegen {
namespace {

bool isComment(const c::StmtP& s) { return s->kind == c::Stmt::Kind::Comment; }

// How far the second buffer of a memory of `count` elements is in the index of access `a`
// (its unit: elements, scalars of a vector memory, or vectors of a scalar one); nullopt when the
// unit does not divide.
std::optional<int64_t> bufferOffset(const c::Access& a, int64_t count) {
  int64_t width = a.mem->elemType.isVector() ? a.mem->elemType.vectorWidth() : 1;
  switch (a.form) {
    case c::Access::Form::Element:
    case c::Access::Form::Lane:
    case c::Access::Form::Swizzle:
      return count;
    case c::Access::Form::ScalarCast:
      return count * width;
    case c::Access::Form::VLoadAt:
      return count * width;
    case c::Access::Form::VLoad:
    case c::Access::Form::VectorCast:
      if (width != 1 || a.width <= 0 || count % a.width != 0) return std::nullopt;
      return count / a.width;
  }
  return std::nullopt;
}

class DoubleBuffer {
 public:
  DoubleBuffer(c::Block& kernel, MemoryAllocator& memories, bool prefetch, int parts)
      : kernel_(kernel), memories_(memories), prefetch_(prefetch), parts_(parts) {}

  DoubleBuffered run() {
    // The loops of the shape first, and the tiles each copies into: a tile may be copied by
    // several such loops (the two branches of a stream-K kernel, StreamK.h), each of which
    // writes it before reading it, and is then doubled once for all of them; a tile that any
    // other statement uses keeps its loops as they are.
    visit(kernel_, false);
    for (auto& [loop, tiles] : candidates_)
      if (!usedOutside(kernel_, tiles)) accepted_.insert(loop);
    visit(kernel_, true);
    return done_;
  }

 private:
  void visit(c::Block& b, bool apply) {
    for (size_t k = 0; k < b.size(); ++k) {
      if (b[k]->kind == c::Stmt::Kind::For && (!apply || accepted_.count(b[k].get())) &&
          transform(b, k, apply) && apply) {
        ++done_.loops;
        continue;
      }
      visit(b[k]->body, apply);
    }
  }

  // Double-buffers the loop b[k] when it has the shape; inserts the first copy before it. Only
  // checks the shape (and notes the loop and its tiles) unless `apply`.
  bool transform(c::Block& b, size_t& k, bool apply) {
    c::Stmt& loop = *b[k];
    const std::string& i = loop.text;
    std::string bound;
    if (loop.init != "0" || loop.step != i + " += 1" || loop.cond.rfind(i + " < ", 0) != 0) return false;
    bound = loop.cond.substr(i.size() + 3);
    // copy ... ; barrier ; compute ... ; barrier (comments anywhere)
    std::vector<size_t> barriers;
    for (size_t j = 0; j < loop.body.size(); ++j)
      if (loop.body[j]->kind == c::Stmt::Kind::Barrier) barriers.push_back(j);
    if (barriers.size() != 2) return false;
    for (size_t j = barriers[1] + 1; j < loop.body.size(); ++j)
      if (!isComment(loop.body[j])) return false;
    c::Block copy, compute;
    for (size_t j = 0; j < barriers[0]; ++j) copy.push_back(std::move(loop.body[j]));
    for (size_t j = barriers[0] + 1; j < barriers[1]; ++j) compute.push_back(std::move(loop.body[j]));
    auto restore = [&] {
      size_t at = 0;
      for (auto& s : copy) loop.body[at++] = std::move(s);
      ++at;
      for (auto& s : compute) loop.body[at++] = std::move(s);
    };

    // The copies write local arrays only and read no local memory; the computation writes none.
    std::set<Memory*> tiles;
    bool ok = !copy.empty();
    arith::Expr var;
    auto noteVar = [&](arith::Expr e) {
      for (arith::Expr v : arith::variables(e))
        if (arith::varName(v) == i) var = v;
    };
    c::forEachAccess(copy, [&](const c::Access& a) {
      noteVar(a.raw);
      noteVar(a.simplified);
      if (a.mem->space == AddressSpace::Local && !a.write) ok = false;
      if (!a.write) return;
      Memory* m = memories_.find(a.mem);
      if (!m || m->space != AddressSpace::Local || m->dynamicLocal || !m->count.isCst() || m->addressTaken)
        ok = false;
      else
        tiles.insert(m);
    });
    c::forEachAccess(compute, [&](const c::Access& a) {
      if (a.write && a.mem->space == AddressSpace::Local) ok = false;
    });
    auto offsetsDefined = [&](const c::Block& part) {
      bool defined = true;
      c::forEachAccess(part, [&](const c::Access& a) {
        Memory* m = memories_.find(a.mem);
        if (tiles.count(m) && !bufferOffset(a, m->count.value())) defined = false;
      });
      return defined;
    };
    if (!ok || tiles.empty() || !var || c::namesInText(copy, i) || !offsetsDefined(copy) ||
        !offsetsDefined(compute)) {
      restore();
      return false;
    }
    if (!apply) {
      restore();
      candidates_.emplace_back(&loop, tiles);
      return true;
    }

    std::map<const Memory*, arith::Expr> size;
    for (Memory* m : tiles) size[m] = single_.count(m) ? single_[m] : m->count;
    auto substituted = [&](arith::Expr at) {
      return [&, at](arith::Expr e) { return arith::simplify(arith::substitute(e, {{var, at}})); };
    };
    // An access of tile `tile` (with `var` = `tile` already substituted): into buffer tile % 2.
    auto inBuffer = [&](c::Access r, arith::Expr tile) {
      if (auto it = size.find(r.mem); it != size.end()) {
        arith::Expr offset = arith::mod(tile, arith::cst(2)) * *bufferOffset(r, it->second.value());
        r.raw = arith::rawAdd(r.raw, offset);
        r.simplified = arith::simplify(r.simplified + offset);
      }
      return r;
    };
    // The copies of tile `at` write buffer `buffer` % 2 (at % 2 but where the last step loads
    // its own tiles again); the computation reads buffer i % 2.
    auto copyOf = [&](arith::Expr at, arith::Expr buffer) {
      c::IndexMap index = substituted(at);
      c::AccessMap access = [&, index, at, buffer](const c::Access& a) {
        c::Access r = a;
        r.raw = arith::substitute(a.raw, {{var, at}});
        r.simplified = index(a.simplified);
        return inBuffer(r, buffer);
      };
      c::Block out;
      for (auto& s : copy) out.push_back(c::clone(*s, access, index));
      return out;
    };
    // With the loads staged through registers, the loop keeps no branch around them (NVIDIA's
    // compiler schedules a loop with a branch in it worse, more so one of unknown length, issue 14,
    // session 24): a constant-length loop runs its last step after it, where there is nothing to
    // load; a loop of unknown length loads its last tiles again in its last step (the next index
    // clamped), into the buffer no step reads any more.
    std::optional<int64_t> steps;
    if (!bound.empty() &&
        std::all_of(bound.begin(), bound.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
        bound.size() < 10)
      steps = std::stoll(bound);
    c::Block first = copyOf(arith::cst(0), arith::cst(0));
    c::Block next = copyOf(var + 1, var + 1);
    std::string nextName;
    c::Block clampedNext;
    if (prefetch_ && !steps) {
      nextName = memories_.taken(i + "_next") ? memories_.freshName(i + "_next") : i + "_next";
      clampedNext = copyOf(arith::var(nextName, arith::cst(0), arith::varHi(var)), var + 1);
    }
    c::IndexMap same = [](arith::Expr e) { return e; };
    c::AccessMap current = [&](const c::Access& a) { return inBuffer(a, var); };
    c::Block reading;
    for (auto& s : compute) reading.push_back(c::clone(*s, current, same));
    c::StmtP firstBarrier = c::clone(*loop.body[barriers[0]]);
    c::StmtP lastBarrier = c::clone(*loop.body[barriers[1]]);

    auto guarded = [&](c::Block body) {
      auto guard = std::make_unique<c::Stmt>();
      guard->kind = c::Stmt::Kind::If;
      guard->node = loop.node;
      guard->cond = fmt::format("{} + 1 < {}", i, bound);
      guard->body = std::move(body);
      return guard;
    };
    auto comment = [&](std::string text) {
      auto note = std::make_unique<c::Stmt>();
      note->kind = c::Stmt::Kind::Comment;
      note->node = loop.node;
      note->text = std::move(text);
      return note;
    };
    auto decl = [&](const std::string& name, std::string value) {
      auto d = std::make_unique<c::Stmt>();
      d->kind = c::Stmt::Kind::Decl;
      d->node = loop.node;
      d->text = "int";
      d->name = name;
      d->rhs = c::text(std::move(value));
      return d;
    };
    // Which form the staged copy takes: the last step after the loop (a constant number of
    // steps), the next index clamped (an unknown number), or, where the copy can be staged only
    // as it is, a branch around its loads and stores.
    StagedCopy staged;
    bool peeled = false, clamped = false, withBranch = false;
    if (prefetch_ && !steps) clamped = stageThroughRegisters(clampedNext, memories_, staged);
    if (prefetch_ && !clamped && stageThroughRegisters(next, memories_, staged)) {
      peeled = steps && *steps >= 2;
      withBranch = !peeled;
    }
    loop.body.clear();
    c::StmtP after;  // the peeled last step
    if (peeled || clamped || withBranch) {
      if (peeled) {
        loop.cond = fmt::format("{} < {}", i, *steps - 1);
        loop.trips = *steps - 1;
        after = std::make_unique<c::Stmt>();
        after->kind = c::Stmt::Kind::Scope;
        after->node = loop.node;
        after->body.push_back(comment("the last step: no next tiles"));
        after->body.push_back(decl(i, std::to_string(*steps - 1)));
        for (auto& s : reading) after->body.push_back(c::clone(*s));
        after->body.push_back(c::clone(*lastBarrier));
      }
      if (clamped) {
        loop.body.push_back(comment("the next tiles, loaded into registers (the last step: its own again)"));
        bool simple = std::all_of(bound.begin(), bound.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        });
        loop.body.push_back(decl(nextName, simple ? fmt::format("min({} + 1, {} - 1)", i, bound)
                                                  : fmt::format("min({} + 1, ({}) - 1)", i, bound)));
        memories_.reserve(nextName);
      } else {
        loop.body.push_back(comment("the next tiles, loaded into registers"));
      }
      std::optional<c::Block> inParts;
      if (!withBranch && parts_ > 1) inParts = interleaveInParts(staged, reading, parts_);
      for (auto& s : staged.declarations) loop.body.push_back(std::move(s));
      if (inParts) {
        ++done_.inParts;
        for (auto& s : *inParts) loop.body.push_back(std::move(s));
      } else {
        if (withBranch)
          loop.body.push_back(guarded(std::move(staged.loads)));
        else
          for (auto& s : staged.loads) loop.body.push_back(std::move(s));
        for (auto& s : reading) loop.body.push_back(std::move(s));
        loop.body.push_back(comment("stored into the other buffers"));
        if (withBranch)
          loop.body.push_back(guarded(std::move(staged.stores)));
        else
          for (auto& s : staged.stores) loop.body.push_back(std::move(s));
      }
    } else {
      loop.body.push_back(comment("the next tiles, into the other buffers"));
      loop.body.push_back(guarded(std::move(next)));
      for (auto& s : reading) loop.body.push_back(std::move(s));
    }
    loop.body.push_back(std::move(lastBarrier));
    for (Memory* m : tiles)
      if (single_.emplace(m, m->count).second) m->count = m->count * 2;

    c::Block before;
    before.push_back(comment("double-buffered: the first tiles"));
    for (auto& s : first) before.push_back(std::move(s));
    before.push_back(std::move(firstBarrier));
    size_t n = before.size();
    if (after) b.insert(b.begin() + static_cast<std::ptrdiff_t>(k) + 1, std::move(after));
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(k), std::make_move_iterator(before.begin()),
             std::make_move_iterator(before.end()));
    k += n;
    return true;
  }

  // Whether a statement other than the loops of the shape (anywhere in `b`) accesses one of the
  // tiles.
  bool usedOutside(const c::Block& b, const std::set<Memory*>& tiles) {
    for (auto& s : b) {
      if (std::any_of(candidates_.begin(), candidates_.end(), [&](auto& c) { return c.first == s.get(); }))
        continue;
      for (const c::ExprP& e : {s->lhs, s->rhs}) {
        bool hit = false;
        if (e)
          c::forEachExpr(*e, [&](const c::Expr& x) {
            if (x.kind == c::Expr::Kind::Access && tiles.count(memories_.find(x.access->mem))) hit = true;
          });
        if (hit) return true;
      }
      if (usedOutside(s->body, tiles)) return true;
    }
    return false;
  }

  c::Block& kernel_;
  MemoryAllocator& memories_;
  bool prefetch_;
  int parts_;
  DoubleBuffered done_;
  std::vector<std::pair<const c::Stmt*, std::set<Memory*>>> candidates_;
  std::set<const c::Stmt*> accepted_;
  std::map<const Memory*, arith::Expr> single_;  // the doubled tiles' sizes before
};

}  // namespace

DoubleBuffered doubleBufferTileCopies(c::Block& body, MemoryAllocator& memories, bool registerPrefetch,
                                      int prefetchParts) {
  return DoubleBuffer(body, memories, registerPrefetch, prefetchParts).run();
}

}  // namespace lift::codegen
