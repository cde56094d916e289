// The stream-K schedule of a K-tiled reduction's work-groups (StreamK.h).
#include "codegen/StreamK.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "core/cfun/CFunAst.h"

namespace lift::codegen {
namespace {

bool isComment(const c::Stmt& s) { return s.kind == c::Stmt::Kind::Comment; }

// `return p0 + e;` (or `e + p0`) where e does not read the first parameter p0.
bool addsToFirstParameter(const ir::UserFunDef& f) {
  if (!f.body || f.params.empty() || !f.body->block) return false;
  const cfun::Stmt* s = f.body->block.get();
  while (s->kind == cfun::Stmt::Kind::Block && s->body.size() == 1 && s->body[0]) s = s->body[0].get();
  if (s->kind != cfun::Stmt::Kind::Return || s->exprs.empty() || !s->exprs[0]) return false;
  const cfun::Expr& e = *s->exprs[0];
  if (e.kind != cfun::Expr::Kind::Binary || e.binaryOp != cfun::BinaryOp::Add) return false;
  auto isP0 = [](const cfun::Expr& x) { return x.kind == cfun::Expr::Kind::Var && x.var == 0; };
  std::function<bool(const cfun::Expr&)> reads = [&](const cfun::Expr& x) {
    if (isP0(x)) return true;
    for (auto& o : x.operands)
      if (o && reads(*o)) return true;
    return false;
  };
  const cfun::Expr& a = *e.operands[0];
  const cfun::Expr& b = *e.operands[1];
  return (isP0(a) && !reads(b)) || (isP0(b) && !reads(a));
}

// A literal zero of a scalar or vector type: 0, 0.0f, (float4)(0.0f), ...
bool isZeroLiteral(const c::ExprP& e) {
  if (!e || e->kind != c::Expr::Kind::Text) return false;
  static const std::regex zero(R"(\s*(\(\s*[a-z]+[0-9]*\s*\)\s*)?\(?\s*(0|0\.0*|0\.0*f|0f)\s*\)?\s*)");
  return std::regex_match(e->text, zero);
}

std::optional<int64_t> integer(const std::string& s) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(s);
}

struct Level {
  std::string var;
  int64_t count = 0;
};

class Scheduler {
 public:
  Scheduler(KernelModel& model, int groups) : model_(model), groups_(groups) {}

  int run() {
    if (groups_ < 1 || model_.ndrange.dims < 1) return 0;
    for (const char* n : {"sk_g", "sk_lid", "sk_it", "sk_tile", "sk_k0", "sk_n", "sk_slot", "sk_first",
                          "sk_last", "sk_r", "sk_rslot"})
      if (model_.memories.taken(n) || c::namesInText(model_.body, n)) return 0;
    // The chain of mapWrg scopes, outermost first, and the innermost one's statements.
    c::Block* outerBlock = &model_.body;
    size_t outerAt = 0;
    c::Block* block = &model_.body;
    size_t first = 0;  // statements of `block` from here on are the level's own
    for (;;) {
      std::vector<size_t> own;
      for (size_t k = first; k < block->size(); ++k)
        if (!isComment(*(*block)[k])) own.push_back(k);
      if (own.size() != 1) break;
      c::Stmt& s = *(*block)[own[0]];
      std::optional<int> dim = groupScope(s);
      if (!dim) break;
      if (levels_.empty()) outerAt = own[0];
      if (std::any_of(dims_.begin(), dims_.end(), [&](int d) { return d == *dim; })) return 0;
      dims_.push_back(*dim);
      // The work-group id's declaration (none where the map has one work-group).
      bool declared = groupIdDecl(s, *dim);
      levels_.push_back({declared ? s.body[0]->name : std::string(), groupCount(*dim)});
      if (levels_.back().count < 1 || (!declared && levels_.back().count != 1)) return 0;
      block = &s.body;
      first = declared ? 1 : 0;
    }
    if (levels_.empty()) return 0;
    // Nothing reads the result.
    bool readsResult = false;
    c::forEachAccess(model_.body, [&](const c::Access& a) {
      if (!a.write && a.mem->role == Memory::Role::Output) readsResult = true;
    });
    if (readsResult) return 0;
    return rewrite(*outerBlock, outerAt, *block, first);
  }

 private:
  // The dimension of a mapWrg's scope `{ int wg_id = get_group_id(d); ... }`.
  static std::optional<int> groupScope(const c::Stmt& s) {
    if (s.kind != c::Stmt::Kind::Scope || !s.pattern || s.pattern->pattern() != ir::PatternKind::MapWrg ||
        s.pattern->index() < 0 || s.pattern->index() > 2)
      return std::nullopt;
    return s.pattern->index();
  }
  static bool groupIdDecl(const c::Stmt& s, int dim) {
    if (s.body.empty()) return false;
    const c::Stmt& d = *s.body[0];
    return d.kind == c::Stmt::Kind::Decl && d.text == "int" && d.rhs && d.rhs->kind == c::Expr::Kind::Text &&
           d.rhs->text == fmt::format("get_group_id({})", dim);
  }

  int64_t groupCount(int d) {
    const NDRange& nd = model_.ndrange;
    if (d >= nd.dims || !nd.global[d] || !nd.local[d] || !nd.global[d].isCst() || !nd.local[d].isCst())
      return 0;
    int64_t g = nd.global[d].value(), l = nd.local[d].value();
    return l > 0 && g % l == 0 ? g / l : 0;
  }

  const ir::UserFunDef* userFun(const std::string& name) {
    for (auto& [def, n] : model_.userFunNames)
      if (n == name) return def;
    return nullptr;
  }

  // Whether every access of the loop body to the accumulators is an additive update.
  bool additiveUpdates(const c::Block& body, const std::set<const Memory*>& acc) {
    int updates = 0, touches = 0;
    std::function<bool(const c::Block&)> walk = [&](const c::Block& b) {
      for (auto& s : b) {
        if (s->kind == c::Stmt::Kind::Assign && s->lhs && s->lhs->kind == c::Expr::Kind::Access &&
            acc.count(s->lhs->access->mem)) {
          const c::Access& w = *s->lhs->access;
          const c::ExprP& r = s->rhs;
          if (!r || r->kind != c::Expr::Kind::Call || r->ops.empty() || !r->ops[0] ||
              r->ops[0]->kind != c::Expr::Kind::Access)
            return false;
          const c::Access& old = *r->ops[0]->access;
          const ir::UserFunDef* f = userFun(r->text);
          if (old.mem != w.mem || old.form != w.form || old.lane != w.lane || old.width != w.width ||
              old.simplified != w.simplified || !f || !addsToFirstParameter(*f))
            return false;
          ++updates;
        }
        if (!walk(s->body)) return false;
      }
      return true;
    };
    if (!walk(body)) return false;
    c::forEachAccess(body, [&](const c::Access& a) {
      if (acc.count(a.mem)) ++touches;
    });
    return updates > 0 && touches == 2 * updates;
  }

  c::StmtP make(c::Stmt::Kind kind) {
    auto s = std::make_unique<c::Stmt>();
    s->kind = kind;
    s->node = node_;
    return s;
  }
  c::StmtP decl(const std::string& name, const std::string& value) {
    auto d = make(c::Stmt::Kind::Decl);
    d->text = "int";
    d->name = name;
    d->rhs = c::text(value);
    return d;
  }
  c::StmtP line(std::string text, c::Stmt::Kind kind = c::Stmt::Kind::Line) {
    auto l = make(kind);
    l->text = std::move(text);
    return l;
  }
  c::StmtP when(std::string cond, c::Block body) {
    auto s = make(c::Stmt::Kind::If);
    s->cond = std::move(cond);
    s->body = std::move(body);
    return s;
  }
  c::Block copy(const c::Block& b) {
    c::Block out;
    for (auto& s : b) out.push_back(c::clone(*s));
    return out;
  }

  int rewrite(c::Block& outer, size_t outerAt, c::Block& inner, size_t first) {
    // prefix; the loop over K tiles; suffix.
    std::vector<size_t> loops;
    for (size_t k = first; k < inner.size(); ++k)
      if (inner[k]->kind == c::Stmt::Kind::For) loops.push_back(k);
    if (loops.size() != 1) return 0;
    c::Stmt& loop = *inner[loops[0]];
    const std::string& i = loop.text;
    std::optional<int64_t> kt;
    if (loop.pattern || loop.parallelTrips != 0 || loop.init != "0" || loop.step != i + " += 1" ||
        loop.cond.rfind(i + " < ", 0) != 0 || !(kt = integer(loop.cond.substr(i.size() + 3))) || *kt < 1)
      return 0;
    node_ = loop.node;
    c::Block prefix, suffix;
    for (size_t k = first; k < loops[0]; ++k) prefix.push_back(std::move(inner[k]));
    for (size_t k = loops[0] + 1; k < inner.size(); ++k) suffix.push_back(std::move(inner[k]));
    auto restore = [&] {
      size_t at = first;
      for (auto& s : prefix) inner[at++] = std::move(s);
      ++at;
      for (auto& s : suffix) inner[at++] = std::move(s);
      return 0;
    };
    for (const char* call : {"get_group_id", "get_num_groups", "get_global_id", "get_global_size"})
      if (c::namesInText(prefix, call) || c::namesInText(loop.body, call) || c::namesInText(suffix, call))
        return restore();
    if (c::namesInText(loop.body, i)) return restore();

    // The accumulators: private memories the loop writes that live across it.
    std::set<const Memory*> inLoopWrites, outside, acc;
    bool ok = true;
    c::forEachAccess(loop.body, [&](const c::Access& a) {
      if (a.write && a.mem->space == AddressSpace::Private) inLoopWrites.insert(a.mem);
      if (a.write && a.mem->space == AddressSpace::Global) ok = false;
      if (!a.write && a.mem->space == AddressSpace::Global && a.mem->role != Memory::Role::Input) ok = false;
    });
    for (const c::Block* part : {&prefix, &suffix})
      c::forEachAccess(*part, [&](const c::Access& a) { outside.insert(a.mem); });
    for (const Memory* m : inLoopWrites)
      if (outside.count(m)) acc.insert(m);
    if (!ok || acc.empty()) return restore();
    for (const Memory* m : acc)
      if (!m->count.isCst() || m->addressTaken || m->elemType.isTuple()) return restore();
    if (!additiveUpdates(loop.body, acc)) return restore();
    // Before the loop: zeros into the accumulators, nothing read.
    std::function<bool(const c::Block&)> zeroes = [&](const c::Block& b) {
      for (auto& s : b) {
        if (s->kind == c::Stmt::Kind::Barrier || s->kind == c::Stmt::Kind::Line) return false;
        if (s->kind == c::Stmt::Kind::Assign && !(s->lhs && s->lhs->kind == c::Expr::Kind::Access &&
                                                  acc.count(s->lhs->access->mem) && isZeroLiteral(s->rhs)))
          return false;
        if (!zeroes(s->body)) return false;
      }
      return true;
    };
    c::forEachAccess(prefix, [&](const c::Access& a) {
      if (!a.write || !acc.count(a.mem)) ok = false;
    });
    // After it: the accumulators (and private values) read, the result written.
    c::forEachAccess(suffix, [&](const c::Access& a) {
      if (a.mem->space == AddressSpace::Local) ok = false;
      if (a.write && !(a.mem->role == Memory::Role::Output ||
                       (a.mem->space == AddressSpace::Private && !acc.count(a.mem))))
        ok = false;
    });
    if (!ok || !zeroes(prefix)) return restore();

    // Sizes.
    const NDRange& nd = model_.ndrange;
    int64_t wgSize = 1;
    for (int d = 0; d < nd.dims; ++d) {
      if (!nd.local[d] || !nd.local[d].isCst()) return restore();
      wgSize *= nd.local[d].value();
    }
    int64_t tiles = 1;
    for (auto& l : levels_) tiles *= l.count;
    // Whole waves of `groups_` tiles run one work-group a tile, as without stream-K; the tiles
    // of the last, partly filled wave are shared. Where the waves are whole, nothing is.
    int64_t whole = tiles >= groups_ ? tiles / groups_ * groups_ : 0;
    int64_t rest = tiles - whole;
    if (rest == 0) return restore();
    int64_t steps = rest * *kt;
    // Steps, and the parts' slots (two a work-group), are counted in ints: at most one work-group
    // a step, and no more than the slots can index.
    int64_t most = 1;
    for (const Memory* m : acc) most = std::max(most, m->count.value());
    if (tiles * *kt >= (int64_t{1} << 31) || 2 * most * wgSize >= (int64_t{1} << 31)) return restore();
    int64_t p = std::min<int64_t>({groups_, steps, ((int64_t{1} << 31) - 1) / (2 * most * wgSize)});
    if (whole + p >= (int64_t{1} << 31)) return restore();

    // The loop: steps sk_k0 .. sk_k0 + sk_n - 1 of the tile.
    arith::Expr var;
    c::forEachAccess(loop.body, [&](const c::Access& a) {
      for (const arith::Expr& e : {a.raw, a.simplified})
        for (arith::Expr v : arith::variables(e))
          if (arith::varName(v) == i) var = v;
    });
    arith::Expr k0 = arith::var("sk_k0", arith::cst(0), arith::cst(*kt));
    c::IndexMap index = [&](arith::Expr e) {
      return var ? arith::simplify(arith::substitute(e, {{var, var + k0}})) : e;
    };
    c::AccessMap shifted = [&](const c::Access& a) {
      c::Access r = a;
      if (var) {
        r.raw = arith::substitute(a.raw, {{var, arith::rawAdd(var, k0)}});
        r.simplified = index(a.simplified);
      }
      return r;
    };
    auto newLoop = c::clone(loop, shifted, index);
    newLoop->cond = i + " < sk_n";
    newLoop->trips = 0;

    // Global memories: each accumulator's parts, two slots per work-group; the tiles' counters.
    std::string ltid = "get_local_id(0)";
    for (int d = 1; d < nd.dims; ++d) {
      int64_t below = 1;
      for (int e = 0; e < d; ++e) below *= nd.local[e].value();
      ltid += fmt::format(" + {}*get_local_id({})", below, d);
    }
    arith::Expr g = arith::var("sk_g", arith::cst(0), arith::cst(p));
    arith::Expr r = arith::var("sk_r", arith::cst(0), arith::cst(p));
    arith::Expr slot = arith::var("sk_slot", arith::cst(0), arith::cst(2));
    arith::Expr rslot = arith::var("sk_rslot", arith::cst(0), arith::cst(2));
    arith::Expr lid = arith::var("sk_lid", arith::cst(0), arith::cst(wgSize));
    // The parts are kept lane by lane, as scalars: stored as vectors, they cost the kernel 165
    // registers where it has 127 without stream-K (half the occupancy on an H100), likely
    // because a vector store or load needs its lanes in consecutive registers, and every vector
    // accumulator was kept so through the loop (docs/PERFORMANCE.md, session 23).
    struct Part {
      const Memory* acc;
      const Memory* parts;
      int64_t count;
      int lanes;
    };
    std::vector<Part> parts;
    for (const Memory* m : acc) {
      int64_t n = m->count.value();
      int lanes = m->elemType.isVector() ? m->elemType.vectorWidth() : 1;
      Type scalar = m->elemType.isVector() ? Type::scalar(m->elemType.scalarKind()) : m->elemType;
      Memory* w = model_.memories.allocateMemory(model_.memories.freshName("sk_part"), AddressSpace::Global,
                                                 Memory::Role::Temporary, scalar,
                                                 arith::cst(p * 2 * n * lanes * wgSize), node_);
      parts.push_back({m, w, n, lanes});
    }
    Memory* counter =
        model_.memories.allocateMemory(model_.memories.freshName("sk_count"), AddressSpace::Global,
                                       Memory::Role::Temporary, Type::int_(), arith::cst(rest), node_);
    counter->taskCounter = true;
    Memory* arrived =
        model_.memories.allocateMemory(model_.memories.freshName("sk_arrived"), AddressSpace::Local,
                                       Memory::Role::Temporary, Type::int_(), arith::cst(1), node_);
    auto element = [&](const Memory* m, arith::Expr at, bool write) {
      c::Access a;
      a.mem = m;
      a.form = c::Access::Form::Element;
      a.raw = at;
      a.simplified = arith::simplify(at);
      a.write = write;
      a.node = node_;
      return a;
    };
    // Lane `lane` of accumulator element e, and that of a part's slot: the work-items' values
    // side by side.
    auto laneOf = [&](const Part& pt, int64_t e, int lane, bool write) {
      c::Access a = element(pt.acc, arith::cst(e), write);
      if (pt.lanes > 1) {
        a.form = c::Access::Form::Lane;
        a.lane = lane;
      }
      return a;
    };
    auto slotOf = [&](const Part& pt, arith::Expr group, arith::Expr s, int64_t e, int lane) {
      return ((group * 2 + s) * (pt.count * pt.lanes) + e * pt.lanes + lane) * wgSize + lid;
    };

    // The partial tile: stored, counted, and summed by the part that counts last.
    // The range's bounds, computed where needed rather than kept in registers through the loop
    // (a register more costs the kernel half its occupancy on an H100).
    // Work-groups 0 .. whole - 1 take a tile each; the others, sk_g = 0 .. p - 1, share the rest.
    std::string group = whole > 0 ? fmt::format("(get_group_id(0) - {})", whole) : "get_group_id(0)";
    std::string begin = fmt::format("(int)((long){}*{}/{})", group, steps, p);
    std::string end = fmt::format("(int)(((long){} + 1)*{}/{})", group, steps, p);
    c::Block partial;
    {
      partial.push_back(decl("sk_g", group));
      partial.push_back(decl("sk_lid", ltid));
      partial.push_back(decl("sk_slot", fmt::format("sk_it == {} ? 0 : 1", begin)));
      for (auto& pt : parts)
        for (int64_t e = 0; e < pt.count; ++e)
          for (int lane = 0; lane < pt.lanes; ++lane) {
            auto s = make(c::Stmt::Kind::Assign);
            s->lhs = c::access(element(pt.parts, slotOf(pt, g, slot, e, lane), true));
            s->rhs = c::access(laneOf(pt, e, lane, false));
            partial.push_back(std::move(s));
          }
      partial.push_back(line("mem_fence(CLK_GLOBAL_MEM_FENCE);"));
      partial.push_back(line("CLK_GLOBAL_MEM_FENCE", c::Stmt::Kind::Barrier));
      {
        c::Block count;
        count.push_back(line(fmt::format("{}[0] = atomic_inc(&{}[sk_tile]);", arrived->name, counter->name)));
        partial.push_back(
            when("get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0", std::move(count)));
      }
      partial.push_back(line("CLK_LOCAL_MEM_FENCE", c::Stmt::Kind::Barrier));
      partial.push_back(
          decl("sk_first", fmt::format("(int)((((long)sk_tile*{} + 1)*{} - 1)/{})", *kt, p, steps)));
      partial.push_back(
          decl("sk_last", fmt::format("(int)((((long)sk_tile + 1)*{}*{} - 1)/{})", *kt, p, steps)));
      {
        // One loop over the other parts for each accumulator: the loads of one element's parts in
        // flight at a time, not every element's (which would cost the kernel registers, and so
        // occupancy, everywhere).
        c::Block last;
        last.push_back(line("mem_fence(CLK_GLOBAL_MEM_FENCE);"));
        for (auto& pt : parts)
          for (int64_t e = 0; e < pt.count; ++e) {
            c::Block add;
            add.push_back(decl("sk_rslot",
                               fmt::format("(int)((long)sk_r*{}/{})/{} == sk_tile ? 0 : 1", steps, p, *kt)));
            for (int lane = 0; lane < pt.lanes; ++lane) {
              auto s = make(c::Stmt::Kind::Assign);
              s->lhs = c::access(laneOf(pt, e, lane, true));
              s->rhs = c::sum(c::access(laneOf(pt, e, lane, false)),
                              c::access(element(pt.parts, slotOf(pt, r, rslot, e, lane), false)));
              add.push_back(std::move(s));
            }
            auto others = make(c::Stmt::Kind::For);
            others->text = "sk_r";
            others->init = "sk_first";
            others->cond = "sk_r <= sk_last";
            others->step = "sk_r += 1";
            others->body.push_back(when("sk_r != sk_g", std::move(add)));
            last.push_back(std::move(others));
          }
        for (auto& s : copy(suffix)) last.push_back(std::move(s));
        partial.push_back(when(fmt::format("{}[0] == sk_last - sk_first", arrived->name), std::move(last)));
      }
    }

    // The tile `sk_tile` (counted from tile `from`) as the ids of the mapWrgs it stood for.
    auto tileIds = [&](c::Block& into, int64_t from) {
      std::string tile = from > 0 ? fmt::format("(sk_tile + {})", from) : "sk_tile";
      int64_t below = 1;
      for (size_t l = levels_.size(); l-- > 0;) {
        if (levels_[l].var.empty()) continue;
        std::string value = below == 1 ? tile : fmt::format("{}/{}", tile, below);
        if (l > 0)
          value = fmt::format("{} % {}", value.find('/') == std::string::npos ? value : "(" + value + ")",
                              levels_[l].count);
        into.push_back(decl(levels_[l].var, value));
        below *= levels_[l].count;
      }
    };

    // A work-group's run of steps, tile after tile: with at least as many work-groups as tiles
    // to share, a part of one tile or the end of one and the start of the next.
    c::Block shared;
    auto steps_ = make(c::Stmt::Kind::For);
    steps_->text = "sk_it";
    steps_->init = begin;
    steps_->cond = "sk_it < " + end;
    c::Block& body = steps_->body;
    body.push_back(decl("sk_tile", fmt::format("sk_it/{}", *kt)));
    body.push_back(decl("sk_k0", fmt::format("sk_it - sk_tile*{}", *kt)));
    body.push_back(decl("sk_n", fmt::format("min({} - sk_k0, {} - sk_it)", *kt, end)));
    tileIds(body, whole);
    for (auto& s : copy(prefix)) body.push_back(std::move(s));
    body.push_back(std::move(newLoop));
    for (auto& s : partial) body.push_back(std::move(s));
    body.push_back(line("sk_it += sk_n;"));
    shared.push_back(std::move(steps_));

    auto scope = make(c::Stmt::Kind::Scope);
    if (whole > 0) {
      scope->body.push_back(
          line(fmt::format("stream-K: {} tiles a work-group each, then {} work-group{} share "
                           "the {} steps of {} tile{} x {}",
                           whole, p, p == 1 ? "" : "s", steps, rest, rest == 1 ? "" : "s", *kt),
               c::Stmt::Kind::Comment));
      c::Block own;
      own.push_back(decl("sk_tile", "get_group_id(0)"));
      tileIds(own, 0);
      for (auto& s : prefix) own.push_back(std::move(s));
      own.push_back(c::clone(loop));
      for (auto& s : suffix) own.push_back(std::move(s));
      scope->body.push_back(when(fmt::format("get_group_id(0) < {}", whole), std::move(own)));
      scope->body.push_back(when(fmt::format("get_group_id(0) >= {}", whole), std::move(shared)));
    } else {
      scope->body.push_back(line(fmt::format("stream-K: {} work-group{} share the {} steps of {} tile{} x {}",
                                             p, p == 1 ? "" : "s", steps, tiles, tiles == 1 ? "" : "s", *kt),
                                 c::Stmt::Kind::Comment));
      for (auto& s : shared) scope->body.push_back(std::move(s));
    }
    outer[outerAt] = std::move(scope);
    return static_cast<int>(whole + p);
  }

  KernelModel& model_;
  int groups_;
  std::vector<Level> levels_;
  std::vector<int> dims_;
  ir::NodeId node_ = 0;
};

}  // namespace

int scheduleStreamK(KernelModel& model, int groups) { return Scheduler(model, groups).run(); }

}  // namespace lift::codegen
