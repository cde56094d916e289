// The OpenCL mapping phase (see OpenCLMapping.h).
#include "rewrite/explore/OpenCLMapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "codegen/LoweringCheck.h"
#include "rewrite/RuleRegistry.h"

namespace lift::explore {

namespace {

using ir::PatternKind;
using rewrite::Location;
using rewrite::RewriteStep;

bool computesFun(const ir::Fun& f);
bool computesExpr(const ir::Expr& e) {
  auto* c = ir::asCall(e);
  if (!c) return false;
  if (computesFun(c->fun())) return true;
  for (auto& a : c->args())
    if (computesExpr(a)) return true;
  return false;
}
bool computesFun(const ir::Fun& f) {
  if (ir::asUserFun(f)) return true;
  if (auto* l = ir::asLambda(f)) return computesExpr(l->body());
  if (auto* p = ir::asPattern(f)) {
    if (p->pattern() == PatternKind::Dot || p->pattern() == PatternKind::Id) return true;
    for (auto& g : p->params().funs)
      if (computesFun(g)) return true;
  }
  return false;
}

struct MapSite {
  Location loc;
  int level = 0;  // -1: must be sequential
};

struct ReduceSite {
  Location loc;
  int level = 0;            // enclosing computing maps
  bool sequential = false;  // inside a sequential pattern's function
  bool treeShaped = false;  // reduce-to-tree can take it: no nested high-level patterns
};

struct Sites {
  std::vector<MapSite> maps;
  std::vector<ReduceSite> reduces;
  int maxLevel = -1;
};

bool nestsHighLevel(const ir::Fun& f) {
  return ir::containsPattern(
      f, {PatternKind::Map, PatternKind::Reduce, PatternKind::PartRed, PatternKind::Iterate});
}

// Whether a reduce call's operator and input suit reduce-to-tree: nothing high-level inside the
// operator, and an input that is data, or one map (fused into the tree) of data.
bool treeShaped(const ir::CallNode& call, const ir::PatternNode& reduce) {
  if (nestsHighLevel(reduce.f())) return false;
  const ir::Expr& in = call.args().back();
  if (auto* c = ir::asCall(in)) {
    auto* p = ir::asPattern(c->fun());
    if (p && p->pattern() == PatternKind::Map) {
      if (nestsHighLevel(p->f())) return false;
      return !computesExpr(c->args().back());
    }
  }
  return !computesExpr(in);
}

// Walks the occurrences below `n` (at `loc`), numbering computing maps by parallel level.
void walk(const ir::NodeRef& n, const Location& loc, int level, bool sequential, Sites& out) {
  std::vector<ir::NodeRef> kids = rewrite::locationChildren(n);
  if (n.isExpr()) {
    if (auto* call = ir::asCall(n.expr())) {
      auto* p = ir::asPattern(call->fun());
      if (p && p->pattern() == PatternKind::Map && computesFun(p->f())) {
        out.maps.push_back({loc, sequential ? -1 : level});
        if (!sequential) out.maxLevel = std::max(out.maxLevel, level);
        // The map's function runs one level deeper; its input at this level.
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), i == 0 ? level + 1 : level, sequential, out);
        return;
      }
      if (p && (p->pattern() == PatternKind::Reduce || p->pattern() == PatternKind::ReduceSeq ||
                p->pattern() == PatternKind::Iterate || p->pattern() == PatternKind::PartRed)) {
        if (p->pattern() == PatternKind::Reduce)
          out.reduces.push_back({loc, level, sequential, treeShaped(*call, *p)});
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), level, sequential || i == 0, out);
        return;
      }
      if (p && (p->pattern() == PatternKind::MapSeq || p->pattern() == PatternKind::MapSeqUnroll ||
                p->pattern() == PatternKind::ReduceSeqUnroll || p->pattern() == PatternKind::MapVec)) {
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), level, sequential || i == 0, out);
        return;
      }
    }
  }
  for (size_t i = 0; i < kids.size(); ++i)
    walk(kids[i], loc.child(static_cast<int>(i)), level, sequential, out);
}

Sites findSites(const rewrite::TypedProgram& p) {
  Sites s;
  walk(ir::Fun(p.main()), Location(), 0, false, s);
  return s;
}

struct Level {
  PatternKind kind = PatternKind::MapSeq;
  int dim = 0;
};

struct Scheme {
  std::string name;
  std::vector<Level> levels;  // level i -> what; deeper levels sequential
  bool workGroups = false;
};

std::vector<Scheme> schemes(int maxLevel, const MappingOptions& o) {
  using K = PatternKind;
  std::vector<Scheme> out;
  if (maxLevel < 0) return out;
  if (o.global) {
    if (maxLevel >= 1) {
      out.push_back({"glb-1-0", {{K::MapGlb, 1}, {K::MapGlb, 0}}, false});
      out.push_back({"glb-0-1", {{K::MapGlb, 0}, {K::MapGlb, 1}}, false});
    }
    out.push_back({"glb-0", {{K::MapGlb, 0}}, false});
  }
  if (o.workGroups) {
    if (maxLevel >= 3) {
      out.push_back(
          {"wrg-1-0-lcl-1-0", {{K::MapWrg, 1}, {K::MapWrg, 0}, {K::MapLcl, 1}, {K::MapLcl, 0}}, true});
      out.push_back(
          {"wrg-0-1-lcl-0-1", {{K::MapWrg, 0}, {K::MapWrg, 1}, {K::MapLcl, 0}, {K::MapLcl, 1}}, true});
    }
    if (maxLevel >= 2) {
      out.push_back({"wrg-1-0-lcl-0", {{K::MapWrg, 1}, {K::MapWrg, 0}, {K::MapLcl, 0}}, true});
      out.push_back({"wrg-0-1-lcl-0", {{K::MapWrg, 0}, {K::MapWrg, 1}, {K::MapLcl, 0}}, true});
    }
    if (maxLevel >= 1) out.push_back({"wrg-0-lcl-0", {{K::MapWrg, 0}, {K::MapLcl, 0}}, true});
  }
  return out;
}

const char* ruleFor(PatternKind k) {
  switch (k) {
    case PatternKind::MapGlb:
      return "map-to-glb";
    case PatternKind::MapWrg:
      return "map-to-wrg";
    case PatternKind::MapLcl:
      return "map-to-lcl";
    default:
      return "map-to-seq";
  }
}

}  // namespace

std::vector<int> computingMapLevels(const rewrite::TypedProgram& p) {
  std::vector<int> out;
  for (auto& m : findSites(p).maps) out.push_back(m.level);
  return out;
}

namespace {

// The reductions a work-group scheme can give to reduce-to-tree: those directly inside its
// mapWrg level (beside the maps that become mapLcl), not in sequential code. Only schemes with
// one mapWrg level: under a 2-D grid of work-groups a reduction is matmul-like (each input row
// is reduced by many work-groups), where a tree per result wastes the work-group.
std::vector<const ReduceSite*> treeSites(const Sites& sites, const Scheme& scheme, int* dim) {
  std::vector<const ReduceSite*> out;
  if (!scheme.workGroups) return out;
  int wrg = 0;
  while (wrg < static_cast<int>(scheme.levels.size()) &&
         scheme.levels[static_cast<size_t>(wrg)].kind == PatternKind::MapWrg)
    ++wrg;
  if (wrg != 1) return out;
  *dim = wrg < static_cast<int>(scheme.levels.size()) ? scheme.levels[static_cast<size_t>(wrg)].dim
                                                      : scheme.levels[static_cast<size_t>(wrg - 1)].dim;
  for (const ReduceSite& r : sites.reduces)
    if (r.level == wrg && !r.sequential && r.treeShaped) out.push_back(&r);
  return out;
}

bool under(const Location& loc, const Location& prefix) { return loc != prefix && prefix.isPrefixOf(loc); }

// Work-group sizes of the tree, preferred first; those with which the whole lowering applies.
const std::vector<int64_t> kTreeThreads = {256, 128, 512, 64, 1024, 32};

// The lowering of a scheme, the reductions in `trees` given to reduce-to-tree (its work-item
// count "$threads"; the maps inside them are the tree's): steps in pre-order of locations,
// outer maps first (a mapLcl needs its mapWrg).
OpenCLMapping lowering(const Sites& sites, const Scheme& scheme, const std::vector<const ReduceSite*>& trees,
                       int treeDim) {
  const rewrite::RuleRegistry& reg = rewrite::RuleRegistry::instance();
  OpenCLMapping m;
  m.name = trees.empty() ? scheme.name : scheme.name + "-tree";
  m.workGroups = scheme.workGroups;
  auto absorbed = [&](const Location& loc) {
    for (const ReduceSite* r : trees)
      if (under(loc, r->loc)) return true;
    return false;
  };
  std::vector<std::pair<Location, RewriteStep>> steps;
  for (const MapSite& s : sites.maps) {
    if (absorbed(s.loc)) continue;
    Level what;
    if (s.level >= 0 && s.level < static_cast<int>(scheme.levels.size())) what = scheme.levels[s.level];
    RewriteStep step{&reg.get(ruleFor(what.kind)), s.loc, {}};
    if (what.kind != PatternKind::MapSeq) step.params.set("dim", std::to_string(what.dim));
    if (what.kind == PatternKind::MapGlb &&
        std::find(m.globalDims.begin(), m.globalDims.end(), what.dim) == m.globalDims.end())
      m.globalDims.push_back(what.dim);
    steps.push_back({s.loc, step});
  }
  for (const ReduceSite& r : sites.reduces) {
    if (absorbed(r.loc)) continue;
    bool toTree = std::find(trees.begin(), trees.end(), &r) != trees.end();
    RewriteStep step{&reg.get(toTree ? "reduce-to-tree" : "reduce-to-seq"), r.loc, {}};
    if (toTree) {
      step.params.set("threads", "$threads");
      step.params.set("dim", std::to_string(treeDim));
    }
    steps.push_back({r.loc, step});
  }
  std::stable_sort(steps.begin(), steps.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [loc, step] : steps) m.steps.push_back(step);
  std::sort(m.globalDims.begin(), m.globalDims.end());
  return m;
}

// Whether every step applies to p in turn, a tree's "$threads" set to `threads`, and the code
// generator's lowering check accepts the result: a mapping that leaves a high-level pattern
// (a partRed, which no mapping lowers; a map the walk does not reach, such as the inner map of a
// point-free map(map(f))) or makes a mapGlb or mapWrg whose result is consumed in the same
// kernel is refused by the code generator whatever the values, so it is dropped here.
bool applies(const rewrite::TypedProgram& p, const std::vector<RewriteStep>& steps, int64_t threads) {
  std::optional<rewrite::TypedProgram> cur = p;
  for (const RewriteStep& step : steps) {
    RewriteStep concrete = step;
    if (step.params.find("threads")) concrete.params.set("threads", std::to_string(threads));
    rewrite::RewriteResult r = rewrite::applyRewrite(*cur, concrete);
    if (!r) return false;
    cur = std::move(r.program);
  }
  try {
    codegen::checkLowered(codegen::ProgramIndex(cur->program));
  } catch (const codegen::LoweringError&) {
    return false;
  }
  return true;
}

}  // namespace

std::vector<OpenCLMapping> openclMappings(const rewrite::TypedProgram& p, const MappingOptions& options) {
  Sites sites = findSites(p);
  std::vector<OpenCLMapping> out;
  if (sites.maps.empty() && sites.reduces.empty()) return out;
  for (const Scheme& scheme : schemes(sites.maxLevel, options)) {
    // Every level the scheme names must be used (else it is the same as a shorter scheme).
    bool usesAll = true;
    for (size_t l = 0; l < scheme.levels.size(); ++l) {
      bool used = false;
      for (const MapSite& s : sites.maps) used = used || s.level == static_cast<int>(l);
      usesAll = usesAll && used;
    }
    if (!usesAll) continue;
    OpenCLMapping plain = lowering(sites, scheme, {}, 0);
    if (applies(p, plain.steps, 0)) out.push_back(std::move(plain));
    int treeDim = 0;
    std::vector<const ReduceSite*> trees = treeSites(sites, scheme, &treeDim);
    if (trees.empty()) continue;
    OpenCLMapping tree = lowering(sites, scheme, trees, treeDim);
    std::vector<int64_t> good;
    for (int64_t threads : kTreeThreads)
      if (applies(p, tree.steps, threads)) good.push_back(threads);
    if (good.empty()) continue;
    tree.tunables.push_back({"threads", "reduce-to-tree work-items", good, false});
    out.push_back(std::move(tree));
  }
  return out;
}

}  // namespace lift::explore
