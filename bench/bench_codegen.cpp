// Code generation speed: the kernel of the best-found matmul (CASES 2016, Listing 4;
// resources/examples/lowlevel/matmul_best.lift) and of the other low-level examples, with and
// without index simplification. The counters give the kernel's source size (bytes) and number
// of memory accesses, and the total length of the printed indices. Target: under 5 ms for matmul_best.
// Also the tiled matmul derived by rewriting (bench/TiledMatmul.h), plain and with the switches of
// the GPU searches' best kernel; issue 14's target: under 10 ms. Results: docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "bench/TiledMatmul.h"
#include "codegen/Compiler.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

void compileProgram(benchmark::State& state, const ir::Program& p, const codegen::CompileOptions& o) {
  const bool simplify = o.simplifyIndices;
  size_t bytes = 0, accesses = 0, indexChars = 0;
  for (auto _ : state) {
    codegen::CompiledKernel k = codegen::compileKernel(p, o);
    bytes = k.source.size();
    accesses = k.indices.size();
    indexChars = 0;
    for (auto& e : k.indices) indexChars += simplify ? e.simplified.size() : e.raw.size();
    benchmark::DoNotOptimize(k.source.data());
  }
  state.counters["source_bytes"] = static_cast<double>(bytes);
  state.counters["accesses"] = static_cast<double>(accesses);
  state.counters["index_chars"] = static_cast<double>(indexChars);
}

void compileExample(benchmark::State& state, const char* example, bool simplify) {
  codegen::CompileOptions o;
  o.simplifyIndices = simplify;
  compileProgram(state,
                 lang::parseFile(std::string(LIFT_SOURCE_DIR "/resources/examples/lowlevel/") + example), o);
}

// The switches of the explorer's best GPU kernel: `--unroll 16 --vector-local-loads --prefetch
// --prefetch-parts 2`.
void compileTiled(benchmark::State& state, bool explorersBest, bool gpuSwitches) {
  rewrite::TypedProgram p = explorersBest ? bench::explorersBestMatmul(4096) : bench::shippedTiledMatmul();
  codegen::CompileOptions o;
  if (gpuSwitches) {
    o.innerLoopUnroll = 16;
    o.vectorLocalLoads = true;
    o.registerPrefetch = true;
    o.prefetchParts = 2;
  }
  compileProgram(state, p.program, o);
}

}  // namespace

BENCHMARK_CAPTURE(compileExample, matmul_best, "matmul_best.lift", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, matmul_best_unsimplified, "matmul_best.lift", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, matmul_expert, "matmul_expert.lift", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, matmul_expert_unsimplified, "matmul_expert.lift", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, dot, "dot.lift", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, dot_unsimplified, "dot.lift", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, transpose, "transpose.lift", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileExample, transpose_unsimplified, "transpose.lift", false)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(compileTiled, tiled_blocked_derivation, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileTiled, tiled_blocked_derivation_gpu_switches, false, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileTiled, explorers_best_4096, true, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(compileTiled, explorers_best_4096_gpu_switches, true, true)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
