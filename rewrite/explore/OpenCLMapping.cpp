// The OpenCL mapping phase (see OpenCLMapping.h).
#include "rewrite/explore/OpenCLMapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "codegen/Compiler.h"
#include "codegen/KernelSplit.h"
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
    switch (p->pattern()) {
      case PatternKind::Dot:
      case PatternKind::Fma:
      case PatternKind::Id:
      case PatternKind::At:  // reads its index into a variable: code, not a view
      case PatternKind::CheckedAt:
      case PatternKind::Filter:
      case PatternKind::TransposeW:
      case PatternKind::MapSeqSlide:  // copies into its window (issue 16)
      case PatternKind::BSearch:      // issue 17 (lift17p): loops of their own
      case PatternKind::LSearch:
      case PatternKind::ReduceWhileSeq:
      case PatternKind::FilterSeq:
      case PatternKind::InsertionSort:
        return true;
      default:
        break;
    }
    for (auto& g : p->params().funs)
      if (computesFun(g)) return true;
  }
  return false;
}

struct MapSite {
  Location loc;
  int level = 0;  // -1: must be sequential
  // The level of the innermost reduction whose operator the map is in, when that reduction may
  // be shared by a work-group (-1: none): see sharedLevel.
  int sharedAt = -1;
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
  std::vector<Location> scans;  // high-level scans, each lowered to a sequential loop
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

// Walks the occurrences below `n` (at `loc`), numbering computing maps by parallel level. The
// operator of a reduction that is not in sequential code may be run by a whole work-group (the
// loop over K tiles of tile-reduction, whose steps update a tile with the work-group's threads):
// the maps in it are numbered on from the reduction's level and marked with it (`sharedAt`).
void walk(const ir::NodeRef& n, const Location& loc, int level, bool sequential, int sharedAt, Sites& out) {
  std::vector<ir::NodeRef> kids = rewrite::locationChildren(n);
  if (n.isExpr()) {
    if (auto* call = ir::asCall(n.expr())) {
      auto* p = ir::asPattern(call->fun());
      if (p && p->pattern() == PatternKind::Map && computesFun(p->f())) {
        out.maps.push_back({loc, sequential ? -1 : level, sequential ? -1 : sharedAt});
        if (!sequential) out.maxLevel = std::max(out.maxLevel, level);
        // The map's function runs one level deeper; its input at this level.
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), i == 0 ? level + 1 : level, sequential, sharedAt,
               out);
        return;
      }
      if (p && p->pattern() == PatternKind::Reduce && !sequential) {
        out.reduces.push_back({loc, level, sequential, treeShaped(*call, *p)});
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), level, false, i == 0 ? level : sharedAt, out);
        return;
      }
      if (p && (p->pattern() == PatternKind::Reduce || p->pattern() == PatternKind::ReduceSeq ||
                p->pattern() == PatternKind::Iterate || p->pattern() == PatternKind::PartRed ||
                ir::isScanLike(p->pattern()))) {
        if (p->pattern() == PatternKind::Scan) out.scans.push_back(loc);
        if (p->pattern() == PatternKind::Reduce)
          out.reduces.push_back({loc, level, sequential, treeShaped(*call, *p)});
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), level, sequential || i == 0, sharedAt, out);
        return;
      }
      if (p && (p->pattern() == PatternKind::MapSeq || p->pattern() == PatternKind::MapSeqUnroll ||
                p->pattern() == PatternKind::ReduceSeqUnroll || p->pattern() == PatternKind::MapVec ||
                p->pattern() == PatternKind::MapSeqSlide)) {
        for (size_t i = 0; i < kids.size(); ++i)
          walk(kids[i], loc.child(static_cast<int>(i)), level, sequential || i == 0, sharedAt, out);
        return;
      }
    }
  }
  for (size_t i = 0; i < kids.size(); ++i)
    walk(kids[i], loc.child(static_cast<int>(i)), level, sequential, sharedAt, out);
}

Sites findSites(const rewrite::TypedProgram& p) {
  Sites s;
  walk(ir::Fun(p.main()), Location(), 0, false, -1, s);
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

// The number of mapWrg levels a scheme starts with (0 for a global scheme).
int wrgLevels(const Scheme& scheme) {
  int w = 0;
  while (w < static_cast<int>(scheme.levels.size()) &&
         scheme.levels[static_cast<size_t>(w)].kind == PatternKind::MapWrg)
    ++w;
  return w;
}

// The level of the scheme a map gets, or -1 (sequential). A map in the operator of a reduction
// is parallel only when a work-group shares that reduction: the reduction sits right below the
// scheme's mapWrg levels, so its maps take the mapLcl levels (one loop of the work-group, its
// steps spread over the work-items); otherwise it stays sequential.
int schemeLevel(const MapSite& s, const Scheme& scheme) {
  if (s.level < 0) return -1;
  if (s.sharedAt >= 0 && !(scheme.workGroups && s.sharedAt == wrgLevels(scheme))) return -1;
  return s.level;
}

// The reductions a work-group scheme can give to reduce-to-tree: those directly inside its
// mapWrg level (beside the maps that become mapLcl), not in sequential code. Only schemes with
// one mapWrg level: under a 2-D grid of work-groups a reduction is matmul-like (each input row
// is reduced by many work-groups), where a tree per result wastes the work-group.
std::vector<const ReduceSite*> treeSites(const Sites& sites, const Scheme& scheme, int* dim) {
  std::vector<const ReduceSite*> out;
  if (!scheme.workGroups) return out;
  int wrg = wrgLevels(scheme);
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
    int level = schemeLevel(s, scheme);
    if (level >= 0 && level < static_cast<int>(scheme.levels.size())) what = scheme.levels[level];
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
  for (const Location& loc : sites.scans)
    if (!absorbed(loc)) steps.push_back({loc, RewriteStep{&reg.get("scan-to-seq"), loc, {}}});
  std::stable_sort(steps.begin(), steps.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [loc, step] : steps) m.steps.push_back(step);
  std::sort(m.globalDims.begin(), m.globalDims.end());
  return m;
}

// Whether the code generator's lowering check accepts p: a mapping that leaves a high-level
// pattern (a partRed, which no mapping lowers; a map the walk does not reach, such as the inner
// map of a point-free map(map(f))) or makes a mapGlb or mapWrg whose result is consumed in the
// same kernel is refused by the code generator whatever the values, so it is dropped here. A
// program the code generator splits into kernels where a reduction or a scan of a mapGlb's or
// mapWrg's results at the top level is finished by a later kernel (codegen/KernelSplit.h; a
// chunked scan's three kernels) passes when
// every kernel does; other splits (a map's results stored whole for the next parallel map, which
// fusion avoids) are dropped as before.
bool passesLoweringCheck(const rewrite::TypedProgram& p) {
  try {
    codegen::ProgramSplit split = codegen::splitIntoKernels(p.program);
    for (bool reduced : split.reducedTemporaries)
      if (!reduced) return false;
    for (const codegen::ProgramPart& part : split.parts)
      codegen::checkLowered(codegen::ProgramIndex(part.program));
  } catch (const LiftError&) {
    return false;
  }
  return true;
}

// p lowered by the steps, each parameter "$name" (a tunable: a tree's "$threads") set to
// values[name]: when every step applies in turn and the result passes the lowering check;
// nullopt otherwise.
std::optional<rewrite::TypedProgram> lowered(const rewrite::TypedProgram& p,
                                             const std::vector<RewriteStep>& steps,
                                             const Assignment& values) {
  std::optional<rewrite::TypedProgram> cur = p;
  for (const RewriteStep& step : steps) {
    RewriteStep concrete = step;
    for (auto& [name, value] : step.params.values())
      if (value.size() > 1 && value[0] == '$') {
        auto it = values.find(value.substr(1));
        if (it == values.end()) return std::nullopt;
        concrete.params.set(name, std::to_string(it->second));
      }
    rewrite::RewriteResult r = rewrite::applyRewrite(*cur, concrete);
    if (!r) return std::nullopt;
    cur = std::move(r.program);
  }
  if (!passesLoweringCheck(*cur)) return std::nullopt;
  return cur;
}

// ----- copies into private and local memory (Lift's MemoryMappingRewrite) -----------------------

// Applies rewrite steps one at a time, keeping the program after each, so that later steps can
// be placed by looking at it. Stops at the first step that does not apply.
struct StepApplier {
  rewrite::TypedProgram program;
  std::vector<RewriteStep> steps;
  bool ok = true;

  void apply(const char* rule, const Location& loc, const char* param = nullptr, int value = 0) {
    if (!ok) return;
    RewriteStep step{&rewrite::RuleRegistry::instance().get(rule), loc, {}};
    if (param) step.params.set(param, std::to_string(value));
    rewrite::RewriteResult r = rewrite::applyRewrite(program, step);
    if (!r) {
      ok = false;
      return;
    }
    program = std::move(*r.program);
    steps.push_back(std::move(step));
  }
  // The call at loc and its pattern (null when loc is not a call of a pattern), valid until the
  // next apply.
  const ir::PatternNode* patternAt(const Location& loc, const ir::CallNode** call = nullptr) const {
    rewrite::Resolved r = rewrite::resolve(program.program.main, loc);
    auto* c = r && r.node.isExpr() ? ir::asCall(r.node.expr()) : nullptr;
    if (call) *call = c;
    return c ? ir::asPattern(c->fun()) : nullptr;
  }
};

// Lowers the deep copy (implement-id-deep) of an array at `loc`: its outer maps mapLcl in the
// dimensions `dims`, the others mapSeq, the whole written to memory by `memoryRule`.
void lowerCopy(StepApplier& a, Location loc, const std::vector<int>& dims, const char* memoryRule) {
  Location top = loc;
  for (size_t level = 0;; ++level) {
    const ir::PatternNode* map = a.patternAt(loc);
    if (!map || map->pattern() != PatternKind::Map) break;
    bool innermost = !ir::asLambda(map->f());  // map(id); `map` dies with the rewrite below
    if (level < dims.size())
      a.apply("map-to-lcl", loc, "dim", dims[level]);
    else
      a.apply("map-to-seq", loc);
    if (innermost) break;
    loc = loc.child(0).child(0).child(0);
  }
  a.apply(memoryRule, top);
}

// How many of the kernel's reads of its inputs are coalesced: the index moves by one element
// from one work-item to the next in local dimension 0. -1 when the program does not compile.
int coalescedReads(const rewrite::TypedProgram& p) {
  codegen::CompiledKernel k;
  try {
    k = codegen::compileKernel(p.program);
  } catch (const LiftError&) {
    return -1;
  }
  int n = 0;
  for (const codegen::IndexEntry& e : k.indices) {
    bool input = std::any_of(k.params.begin(), k.params.end(), [&](const codegen::KernelParam& q) {
      return q.name == e.buffer && q.kind == codegen::KernelParam::Kind::Input;
    });
    if (e.write || !input || !e.simplifiedExpr) continue;
    for (arith::Expr v : arith::variables(e.simplifiedExpr)) {
      if (arith::varName(v) != "l_id") continue;
      arith::Expr next = arith::substitute(e.simplifiedExpr, {{v, v + 1}});
      if (arith::simplify(next - e.simplifiedExpr) == arith::cst(1)) ++n;
    }
  }
  return n;
}

// The reduction a work-group scheme shares (the loop over K tiles, its operator's maps made
// mapLcl), or null.
const ReduceSite* sharedReduction(const Sites& sites, const Scheme& scheme) {
  if (!scheme.workGroups) return nullptr;
  int w = wrgLevels(scheme);
  for (const ReduceSite& r : sites.reduces) {
    if (r.sequential || r.level != w) continue;
    for (const MapSite& m : sites.maps)
      if (m.sharedAt == w && under(m.loc, r.loc) && schemeLevel(m, scheme) >= 0) return &r;
  }
  return nullptr;
}

// The copy of the accumulator (the result tile) the shared reduction at `reduce` starts from,
// into `accMemory` ("to-private" or "to-local"), and the copy of its result to global memory,
// each spread over the work-items like the reduction's own maps.
StepApplier withResultCopies(const rewrite::TypedProgram& start, Location reduce,
                             const std::vector<int>& dims, const char* accMemory) {
  StepApplier a{start, {}};
  Location result = reduce.parent();
  a.apply("add-id", reduce.child(1));
  a.apply("implement-id-deep", reduce.child(1));
  lowerCopy(a, reduce.child(1), dims, accMemory);
  a.apply("add-id", result);
  a.apply("implement-id-deep", result);
  lowerCopy(a, result, dims, "to-global");
  a.ok = a.ok && passesLoweringCheck(a.program);
  return a;
}

// `a` (withResultCopies applied) with the element each step of the reduction at `reduce` reads
// (the pair of tiles) copied into local memory, each component in the orientation whose reads of
// global memory are coalesced; nullopt when the steps do not apply.
std::optional<StepApplier> withTileCopies(StepApplier a, Location reduce, const std::vector<int>& dims) {
  a.apply("add-id-for-current-value-in-reduce", reduce);
  Location element = reduce.child(0).child(0).child(0).child(1);
  a.apply("implement-id-deep", element);
  if (!a.ok) return std::nullopt;
  std::vector<Location> parts;
  const ir::CallNode* call = nullptr;
  const ir::PatternNode* tuple = a.patternAt(element, &call);
  if (tuple && tuple->pattern() == PatternKind::Tuple) {
    for (size_t i = 0; i < call->args().size(); ++i) parts.push_back(element.child(static_cast<int>(i) + 1));
  } else {
    parts.push_back(element);
  }
  // Each component as it is or transposed (map-map-transpose: the copy walks the array's
  // columns): the combination with the most coalesced reads, the first of equals.
  std::optional<StepApplier> best;
  int bestScore = -1;
  for (unsigned mask = 0; mask < (1u << parts.size()) && parts.size() <= 3; ++mask) {
    StepApplier b = a;
    for (size_t i = 0; i < parts.size(); ++i) {
      Location at = parts[i];
      if (mask & (1u << i)) {
        b.apply("map-map-transpose", at);
        at = at.child(1);
      }
      lowerCopy(b, at, dims, "to-local");
    }
    if (!b.ok || !passesLoweringCheck(b.program)) continue;
    // (-1 when these values do not compile, e.g. tiles too large for local memory: the first
    // orientation is kept then, other values of the template may fit.)
    int score = coalescedReads(b.program);
    if (score > bestScore || !best) {
      bestScore = score;
      best = std::move(b);
    }
  }
  return best;
}

// The variants of a work-group mapping (`plain`, which lowered the program to `start`) with
// copies of a shared reduction's data: "-private" keeps the accumulator (the result tile) in
// private memory, written to global memory once at the end; "-local" also copies the element
// each step reads (the pair of tiles) into local memory. With options.localResultTile (CPU
// devices), "-local-result" keeps the result tile in local memory too and runs with work-groups
// of one work-item (OpenCLMapping::singleWorkItemDims): the mapLcl become that work-item's
// loops over the tile's blocks, each block's accumulators in registers for one K tile, the tiles
// of A, B and C in the core's cache (how BLAS libraries block for a CPU). The copies are spread
// over the work-items like the reduction's own maps. Variants whose steps do not apply or that
// the lowering check refuses are left out.
std::vector<OpenCLMapping> copyVariants(const rewrite::TypedProgram& start, const OpenCLMapping& plain,
                                        const Sites& sites, const Scheme& scheme,
                                        const MappingOptions& options) {
  std::vector<OpenCLMapping> out;
  const ReduceSite* shared = sharedReduction(sites, scheme);
  if (!shared || shared->loc.isMain()) return out;
  std::vector<int> dims;
  for (size_t l = static_cast<size_t>(wrgLevels(scheme)); l < scheme.levels.size(); ++l)
    dims.push_back(scheme.levels[l].dim);

  Location reduce = shared->loc, result = reduce.parent();
  {
    StepApplier probe{start, {}};
    const ir::PatternNode* join = probe.patternAt(result);
    if (!join || join->pattern() != PatternKind::Join) return out;
  }
  auto variant = [&](const StepApplier& with, const char* suffix) {
    OpenCLMapping m = plain;
    m.name += suffix;
    m.steps.insert(m.steps.end(), with.steps.begin(), with.steps.end());
    return m;
  };
  // After the result copies, the loop over K tiles sits in the join's argument of the copy to global memory.
  Location loop = result.child(1).child(1);
  StepApplier a = withResultCopies(start, reduce, dims, "to-private");
  if (!a.ok) return out;
  out.push_back(variant(a, "-private"));
  if (std::optional<StepApplier> tiles = withTileCopies(a, loop, dims))
    out.push_back(variant(*tiles, "-local"));
  if (options.localResultTile) {
    StepApplier inLocal = withResultCopies(start, reduce, dims, "to-local");
    std::optional<StepApplier> tiles = inLocal.ok ? withTileCopies(inLocal, loop, dims) : std::nullopt;
    if (tiles) {
      OpenCLMapping m = variant(*tiles, "-local-result");
      for (size_t l = 0; l < static_cast<size_t>(wrgLevels(scheme)); ++l)
        m.singleWorkItemDims.push_back(scheme.levels[l].dim);
      std::sort(m.singleWorkItemDims.begin(), m.singleWorkItemDims.end());
      out.push_back(std::move(m));
    }
  }
  return out;
}

// ----- the combining kernel's work-group ---------------------------------------------------------

// The reduction that combines the results of a parallel map in a kernel of its own
// (codegen/KernelSplit.h): the program's top-level reduction (in no map), or null.
const ReduceSite* combiningReduction(const Sites& sites) {
  for (const ReduceSite& r : sites.reduces)
    if (r.level == 0 && !r.sequential) return &r;
  return nullptr;
}

// The tunable values (given, preferred first) of the mapping's tunables: every combination's
// first, i.e. the preferred value of each.
Assignment preferredValues(const OpenCLMapping& m) {
  Assignment a;
  for (const Tunable& t : m.tunables)
    if (!t.values.empty()) a[t.name] = t.values.front();
  return a;
}

// The variant "<name>-combine" of a mapping whose lowered program is a sequence of kernels, the
// last combining a parallel map's results with the program's top-level reduction: instead of
// reduce-to-seq (one work-item), that reduction becomes the only chunk of a map
// (reduce-split-join), the map a mapWrg0 (one work-group) and the reduction its tree of
// "$combine" work-items (reduce-to-tree): 001 section 3's second kernel. These steps come last,
// so the locations of the other steps stay those of `m`. nullopt when the mapping has no such
// kernel or no work-group size fits.
std::optional<OpenCLMapping> combineTreeVariant(const rewrite::TypedProgram& p, const Sites& sites,
                                                const OpenCLMapping& m) {
  const ReduceSite* combine = combiningReduction(sites);
  if (!combine) return std::nullopt;
  Assignment values = preferredValues(m);
  std::optional<rewrite::TypedProgram> low = lowered(p, m.steps, values);
  if (!low || codegen::splitIntoKernels(low->program).parts.size() < 2) return std::nullopt;
  const rewrite::RuleRegistry& reg = rewrite::RuleRegistry::instance();
  OpenCLMapping v = m;
  v.name += "-combine";
  auto seq = std::find_if(v.steps.begin(), v.steps.end(), [&](const RewriteStep& s) {
    return s.loc == combine->loc && s.rule->name == "reduce-to-seq";
  });
  if (seq == v.steps.end()) return std::nullopt;
  v.steps.erase(seq);
  // join o map(fun(c => reduce(f, z) $ c)) o split(len): the map at child 1, the reduce in its lambda.
  Location map = combine->loc.child(1), reduce = map.child(0).child(0).child(0);
  v.steps.push_back(RewriteStep{&reg.get("reduce-split-join"), combine->loc, {}});
  RewriteStep group{&reg.get("map-to-wrg"), map, {}};
  group.params.set("dim", "0");
  v.steps.push_back(group);
  RewriteStep tree{&reg.get("reduce-to-tree"), reduce, {}};
  tree.params.set("threads", "$combine");
  tree.params.set("dim", "0");
  v.steps.push_back(tree);
  std::vector<int64_t> good;
  for (int64_t threads : kTreeThreads) {
    values["combine"] = threads;
    if (lowered(p, v.steps, values)) good.push_back(threads);
  }
  if (good.empty()) return std::nullopt;
  v.tunables.push_back({"combine", "work-items of the combining kernel's work-group", good, false});
  return v;
}

// A program that is one scan (nothing else to map) has the mapping "scan-work-groups": the scan
// in work-groups (rule scan-work-groups, three kernels: the tiles' totals, their scan, each
// tile scanned from its offset, 256 work-items a tile reading and writing coalesced), its
// tunable "v" the vectors of 4 elements each work-item reads (the values with which the rule
// applies and the kernels pass the lowering check).
std::optional<OpenCLMapping> workGroupScanMapping(const rewrite::TypedProgram& p, const Sites& sites,
                                                  const MappingOptions& options) {
  if (!options.workGroups || !sites.maps.empty() || !sites.reduces.empty() || sites.scans.size() != 1)
    return std::nullopt;
  const rewrite::RuleRegistry& reg = rewrite::RuleRegistry::instance();
  OpenCLMapping m;
  m.name = "scan-work-groups";
  m.workGroups = true;
  RewriteStep step{&reg.get("scan-work-groups"), sites.scans.front(), {}};
  step.params.set("v", "$v");
  m.steps.push_back(step);
  std::vector<int64_t> good;
  for (int64_t v : {4, 2, 8, 1})
    if (lowered(p, m.steps, {{"v", v}})) good.push_back(v);
  if (good.empty()) return std::nullopt;
  m.tunables.push_back({"v", "vectors of 4 elements a work-item of the work-group scan", good, false});
  return m;
}

}  // namespace

std::vector<int> launchDims(const OpenCLMapping& m) {
  std::vector<int> dims = m.globalDims;
  for (int d : m.singleWorkItemDims)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) dims.push_back(d);
  std::sort(dims.begin(), dims.end());
  return dims;
}

std::vector<OpenCLMapping> openclMappings(const rewrite::TypedProgram& p, const MappingOptions& options) {
  Sites sites = findSites(p);
  std::vector<OpenCLMapping> out;
  if (sites.maps.empty() && sites.reduces.empty() && sites.scans.empty()) return out;
  for (const Scheme& scheme : schemes(sites.maxLevel, options)) {
    // Every level the scheme names must be used (else it is the same as a shorter scheme).
    bool usesAll = true;
    for (size_t l = 0; l < scheme.levels.size(); ++l) {
      bool used = false;
      for (const MapSite& s : sites.maps) used = used || schemeLevel(s, scheme) == static_cast<int>(l);
      usesAll = usesAll && used;
    }
    if (!usesAll) continue;
    std::vector<OpenCLMapping> mappings;
    OpenCLMapping plain = lowering(sites, scheme, {}, 0);
    if (std::optional<rewrite::TypedProgram> low = lowered(p, plain.steps, {})) {
      std::vector<OpenCLMapping> copies = copyVariants(*low, plain, sites, scheme, options);
      mappings.push_back(std::move(plain));
      mappings.insert(mappings.end(), copies.begin(), copies.end());
    }
    int treeDim = 0;
    std::vector<const ReduceSite*> trees = treeSites(sites, scheme, &treeDim);
    if (!trees.empty()) {
      OpenCLMapping tree = lowering(sites, scheme, trees, treeDim);
      std::vector<int64_t> good;
      for (int64_t threads : kTreeThreads)
        if (lowered(p, tree.steps, {{"threads", threads}})) good.push_back(threads);
      if (!good.empty()) {
        tree.tunables.push_back({"threads", "reduce-to-tree work-items", good, false});
        mappings.push_back(std::move(tree));
      }
    }
    for (OpenCLMapping& m : mappings) {
      std::optional<OpenCLMapping> combined = combineTreeVariant(p, sites, m);
      out.push_back(std::move(m));
      if (combined) out.push_back(std::move(*combined));
    }
  }
  if (std::optional<OpenCLMapping> scan = workGroupScanMapping(p, sites, options))
    out.push_back(std::move(*scan));
  return out;
}

}  // namespace lift::explore
