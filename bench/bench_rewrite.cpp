// Rewriting performance: enumerating every applicable rewrite of naive matrix multiplication
// (target: under 2 ms), the per-location rule view of the desktop app, one rewrite with its
// type check, and random rewrite walks without the interpreter check (target: at least 10,000
// applied steps per second). Results in docs/PERFORMANCE.md, section "Rewriting".
#include <benchmark/benchmark.h>

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
BENCHMARK(BM_ApplyOneRewrite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RandomWalkMatmul)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomWalkMatmulEnumerating)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RandomWalkDot)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
