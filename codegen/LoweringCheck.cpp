// The checks of LoweringCheck.h.
#include "codegen/LoweringCheck.h"

#include <fmt/format.h>

namespace lift::codegen {

bool isViewExpr(const ir::Expr& e) {
  auto* c = ir::asCall(e);
  if (!c) return true;
  if (!isViewFunction(c->fun())) return false;
  for (auto& a : c->args())
    if (!isViewExpr(a)) return false;
  return true;
}

bool isViewFunction(const ir::Fun& f) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda:
      return isViewExpr(ir::asLambda(f)->body());
    case ir::FunNode::Kind::UserFun:
      return false;
    case ir::FunNode::Kind::Pattern: {
      auto* p = ir::asPattern(f);
      if (ir::isDataLayout(p->pattern())) return true;
      if (ir::isArrayGenerator(p->pattern())) return true;  // issue 16: computed where read
      using K = ir::PatternKind;
      switch (p->pattern()) {
        case K::Map:
        case K::MapSeq:
        case K::MapSeqUnroll:
          return isViewFunction(p->f());
        default:
          return false;
      }
    }
  }
  return false;
}

bool spreadsElements(const ir::PatternNode& parallelMap) {
  return ir::containsPattern(parallelMap.f(), {ir::PatternKind::MapGlb, ir::PatternKind::MapWrg});
}

namespace {

using Parent = ProgramIndex::Parent;

std::string label(const ir::PatternNode& p) {
  std::string s(ir::patternName(p.pattern()));
  if (ir::hasMapDimension(p.pattern())) s += std::to_string(p.index());
  return s;
}

[[noreturn]] void fail(const ProgramIndex& idx, ir::NodeId at, const std::string& msg) {
  throw LoweringError(idx.program().diagnosticAt(at, msg));
}

// The id of the call applying a function node (through wrappers), for error locations.
ir::NodeId siteOf(const ProgramIndex& idx, const ir::FunNode* f) {
  const ir::Node* cur = f;
  ir::NodeId id = f->id();
  while (true) {
    Parent p = idx.parentOf(cur);
    if (p.edge == ir::Edge::CallFun) return p.node.id();
    if (p.edge == ir::Edge::PatternFun) {
      auto* pat = ir::asPattern(p.node.fun());
      if (pat && ir::isAddressSpace(pat->pattern())) {
        cur = p.node.get();
        continue;
      }
    }
    return id;
  }
}

bool insideWorkGroup(const ProgramIndex& idx, const ir::Node* node) {
  const ir::Node* cur = node;
  while (true) {
    Parent p = idx.parentOf(cur);
    if (p.edge == ir::Edge::Root) return false;
    if (p.edge == ir::Edge::PatternFun) {
      auto* pat = ir::asPattern(p.node.fun());
      if (pat && ir::isWorkGroupMap(pat->pattern())) return true;
      if (pat && pat->pattern() == ir::PatternKind::MapGlb) return false;
    }
    cur = p.node.get();
  }
}

// Whether a mapLcl is nested in another mapLcl (in the same work-group).
bool nestedInMapLcl(const ProgramIndex& idx, const ir::Node* node) {
  const ir::Node* cur = node;
  while (true) {
    Parent p = idx.parentOf(cur);
    if (p.edge == ir::Edge::Root) return false;
    if (p.edge == ir::Edge::PatternFun) {
      auto* pat = ir::asPattern(p.node.fun());
      if (pat && pat->pattern() == ir::PatternKind::MapLcl) return true;
      if (pat && (pat->pattern() == ir::PatternKind::MapWrg || pat->pattern() == ir::PatternKind::MapGlb))
        return false;
    }
    cur = p.node.get();
  }
}

// Follows the result of a mapGlb/mapWrg, or of a mapLcl nested in another mapLcl; fails where it
// is consumed in a way that needs synchronisation across work-groups (or, nested, across the
// work-items or work-groups of another dimension), instead of becoming the kernel's output or an
// enclosing parallel map's result. A nested mapLcl spreads one iteration of the enclosing
// mapLcl over the work-items of its dimension, each holding its own elements of the result; a
// consumer that reads the whole result (a reduceSeq, a mapSeq, a user function) would need a
// barrier inside the enclosing mapLcl's loop, which not every work-item may enter the same
// number of times, so only element-wise consumers, the enclosing map's result and an
// accumulator (a reduceSeq's initial value or function) may take it.
void checkKernelLevelResult(const ProgramIndex& idx, const ir::PatternNode* par) {
  bool local = par->pattern() == ir::PatternKind::MapLcl;
  auto climb = [&](const ir::Node* f, const ir::Node** out) {
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
      *out = cur;
      return p;
    }
  };
  const ir::Node* cur = nullptr;
  Parent p = climb(par, &cur);
  bool zipOnly = true;
  while (true) {
    switch (p.edge) {
      case ir::Edge::Root:
        return;
      case ir::Edge::CallFun:
        cur = p.node.get();
        p = idx.parentOf(cur);
        continue;
      case ir::Edge::LambdaBody:
        p = climb(p.node.get(), &cur);
        continue;
      case ir::Edge::PatternFun: {
        auto* pat = ir::asPattern(p.node.fun());
        if (pat &&
            (pat->pattern() == ir::PatternKind::MapSeq || pat->pattern() == ir::PatternKind::MapSeqUnroll ||
             pat->pattern() == ir::PatternKind::Map)) {
          p = climb(pat, &cur);
          continue;
        }
        // The result of an enclosing parallel map's function: written to that map's result.
        if (pat && (ir::isWorkGroupMap(pat->pattern()) || pat->pattern() == ir::PatternKind::MapGlb)) return;
        // A nested mapLcl: the enclosing mapLcl's result, or a sequential fold's accumulator, split
        // over the work-items like it (TemporaryStorage).
        if (local) return;
        fail(idx, siteOf(idx, par),
             fmt::format(
                 "{}: its result feeds the next iteration of a {} in the same kernel, which would need "
                 "synchronisation across work-groups; OpenCL has none inside a kernel",
                 label(*par), pat ? std::string(ir::patternName(pat->pattern())) : "function"));
      }
      case ir::Edge::CallArg: {
        auto* call = ir::asCall(p.node.expr());
        const ir::PatternNode* consumer = unwrapAddressSpace(call->fun());
        if (consumer && (isViewFunction(call->fun()) || consumer->pattern() == ir::PatternKind::Id)) {
          if (consumer->pattern() != ir::PatternKind::Zip) zipOnly = false;
          cur = p.node.get();
          p = idx.parentOf(cur);
          continue;
        }
        // Element-wise: the same work-item (mapGlb) or work-group (mapWrg, which then waits at a
        // barrier) computes and consumes element i, unless a parallel map across work-groups in
        // the producer's function spreads element i over the work-items or work-groups of
        // another dimension (codegen/KernelSplit.h cuts there).
        if (consumer && consumer->pattern() == par->pattern() && consumer->index() == par->index() &&
            zipOnly && p.index == 0) {
          if (!local && spreadsElements(*par))
            fail(idx, siteOf(idx, par),
                 fmt::format(
                     "{}: each of its elements is computed by the work-items of a nested parallel map "
                     "of another dimension, and {} reads whole elements in the same kernel, which would "
                     "need synchronisation across work-groups; OpenCL has none inside a kernel",
                     label(*par), label(*consumer)));
          return;
        }
        if (local && consumer &&
            (consumer->pattern() == ir::PatternKind::ReduceSeq ||
             consumer->pattern() == ir::PatternKind::ScanSeq) &&
            p.index == 0)
          return;  // the initial value of an accumulator split over the work-items
        if (local)
          fail(idx, siteOf(idx, par),
               fmt::format(
                   "{} nested in another mapLcl: its result is read whole by {} in the same iteration "
                   "of the enclosing mapLcl, but each work-item holds only its own elements; that would "
                   "need a barrier inside the enclosing mapLcl's loop; make one of the two maps sequential "
                   "(mapSeq)",
                   label(*par), consumer ? label(*consumer) : std::string("a function")));
        fail(idx, siteOf(idx, par),
             fmt::format("{}: its result is consumed inside the same kernel by {}, which would need "
                         "synchronisation across work-groups; only the kernel's output (or an element-wise "
                         "map of the same kind and dimension) may consume it",
                         label(*par), consumer ? label(*consumer) : std::string("a function")));
      }
      default:
        return;
    }
  }
}

}  // namespace

void checkLowered(const ProgramIndex& idx) {
  ir::visitPreOrder(idx.program().main, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (n.isExpr()) return true;
    auto* pat = ir::asPattern(n.fun());
    if (!pat) return true;
    using K = ir::PatternKind;
    switch (pat->pattern()) {
      case K::Reduce:
      case K::PartRed:
        fail(
            idx, siteOf(idx, pat),
            fmt::format("high-level pattern {} must be lowered before code generation (to reduceSeq inside a "
                        "parallel map, for instance)",
                        ir::patternName(pat->pattern())));
      case K::Scan:
        fail(idx, siteOf(idx, pat),
             "high-level pattern scan must be lowered before code generation (to scanSeq, or split into "
             "chunks scanned in parallel: see the rule scan-split-chunks)");
      case K::MdHom:
        fail(idx, siteOf(idx, pat),
             "md_hom is not yet lowered to OpenCL; write it as the equivalent nest of map and reduce (see "
             "docs/LANGUAGE.md, md_hom) to compile it");
      case K::PairVV:
      case K::PairMV:
      case K::PairMM:
        fail(idx, siteOf(idx, pat),
             fmt::format("{} is not yet lowered to OpenCL; write it with zip, map and transpose (see "
                         "docs/LANGUAGE.md, md_hom) to compile it",
                         ir::patternName(pat->pattern())));
      case K::Map:
        if (!isViewFunction(pat->f()))
          fail(idx, siteOf(idx, pat),
               "high-level pattern map must be lowered before code generation (to mapGlb, mapWrg, mapLcl or "
               "mapSeq); only a map that merely rearranges data may stay");
        break;
      case K::ToLocal:
        if (!insideWorkGroup(idx, pat))
          fail(idx, siteOf(idx, pat),
               "toLocal outside a work-group: local memory is shared by the work-items of a mapWrg, so "
               "toLocal "
               "must be nested inside a mapWrg");
        break;
      case K::MapGlb:
      case K::MapWrg:
      case K::MapAtomWrg:
        checkKernelLevelResult(idx, pat);
        break;
      case K::MapLcl:
        if (nestedInMapLcl(idx, pat)) checkKernelLevelResult(idx, pat);
        break;
      // issue 17 (lift17p): loops that end where the data says cannot hold parallel maps
      case K::BSearch:
      case K::LSearch:
      case K::ReduceWhileSeq:
      case K::FilterSeq:
      case K::InsertionSort:
        for (auto& f : pat->params().funs)
          if (ir::containsPattern(f, {K::MapGlb, K::MapWrg, K::MapLcl}))
            fail(idx, siteOf(idx, pat),
                 fmt::format(
                     "{}: its functions must be sequential (no mapGlb, mapWrg or mapLcl): its loop ends "
                     "where the data says, and work-items that leave it early would miss the others' "
                     "barriers",
                     ir::patternName(pat->pattern())));
        break;
      default:
        break;
    }
    return true;
  });
}

}  // namespace lift::codegen
