// The barrier rules of BarrierElimination.h, decided on the structure of the program (where
// the result of each mapLcl flows), and the barrier passes over the kernel's statements.
#include "codegen/BarrierElimination.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/LoweringCheck.h"

namespace lift::codegen {

namespace {

using Parent = ProgramIndex::Parent;

// Where the result of applying function node `f` goes: climbs address-space wrappers and
// returns the parent of the outermost one (a call applying it, or a pattern applying it to
// elements).
Parent applicationOf(const ProgramIndex& idx, const ir::FunNode* f, const ir::Node** outermost) {
  const ir::Node* cur = f;
  while (true) {
    Parent p = idx.parentOf(cur);
    if (p.edge == ir::Edge::PatternFun) {
      auto* pat = ir::asPattern(p.node.fun());
      if (pat && ir::isAddressSpace(pat->pattern())) {
        cur = p.node.get();
        continue;
      }
    }
    if (outermost) *outermost = cur;
    return p;
  }
}

// A pattern that only rearranges its one argument (a data-layout pattern, a map of such, id).
bool isSingleLayout(const ir::PatternNode* p) {
  if (!p || p->pattern() == ir::PatternKind::Zip || p->pattern() == ir::PatternKind::Tuple) return false;
  if (ir::isDataLayout(p->pattern()) || p->pattern() == ir::PatternKind::Id) return true;
  return ir::isMapLike(p->pattern()) && isViewFunction(p->f());
}

// The mapLcl computing the value of an expression (through wrappers and data-layout patterns
// applied to it), if any.
const ir::PatternNode* mapLclOfCall(const ir::Expr& e) {
  auto* c = ir::asCall(e);
  if (!c) return nullptr;
  const ir::PatternNode* p = unwrapAddressSpace(c->fun());
  if (p && p->pattern() == ir::PatternKind::MapLcl) return p;
  if (isSingleLayout(p) && c->args().size() == 1) return mapLclOfCall(c->args()[0]);
  return nullptr;
}

void analyse(const ProgramIndex& idx, const ir::PatternNode* lcl, BarrierPlan::Facts& facts) {
  const ir::Node* outer = nullptr;
  Parent app = applicationOf(idx, lcl, &outer);

  // R1 and R2: follow the value of the call through zips (R1) and data-layout patterns (R2).
  if (app.edge == ir::Edge::CallFun) {
    const ir::Node* value = app.node.get();
    bool firstZip = true, rearranged = false;
    while (true) {
      Parent p = idx.parentOf(value);
      if (p.edge != ir::Edge::CallArg) break;
      auto* call = ir::asCall(p.node.expr());
      const ir::PatternNode* consumer = unwrapAddressSpace(call->fun());
      if (!consumer) break;
      if (consumer->pattern() == ir::PatternKind::Zip || consumer->pattern() == ir::PatternKind::Tuple) {
        if (firstZip) {
          // R2: a later argument computed by a mapLcl.
          for (size_t j = static_cast<size_t>(p.index) + 1; j < call->args().size(); ++j)
            if (const ir::PatternNode* sib = mapLclOfCall(call->args()[j])) facts.laterSibling = sib;
        }
        firstZip = false;
        value = p.node.get();
        continue;
      }
      if (isSingleLayout(consumer) && firstZip) {
        rearranged = true;
        value = p.node.get();
        continue;
      }
      if (!rearranged && consumer->pattern() == ir::PatternKind::MapLcl && p.index == 0 &&
          consumer->index() == lcl->index())
        facts.elementwiseConsumer = true;
      break;
    }
  }

  // R3 and R4: follow the value up through layout patterns and function results.
  Parent p = app;
  const ir::Node* cur = outer;
  while (true) {
    if (p.edge == ir::Edge::CallFun) {
      // The value is the result of the call p.node.expr(); see where that goes.
      cur = p.node.get();
      p = idx.parentOf(cur);
      continue;
    }
    if (p.edge == ir::Edge::CallArg) {
      auto* call = ir::asCall(p.node.expr());
      const ir::PatternNode* pat = unwrapAddressSpace(call->fun());
      if (isSingleLayout(pat)) {
        cur = p.node.get();
        p = idx.parentOf(cur);
        continue;
      }
      return;  // consumed by computation, bound to a parameter, or combined with other values
    }
    if (p.edge == ir::Edge::LambdaBody) {
      // The result of a lambda: where does the lambda's result go?
      p = applicationOf(idx, p.node.fun().get(), &cur);
      continue;
    }
    if (p.edge == ir::Edge::PatternFun) {
      auto* pat = ir::asPattern(p.node.fun());
      if (!pat) return;
      if (pat->pattern() == ir::PatternKind::MapLcl) {
        facts.nestedInLocal = true;
        return;
      }
      if ((pat->pattern() == ir::PatternKind::MapSeq || pat->pattern() == ir::PatternKind::MapSeqUnroll) &&
          cur == outer) {
        // R4 through a sequential map whose whole function is this mapLcl: its iterations write
        // disjoint elements of the map's result and read nothing another iteration wrote, so
        // the value is the map's result; see where that goes.
        p = applicationOf(idx, pat, &cur);
        continue;
      }
      if (pat->pattern() == ir::PatternKind::MapWrg) {
        facts.workGroups.push_back(pat);
        p = applicationOf(idx, pat, &cur);
        continue;
      }
      return;  // the result of a sequential loop's body: the next iteration may read it
    }
    // The root: the kernel's output.
    facts.endsWorkGroup = !facts.workGroups.empty();
    return;
  }
}

}  // namespace

BarrierPlan planBarriers(const ProgramIndex& idx) {
  BarrierPlan plan;
  ir::visitPreOrder(idx.program().main, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (n.isExpr()) return true;
    auto* pat = ir::asPattern(n.fun());
    if (pat && pat->pattern() == ir::PatternKind::MapLcl && !plan.facts_.count(pat))
      analyse(idx, pat, plan.facts_[pat]);
    return true;
  });
  return plan;
}

const BarrierPlan::Facts* BarrierPlan::facts(const ir::FunNode* mapLcl) const {
  auto it = facts_.find(mapLcl);
  return it == facts_.end() ? nullptr : &it->second;
}

bool BarrierPlan::needed(const ir::FunNode* mapLcl,
                         const std::function<bool(const ir::FunNode*)>& singleIteration) const {
  const Facts* f = facts(mapLcl);
  if (!f) return true;
  if (f->nestedInLocal) return false;
  if (f->elementwiseConsumer) return false;
  if (f->endsWorkGroup) {
    bool single = true;
    for (auto* w : f->workGroups) single = single && singleIteration(w);
    if (single) return false;
  }
  if (f->laterSibling && needed(f->laterSibling, singleIteration)) return false;
  return true;
}

namespace {

void forEachStmt(const c::Block& b, const std::function<void(const c::Stmt&)>& f) {
  for (auto& s : b) {
    f(*s);
    forEachStmt(s->body, f);
  }
}

void removeIf(c::Block& b, const std::function<bool(const c::Stmt&)>& unneeded) {
  for (auto& s : b) removeIf(s->body, unneeded);
  b.erase(std::remove_if(b.begin(), b.end(), [&](const c::StmtP& s) { return unneeded(*s); }), b.end());
}

bool endsWithBarrier(const c::Stmt& s) {
  const c::Stmt* last = &s;
  while (last->kind == c::Stmt::Kind::Scope && !last->body.empty()) last = last->body.back().get();
  return last->kind == c::Stmt::Kind::Barrier;
}

}  // namespace

void eliminateBarriers(c::Block& body, const BarrierPlan& plan) {
  // Whether each mapWrg was generated without a loop: a scope of its own.
  std::unordered_map<const ir::FunNode*, bool> singleWorkGroupLoop;
  forEachStmt(body, [&](const c::Stmt& s) {
    if (s.pattern && s.pattern->pattern() == ir::PatternKind::MapWrg)
      singleWorkGroupLoop[s.pattern] = s.kind == c::Stmt::Kind::Scope;
  });
  auto single = [&](const ir::FunNode* w) {
    auto it = singleWorkGroupLoop.find(w);
    return it != singleWorkGroupLoop.end() && it->second;
  };
  removeIf(body, [&](const c::Stmt& s) {
    return s.kind == c::Stmt::Kind::Barrier && s.pattern && !plan.needed(s.pattern, single);
  });
}

void dropRepeatedBarriers(c::Block& body) {
  c::Block kept;
  for (auto& s : body) {
    dropRepeatedBarriers(s->body);
    if (s->kind == c::Stmt::Kind::Barrier && !kept.empty() && endsWithBarrier(*kept.back())) continue;
    kept.push_back(std::move(s));
  }
  body = std::move(kept);
}

void checkBarrierPlacement(const c::Block& body, const ir::Program& program) {
  std::vector<const c::Stmt*> mapLclLoops;  // enclosing, that not every work-item runs once
  std::function<void(const c::Block&)> walk = [&](const c::Block& b) {
    for (auto& s : b) {
      if (s->kind == c::Stmt::Kind::Barrier && !mapLclLoops.empty()) {
        const c::Stmt& loop = *mapLclLoops.front();
        throw LiftError(program.diagnosticAt(
            s->node, fmt::format("mapLcl{}: its result is shared inside an enclosing mapLcl{} that not every "
                                 "work-item runs exactly once, so the barrier it needs cannot be placed",
                                 s->pattern ? s->pattern->index() : -1, loop.pattern->index())));
      }
      bool loop =
          s->pattern && s->pattern->pattern() == ir::PatternKind::MapLcl && s->kind != c::Stmt::Kind::Scope;
      if (loop) mapLclLoops.push_back(s.get());
      walk(s->body);
      if (loop) mapLclLoops.pop_back();
    }
  };
  walk(body);
}

}  // namespace lift::codegen
