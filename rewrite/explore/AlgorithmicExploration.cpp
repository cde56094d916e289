// The algorithmic exploration phase (see AlgorithmicExploration.h).
#include "rewrite/explore/AlgorithmicExploration.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_set>

#include "rewrite/explore/MdHomStarts.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/RowBlockStarts.h"
#include "rewrite/explore/SplitReductionStarts.h"

namespace lift::explore {

namespace {

bool isInteger(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Values to try for a parameter applied with `used`: `used` first, then the others by distance
// (in powers of two) from it.
std::vector<int64_t> valuesAround(int64_t used, std::vector<int64_t> pool) {
  if (std::find(pool.begin(), pool.end(), used) == pool.end()) pool.push_back(used);
  auto dist = [used](int64_t v) {
    return std::abs(std::log2(static_cast<double>(v)) - std::log2(static_cast<double>(used)));
  };
  std::stable_sort(pool.begin(), pool.end(), [&](int64_t a, int64_t b) {
    double da = dist(a), db = dist(b);
    return da != db ? da < db : a > b;
  });
  return pool;
}

struct Node {
  std::shared_ptr<const rewrite::TypedProgram> program;
  std::vector<rewrite::RewriteStep> steps;  // concrete
  std::string hash;
  int promiseBonus = 0;           // kContiguousLanesPromise once a step vectorises contiguous lanes
  std::vector<Tunable> tunables;  // those the steps name ("$chunk": a start's, SplitReductionStarts.h)
  std::string schemaMapping;      // the root's own (SplitReductionStart::mapping), not its descendants'
};

}  // namespace

std::map<std::string, int64_t> preferredFactors(bool gpu) {
  if (gpu)
    return {{"tiling.x", 64},
            {"tiling.y", 64},
            {"tile-reduction.k", 16},
            {"tile-reduction-blocked.k", 16},
            {"tile-reduction-blocked.x", 4},
            {"tile-reduction-blocked.y", 4},
            {"tile-reduction-blocked.w", 4}};
  // A CPU core (docs/PERFORMANCE.md, "SGEMM on the CPU device"): 64 x 64 tiles of C and K tiles
  // of 64 (48 KiB of tiles, in the core's L1/L2 cache), blocks of 4 rows and 16 columns side by
  // side, which the OpenCL compiler turns into vector registers.
  return {{"tiling.x", 64},
          {"tiling.y", 64},
          {"tile-reduction.k", 64},
          {"tile-reduction-blocked.k", 64},
          {"tile-reduction-blocked.x", 4},
          {"tile-reduction-blocked.y", 16},
          {"tile-reduction-blocked.w", 16}};
}

std::map<std::string, int64_t> contiguousLaneFactors() {
  // 64 x 64 tiles of C as on the CPU above, 16 of the tile's 64 columns in each vector: blocks
  // of 4 vectors (64 columns) by 4 rows, 16 vector accumulators (docs/PERFORMANCE.md, "SGEMM on
  // the CPU device").
  return {{"tiling.x", 64},
          {"tiling.y", 64},
          {"tile-reduction.k", 64},
          {"tile-reduction-blocked.k", 64},
          {"tile-reduction-blocked.x", 4},
          {"tile-reduction-blocked.y", 4},
          {"tile-reduction-blocked.w", 1}};
}

void makeTunable(rewrite::RewriteStep& step, std::vector<Tunable>& tunables, int preferredWidth,
                 const std::map<std::string, int64_t>& preferredFactors) {
  if (!step.rule) return;
  rewrite::ParamValues pv;
  for (auto& [name, value] : step.params.values()) {
    const rewrite::ParamSpec* spec = step.rule->param(name);
    if (!spec || !isInteger(value) ||
        (spec->kind != rewrite::ParamKind::Factor && spec->kind != rewrite::ParamKind::Width)) {
      pv.set(name, value);
      continue;
    }
    std::string tn = name;
    for (int i = 2;
         std::any_of(tunables.begin(), tunables.end(), [&](const Tunable& t) { return t.name == tn; }); ++i)
      tn = fmt::format("{}{}", name, i);
    Tunable t;
    t.name = tn;
    t.what = fmt::format("{}@{} {}", step.rule->name, step.loc.toString(), name);
    int64_t used = std::stoll(value);
    std::vector<int64_t> pool;
    if (spec->kind == rewrite::ParamKind::Width) {
      for (int64_t w : {2, 4, 8, 16})
        if (spec->allowed.empty() ||
            std::find(spec->allowed.begin(), spec->allowed.end(), std::to_string(w)) != spec->allowed.end())
          pool.push_back(w);
      if (preferredWidth > 1 && std::find(pool.begin(), pool.end(), preferredWidth) != pool.end())
        used = preferredWidth;
    } else {
      for (int64_t f = 2; f <= 4096; f *= 2) pool.push_back(f);
      if (auto it = preferredFactors.find(step.rule->name + "." + name); it != preferredFactors.end())
        used = it->second;
    }
    t.values = valuesAround(used, pool);
    tunables.push_back(t);
    pv.set(name, "$" + tn);
  }
  step.params = pv;
}

std::vector<AlgorithmicVariant> exploreAlgorithmic(
    const SearchProblem& problem, const AlgorithmicOptions& options, const std::atomic<bool>* cancel,
    AlgorithmicStats* statsOut, const std::function<void(const AlgorithmicStats&)>& progress) {
  auto began = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  };
  AlgorithmicStats stats;
  std::vector<AlgorithmicVariant> out;
  std::unordered_set<std::string> seen;

  auto emit = [&](const Node& n, int depth) {
    auto t = std::make_shared<DerivationTemplate>();
    t->steps = n.steps;
    // The preferred tile sizes are those of local-memory tiles: only for derivations that tile
    // the reduction too (a tiling for register blocks in global memory starts as found).
    bool localTiles = std::any_of(t->steps.begin(), t->steps.end(), [](const rewrite::RewriteStep& s) {
      return s.rule && s.rule->name.rfind("tile-reduction", 0) == 0;
    });
    // Contiguous lanes count for the order of the templates where the tiles are in local memory
    // (for the beam, below, already inside any tile).
    t->promiseBonus = localTiles ? n.promiseBonus : 0;
    t->schemaMapping = n.schemaMapping;
    std::map<std::string, int64_t> factors =
        t->promiseBonus > 0 ? options.contiguousLaneFactors : options.preferredFactors;
    // Lanes before the tiling: the tile's rows (x) are vectors, as many as give 64 scalars.
    auto firstOf = [&](const char* rule) {
      return std::find_if(t->steps.begin(), t->steps.end(),
                          [&](const rewrite::RewriteStep& s) { return s.rule && s.rule->name == rule; });
    };
    if (t->promiseBonus > 0 && firstOf("vectorize-lanes") < firstOf("tiling") && factors.count("tiling.x"))
      factors["tiling.x"] = std::max<int64_t>(1, factors["tiling.x"] / std::max(1, options.preferredWidth));
    t->tunables = n.tunables;
    for (auto& s : t->steps)
      makeTunable(s, t->tunables, options.preferredWidth,
                  localTiles ? factors : std::map<std::string, int64_t>{});
    t->algorithmicSteps = t->steps.size();
    out.push_back({t, n.program, n.hash, depth});
    ++stats.kept;
  };

  // The roots: the program, or for a program with md_homs the nests they mean (MdHomStarts.h).
  std::vector<Node> level;
  for (MdHomStart& start : mdHomStarts(*problem.start))
    level.push_back(
        {start.program, std::move(start.steps), hex64(ir::structuralHash(start.program->program))});
  if (level.empty()) level.push_back({problem.start, {}, hex64(ir::structuralHash(problem.start->program))});
  // A reduction of a map also starts as 001's schema: chunks for work-groups (SplitReductionStarts.h).
  for (size_t i = 0, roots = level.size(); i < roots; ++i)
    for (SplitReductionStart& start :
         splitReductionStarts(*level[i].program, level[i].steps, options.preferredWidth)) {
      std::string hash = hex64(ir::structuralHash(start.program->program));
      level.push_back(
          {start.program, std::move(start.steps), hash, 0, std::move(start.tunables), start.mapping});
    }
  // On a CPU a map of row reductions also starts as blocks of rows per work-item (RowBlockStarts.h).
  if (options.rowBlockStarts)
    for (size_t i = 0, roots = level.size(); i < roots; ++i)
      for (RowBlockStart& start : rowBlockStarts(*level[i].program, level[i].steps, options.preferredWidth)) {
        std::string hash = hex64(ir::structuralHash(start.program->program));
        level.push_back(
            {start.program, std::move(start.steps), hash, 0, std::move(start.tunables), start.mapping});
      }
  for (const Node& root : level)
    if (seen.insert(root.hash).second) emit(root, 0);

  rewrite::EnumerateOptions eo;
  eo.includeMacros = true;
  eo.families = options.families;

  for (int depth = 1; depth <= options.maxDepth && !level.empty(); ++depth) {
    std::vector<Node> next;
    for (const Node& n : level) {
      if (cancel && cancel->load()) {
        stats.stopReason = "cancelled";
        break;
      }
      if (elapsed() > options.maxSeconds) {
        stats.stopReason = fmt::format("time limit ({:.0f} s)", options.maxSeconds);
        break;
      }
      if (out.size() >= options.maxPrograms) {
        stats.stopReason = fmt::format("program limit ({})", options.maxPrograms);
        break;
      }
      std::vector<rewrite::RewriteStep> rewrites;
      try {
        rewrites = rewrite::enumerateRewrites(*n.program, eo);
      } catch (const LiftError&) {
        continue;
      }
      for (const rewrite::RewriteStep& step : rewrites) {
        if (std::find(options.excluded.begin(), options.excluded.end(), step.rule->name) !=
            options.excluded.end())
          continue;
        if (cancel && cancel->load()) break;
        std::vector<rewrite::RewriteStep> steps = n.steps;
        steps.push_back(step);
        if (options.heuristics.maxRuleUses > 0 && maxRuleUses(steps) > options.heuristics.maxRuleUses) {
          ++stats.rejected;
          continue;
        }
        rewrite::RewriteResult r;
        try {
          r = rewrite::applyRewrite(*n.program, step);
        } catch (const LiftError&) {
          continue;
        }
        ++stats.tried;
        if (!r) continue;
        int bonus = n.promiseBonus;
        if (options.preferContiguousLanes && bonus == 0 &&
            vectorisesContiguousLanes(n.program->program, step))
          bonus = kContiguousLanesPromise;
        Node child{std::make_shared<const rewrite::TypedProgram>(std::move(*r.program)), steps, "", bonus,
                   n.tunables};
        child.hash = hex64(ir::structuralHash(child.program->program));
        if (!seen.insert(child.hash).second) {
          ++stats.duplicates;
          continue;
        }
        if (options.heuristics.maxNesting > 0 &&
            nestingDepth(child.program->program) > options.heuristics.maxNesting) {
          ++stats.rejected;
          continue;
        }
        next.push_back(std::move(child));
      }
      if (progress) progress(stats);
    }
    // The next level: the most promising programs first; the heuristics decide which are kept
    // as variants (a program may be expanded even if it is not a variant itself: the distance
    // between multiplication and addition may shrink again).
    std::stable_sort(next.begin(), next.end(), [](const Node& a, const Node& b) {
      return derivationPromise(a.steps) + a.promiseBonus > derivationPromise(b.steps) + b.promiseBonus;
    });
    if (next.size() > options.beamWidth) {
      stats.pruned += next.size() - options.beamWidth;
      next.resize(options.beamWidth);
    }
    for (const Node& n : next) {
      if (out.size() >= options.maxPrograms) break;
      if (!heuristicRejection(n.program->program, n.steps, options.heuristics).empty()) {
        ++stats.rejected;
        continue;
      }
      emit(n, depth);
    }
    level = std::move(next);
    if (!stats.stopReason.empty()) break;
  }
  if (stats.stopReason.empty()) stats.stopReason = "depth limit reached or nothing more applies";
  if (statsOut) *statsOut = stats;
  if (progress) progress(stats);
  return out;
}

}  // namespace lift::explore
