// Runtime overhead: the host time one evaluation of an already-built tiny kernel costs beyond
// the kernel's own (profiled) time — in this process (KernelRunner) and through the isolated
// worker process (WorkerClient). Targets: < 2 ms in-process, < 5 ms through the worker.
//
//   build/bench/bench_runtime [--benchmark_filter=...]     (LIFT_DEVICE=D picks the device)
//
// Counters: wall_ms (per evaluation), kernel_ms (sum of the profiled executions of one
// evaluation), overhead_ms = wall_ms - kernel_ms.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <memory>

#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "codegen/runtime/Worker.h"

using namespace lift::runtime;

namespace {

const char* kSource = R"(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
)";

// A validated launch: inputs carried in the description, the expected output too.
KernelLaunch vectorAdd(int n) {
  const ElementType f{ScalarType::Float, 1};
  KernelLaunch l;
  l.source = kSource;
  l.kernelName = "vector_add";
  l.args = {KernelArg::input("a", f, n), KernelArg::input("b", f, n), KernelArg::output("c", f, n),
            KernelArg::scalarInt("n", n)};
  l.global = {static_cast<uint64_t>(n)};
  l.local = {64};
  l.materializeInputs();
  std::vector<float> c(n);
  for (int i = 0; i < n; ++i) c[i] = l.args[0].data->floats()[i] + l.args[1].data->floats()[i];
  l.args[2].expected = HostArray(c);
  return l;
}

RunOptions options(bool minimal) {
  RunOptions o;
  if (minimal) {  // the validated execution and one timed one
    o.warmups = 0;
    o.repetitions = 1;
  }
  return o;  // else the defaults: validated execution, 1 warm-up, 5 timed
}

void measure(benchmark::State& state, Evaluator& evaluator, const KernelLaunch& launch, const RunOptions& o) {
  RunResult warm = evaluator.run(launch, o);  // builds (or loads) the program
  if (!warm.ok()) {
    state.SkipWithError(warm.summary().c_str());
    return;
  }
  double wallMs = 0, kernelMs = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = evaluator.run(launch, o);
    wallMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    kernelMs += r.kernelMsTotal;
    if (!r.ok()) {
      state.SkipWithError(r.summary().c_str());
      return;
    }
  }
  double n = static_cast<double>(state.iterations());
  state.counters["wall_ms"] = wallMs / n;
  state.counters["kernel_ms"] = kernelMs / n;
  state.counters["overhead_ms"] = (wallMs - kernelMs) / n;
}

std::string deviceSpec() {
  const char* d = std::getenv("LIFT_DEVICE");
  return d ? d : "";
}

void BM_InProcess(benchmark::State& state) {
  static KernelRunner runner(Device::find(deviceSpec()),
                             std::make_shared<BuildCache>(std::filesystem::path()));
  measure(state, runner, vectorAdd(static_cast<int>(state.range(0))), options(state.range(1)));
}

// One worker for the benchmarks that go through it, started on first use.
WorkerClient& worker() {
  static WorkerClient client([] {
    WorkerOptions o;
    o.liftcPath = WorkerClient::findLiftc();
    o.device = deviceSpec();
    o.cacheDir = std::filesystem::path();  // memory only: measure the steady state, not the disk
    return o;
  }());
  return client;
}

void BM_Worker(benchmark::State& state) {
  measure(state, worker(), vectorAdd(static_cast<int>(state.range(0))), options(state.range(1)));
}

// A search's case: the same inputs and expected output in every request, identified by keys
// (KernelArg::dataKey), so that the worker keeps them and only the first request carries them.
void BM_WorkerKeyed(benchmark::State& state) {
  KernelLaunch l = vectorAdd(static_cast<int>(state.range(0)));
  l.args[0].dataKey = 1;
  l.args[1].dataKey = 2;
  l.args[2].expectedKey = 3;
  measure(state, worker(), l, options(state.range(1)));
  state.counters["request_kib"] = static_cast<double>(worker().lastRequestBytes()) / 1024;
}

// Args: elements, minimal (1) or default (0) options.
BENCHMARK(BM_InProcess)
    ->ArgNames({"n", "minimal"})
    ->Args({1024, 1})
    ->Args({1024, 0})
    ->Args({1 << 20, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Worker)
    ->ArgNames({"n", "minimal"})
    ->Args({1024, 1})
    ->Args({1024, 0})
    ->Args({1 << 20, 1})
    ->Args({1 << 24, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WorkerKeyed)
    ->ArgNames({"n", "minimal"})
    ->Args({1 << 20, 1})
    ->Args({1 << 24, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
