// Front-end benchmarks: parsing and type checking the largest example program, printing it,
// and structural hashing / alpha-equality of the matmul program (what a search does for every
// candidate to recognise programs it has already seen). Figures in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;

namespace {

// The source tree: LIFT_SOURCE_DIR from the environment (to run the binary elsewhere), else the
// one it was built from.
std::string sourceDir() {
  const char* env = std::getenv("LIFT_SOURCE_DIR");
  return env && *env ? env : LIFT_SOURCE_DIR;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The largest example program (by size of its text).
const std::pair<std::string, std::string>& largestExample() {
  static const std::pair<std::string, std::string> largest = [] {
    std::pair<std::string, std::string> best;
    for (auto& e : std::filesystem::recursive_directory_iterator(sourceDir() + "/resources/examples")) {
      if (e.path().extension() != ".lift") continue;
      std::string text = readFile(e.path());
      if (text.size() > best.second.size()) best = {e.path().string(), text};
    }
    if (best.second.empty()) best = {"tests/data/misc.lift", readFile(sourceDir() + "/tests/data/misc.lift")};
    return best;
  }();
  return largest;
}

const ir::Program& matmul() {
  static const ir::Program p = lang::parseFile(sourceDir() + "/tests/data/matmul.lift");
  return p;
}

void BM_ParseLargestExample(benchmark::State& state) {
  const auto& [path, text] = largestExample();
  state.SetLabel(std::filesystem::path(path).filename().string());
  for (auto _ : state) benchmark::DoNotOptimize(lang::parseProgram(text, path));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseLargestExample)->Unit(benchmark::kMicrosecond);

void BM_TypeCheckLargestExample(benchmark::State& state) {
  const auto& [path, text] = largestExample();
  ir::Program p = lang::parseProgram(text, path);
  state.SetLabel(std::filesystem::path(path).filename().string());
  for (auto _ : state) benchmark::DoNotOptimize(ir::typeCheck(p));
}
BENCHMARK(BM_TypeCheckLargestExample)->Unit(benchmark::kMicrosecond);

void BM_ParseAndTypeCheckLargestExample(benchmark::State& state) {
  const auto& [path, text] = largestExample();
  state.SetLabel(std::filesystem::path(path).filename().string());
  for (auto _ : state) {
    ir::Program p = lang::parseProgram(text, path);
    benchmark::DoNotOptimize(ir::typeCheck(p));
  }
}
BENCHMARK(BM_ParseAndTypeCheckLargestExample)->Unit(benchmark::kMicrosecond);

void BM_PrintLargestExample(benchmark::State& state) {
  const auto& [path, text] = largestExample();
  ir::Program p = lang::parseProgram(text, path);
  for (auto _ : state) benchmark::DoNotOptimize(lang::printProgram(p));
}
BENCHMARK(BM_PrintLargestExample)->Unit(benchmark::kMicrosecond);

void BM_StructuralHashMatmul(benchmark::State& state) {
  ir::Fun main = matmul().main;
  state.SetLabel(std::to_string(ir::nodeCount(main)) + " nodes");
  for (auto _ : state) benchmark::DoNotOptimize(ir::structuralHash(main));
}
BENCHMARK(BM_StructuralHashMatmul);

void BM_AlphaEqualMatmul(benchmark::State& state) {
  ir::Program a = matmul();
  ir::Program b = lang::parseFile(sourceDir() + "/tests/data/matmul.lift");  // same structure, other nodes
  for (auto _ : state) benchmark::DoNotOptimize(ir::alphaEqual(ir::Fun(a.main), ir::Fun(b.main)));
}
BENCHMARK(BM_AlphaEqualMatmul);

}  // namespace

BENCHMARK_MAIN();
