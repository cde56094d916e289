// Rewriting performance: enumerating every applicable rewrite of naive matrix multiplication
// (target: under 2 ms), the per-location rule view of the desktop app, one rewrite with its
// type check, and random rewrite walks without the interpreter check (target: at least 10,000
// applied steps per second); and every rule at every node of the tiled matmul derived by
// rewriting (bench/TiledMatmul.h; issue 14's target: under 5 ms at any node). Results in
// docs/PERFORMANCE.md, section "Rewriting".
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "bench/TiledMatmul.h"
#include "core/lang/Parser.h"
#include "rewrite/Engine.h"
#include "rewrite/RandomWalk.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

TypedProgram load(const char* name, bool multiples = false) {
  TypedProgram p =
      TypedProgram::check(lang::parseFile(std::string(LIFT_SOURCE_DIR "/resources/examples/") + name));
  if (multiples)
    for (auto& s : p.program.sizes) {
      RewriteResult r = applyRewrite(p, RewriteStep::parse("size-multiple@0:var=" + s.name + ",k=4"));
      if (r) p = *r.program;
    }
  return p;
}

void EnumerateMatmul(benchmark::State& state, bool multiples, bool macros) {
  TypedProgram p = load("matmul.lift", multiples);
  EnumerateOptions o;
  o.includeMacros = macros;
  size_t n = 0;
  for (auto _ : state) {
    auto steps = enumerateRewrites(p, o);
    n = steps.size();
    benchmark::DoNotOptimize(steps);
  }
  state.counters["rewrites"] = static_cast<double>(n);
  state.counters["locations"] = static_cast<double>(allLocations(p.main()).size());
}

void BM_EnumerateNaiveMatmul(benchmark::State& s) { EnumerateMatmul(s, false, true); }
void BM_EnumerateNaiveMatmulNoMacros(benchmark::State& s) { EnumerateMatmul(s, false, false); }
void BM_EnumerateMatmulSizesX4(benchmark::State& s) { EnumerateMatmul(s, true, true); }

void BM_RulesAtOneLocation(benchmark::State& state) {
  TypedProgram p = load("matmul.lift");
  Location at = *Location::parse("0.0.0.0");
  for (auto _ : state) benchmark::DoNotOptimize(rulesAt(p, at, true));
}

// What the app does when the user clicks a node of a tiled program: every rule at that node, with
// previews; one iteration visits every node. Counters: the nodes, and the slowest node's time
// (each node's fastest over the iterations, so that a moment of load on the machine is not it).
void RulesAtEveryNode(benchmark::State& state, const rewrite::TypedProgram& p) {
  std::vector<LocatedNode> nodes = allLocations(p.main());
  std::vector<double> fastest(nodes.size(), 1e300);
  for (auto _ : state) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(rulesAt(p, nodes[i].loc, true));
      std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - t0;
      fastest[i] = std::min(fastest[i], ms.count());
    }
  }
  state.counters["nodes"] = static_cast<double>(nodes.size());
  state.counters["slowest_node_ms"] = *std::max_element(fastest.begin(), fastest.end());
}

void BM_RulesAtEveryNodeTiledBlocked(benchmark::State& s) {
  RulesAtEveryNode(s, bench::shippedTiledMatmul());
}
void BM_RulesAtEveryNodeExplorersBest(benchmark::State& s) {
  RulesAtEveryNode(s, bench::explorersBestMatmul(4096));
}

void BM_ApplyOneRewrite(benchmark::State& state) {
  TypedProgram p = load("matmul.lift");
  RewriteStep step = RewriteStep::parse("map-fission@0.0.0.0");
  for (auto _ : state) benchmark::DoNotOptimize(applyRewrite(p, step));
}

void RandomWalks(benchmark::State& state, const char* example, bool multiples, bool sample) {
  TypedProgram p = load(example, multiples);
  RandomWalkOptions o;
  o.steps = 50;
  o.check = false;
  o.sample = sample;
  uint64_t seed = 1;
  int64_t steps = 0;
  for (auto _ : state) {
    o.seed = seed++;
    RandomWalkResult w = randomWalk(p, o);
    steps += static_cast<int64_t>(w.steps.size());
  }
  state.SetItemsProcessed(steps);  // items/s = applied steps per second
}

void BM_RandomWalkMatmul(benchmark::State& s) { RandomWalks(s, "matmul.lift", true, true); }
void BM_RandomWalkMatmulEnumerating(benchmark::State& s) { RandomWalks(s, "matmul.lift", true, false); }
void BM_RandomWalkDot(benchmark::State& s) { RandomWalks(s, "dot.lift", true, true); }

}  // namespace

BENCHMARK(BM_EnumerateNaiveMatmul)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EnumerateNaiveMatmulNoMacros)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EnumerateMatmulSizesX4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RulesAtOneLocation)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RulesAtEveryNodeTiledBlocked)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RulesAtEveryNodeExplorersBest)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ApplyOneRewrite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RandomWalkMatmul)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomWalkMatmulEnumerating)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomWalkDot)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
