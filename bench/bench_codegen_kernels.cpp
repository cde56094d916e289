// The speed of generated kernels with and without the code generator's optimisations (the
// ablation of CGO 2017, Figure 8): each low-level example is compiled with every optimisation
// on and with all of them off, validated against the interpreter at small sizes, then timed at
// the sizes below on an OpenCL device. Prints a Markdown table (docs/PERFORMANCE.md).
//
// Usage: bench_codegen_kernels [DEVICE] [cpu]   (DEVICE as in liftc --device; default 0;
//        `cpu` picks sizes for a CPU device)
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/Compiler.h"
#include "codegen/Launch.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

struct Case {
  const char* file;
  arith::Env gpu, cpu;
};

const Case kCases[] = {
    {"dot.lift", {{"N", 1 << 17}}, {{"N", 1 << 13}}},
    {"asum.lift", {{"N", 1 << 17}}, {{"N", 1 << 13}}},
    {"reduce.lift", {{"N", 1 << 17}}, {{"N", 1 << 13}}},
    {"vecmult.lift", {{"N", 1 << 22}}, {{"N", 1 << 18}}},
    {"stencil3.lift", {{"N", 1 << 24}}, {{"N", 1 << 20}}},
    {"transpose.lift", {{"M", 4096}, {"N", 4096}}, {{"M", 1024}, {"N", 1024}}},
    {"gemv.lift", {{"M", 8192}, {"N", 8192}}, {{"M", 2048}, {"N", 2048}}},
    {"matmul.lift", {{"M", 1024}, {"N", 1024}, {"K", 1024}}, {{"M", 256}, {"N", 256}, {"K", 256}}},
    {"matmul_best.lift", {{"M", 512}, {"N", 512}, {"K", 256}}, {{"M", 128}, {"N", 128}, {"K", 64}}},
    {"matmul_expert.lift", {{"M", 512}, {"N", 512}, {"K", 256}}, {{"M", 128}, {"N", 128}, {"K", 64}}},
};

std::string sizesText(const arith::Env& s) {
  std::string t;
  for (auto& [n, v] : s) t += fmt::format("{}{}={}", t.empty() ? "" : ",", n, v);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = argc > 1 ? argv[1] : "0";
  bool cpu = argc > 2 && std::string(argv[2]) == "cpu";
  runtime::KernelRunner runner(runtime::Device::find(device));
  std::printf("device: %s\n\n", runner.device().info().describe().c_str());
  std::printf(
      "| kernel | sizes | optimised (ms) | unoptimised (ms) | speed-up | source bytes (on / off) | validated "
      "|\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Case& c : kCases) {
    ir::Program p = lang::parseFile(std::string(LIFT_SOURCE_DIR "/resources/examples/lowlevel/") + c.file);
    codegen::CompileOptions on, off;
    off.simplifyIndices = off.barrierElimination = off.cfgSimplification = off.unrolling = false;
    double ms[2] = {0, 0};
    size_t bytes[2] = {0, 0};
    std::string valid = "yes";
    for (int v = 0; v < 2; ++v) {
      codegen::CompiledKernel k = codegen::compileKernel(p, v == 0 ? on : off);
      bytes[v] = k.source.size();
      // Correctness at small sizes against the interpreter.
      interp::SizeHint hint;
      hint.atLeast = 9;
      arith::Env small = interp::chooseSizes(p, hint);
      auto inputs = interp::randomInputs(p, small, 5);
      auto expected = interp::interpret(p, inputs, small);
      runtime::KernelLaunch check = codegen::instantiate(k, small);
      codegen::setInputs(check, k, inputs);
      codegen::setExpected(check, k, expected);
      runtime::RunOptions quick;
      quick.warmups = 0;
      quick.repetitions = 1;
      quick.tolerance.floatRel = 1e-3;
      quick.tolerance.floatAbs = 1e-3;
      runtime::RunResult r = runner.run(check, quick);
      if (!r.ok()) valid = fmt::format("no ({})", r.summary());
      // Time at the benchmark's sizes.
      runtime::KernelLaunch big = codegen::instantiate(k, cpu ? c.cpu : c.gpu);
      runtime::RunOptions timed;
      timed.warmups = 2;
      timed.repetitions = 10;
      timed.returnOutputs = false;
      runtime::RunResult t = runner.run(big, timed);
      ms[v] = t.ok() ? t.medianMs : -1;
      if (!t.ok()) valid += fmt::format(" (timed run: {})", t.summary());
    }
    std::printf("| %s | %s | %.4g | %.4g | %.2fx | %zu / %zu | %s |\n", c.file,
                sizesText(cpu ? c.cpu : c.gpu).c_str(), ms[0], ms[1], ms[0] > 0 ? ms[1] / ms[0] : 0.0,
                bytes[0], bytes[1], valid.c_str());
    std::fflush(stdout);
  }
  return 0;
}
