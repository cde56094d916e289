// Kernels found by the explorer vs the libraries, measured in the same run on the same inputs:
// the fastest valid kernel a search stored for a high-level program (its derivation replayed
// from the program, compiled, run in-process and validated against OpenBLAS) vs CLBlast on the
// same OpenCL device and OpenBLAS on the CPU, plus the device's copy bandwidth. Prints a
// Markdown table (docs/PERFORMANCE.md, "Kernels vs libraries").
//
//   bench_kernels --db results.sqlite --device 0 [--repeat 20] [--clblast-tuned FILE] [--copy-mb 256]
//                 --case NAME:FILE:SIZES:ROUTINE ...
//
// --clblast-tuned FILE: parameters found by CLBlast's own tuner for this device (lines of
// `KERNEL NAME=VALUE ...` with the kernel names of clblast::OverrideParameters, e.g.
// `Xgemm KWG=32 MWG=128 ...` or `XgemvFast VW2=4 WGS2=128 WPT2=4`, every parameter of the
// kernel; `#` starts a comment; several lines of one kernel are alternatives). After the table,
// CLBlast is given them with clblast::OverrideParameters and every case whose routine uses a
// kernel of the file (Xgemm for sgemm, Xgemv/XgemvFast/XgemvFastRot for sgemv, Xdot for sdot and
// sasum, ...) is measured again, with each combination of the alternatives, the fastest taken:
// a second table puts ours next to CLBlast's defaults and CLBlast tuned
// (bench/kernels/clblast-tuned/ keeps the files, with how they were found).
// --copy-mb: the size of the copy that measures the device's bandwidth (default 256 MiB).
//
// ROUTINE is the BLAS routine the program computes (sgemm, sgemv, sdot, sasum, sscal). Our
// kernel may be a sequence (a reduction split across work-groups, finished on the device by a
// second kernel: codegen/ProgramCompiler.h), compiled, validated and timed as a whole, from the
// first kernel's start to the last one's end. CLBlast is timed with a host clock around the call
// and clFinish (it may launch several kernels), ours and the copy kernel with profiling events,
// OpenBLAS with a host clock.
//
// In turns: ours, OpenBLAS and CLBlast (and CLBlast tuned, with ours again) take turns, round
// after round, each running once untimed and once timed in its turn, so that all of them meet
// the same state of the machine (on a shared VM the memory bandwidth moves by 1.5x from one
// second to the next). The times are medians over the rounds, each ratio the median of the
// rounds' ratios.
#include <cblas.h>
#include <clblast.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <unordered_map>

#include "codegen/Evaluation.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/SizeList.h"
#include "core/lang/Parser.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchRunner.h"
#include "rewrite/explore/StoredDerivation.h"

using namespace lift;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// One timed run of a contestant, in milliseconds; 0 when it failed (it then leaves the turns).
using TimedRun = std::function<double()>;

// Milliseconds of one call of `f`, timed with a host clock.
double timeOnce(const std::function<void()>& f) {
  auto s = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - s).count();
}

// Median milliseconds of `reps` runs after `warmups` untimed ones, one after the other; 0 as soon
// as a run fails.
double medianOfRuns(int warmups, int reps, const TimedRun& run) {
  std::vector<double> t;
  for (int i = 0; i < warmups + reps; ++i) {
    double ms = run();
    if (ms <= 0) return 0;
    if (i >= warmups) t.push_back(ms);
  }
  return median(t);
}

// `rounds` rounds after `warmups` untimed ones; in each, every contestant in order runs once
// untimed and once timed (null contestants, and those that failed, sit out). The times of each.
std::vector<std::vector<double>> timeInTurns(std::vector<TimedRun> runs, int warmups, int rounds) {
  std::vector<std::vector<double>> times(runs.size());
  for (int r = 0; r < warmups + rounds; ++r)
    for (size_t i = 0; i < runs.size(); ++i) {
      if (!runs[i]) continue;
      double untimed = runs[i]();
      double ms = untimed > 0 ? runs[i]() : 0;
      if (ms <= 0) {
        runs[i] = nullptr;
        times[i].clear();
      } else if (r >= warmups) {
        times[i].push_back(ms);
      }
    }
  return times;
}

// How many times faster `a` was than `b`: the median over the rounds both ran of b / a.
double medianSpeedup(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) r.push_back(b[i] / a[i]);
  return median(r);
}

struct Case {
  std::string name, file, sizesText, routine;
  arith::Env sizes;
};

struct Row {
  std::string name, sizes, routine;
  int64_t M = 0, N = 0, K = 0;
  std::string metric;                                // "GFLOP/s" or "GB/s"
  double oursMs = 0, clblastMs = 0, openblasMs = 0;  // medians over the rounds
  double vsClblast = 0, vsOpenblas = 0;              // medians of the rounds' speed-ups of ours
  TimedRun oursRun;                                  // one timed run of our kernel (validated)
  double work = 0;                                   // flops or bytes
  std::string ours;                                  // parameters of our kernel, or why there is none
  std::string note;
};

std::vector<float> randomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

class Peers {
 public:
  explicit Peers(runtime::Device device) : ctx_(device) {}
  cl::Context& context() { return const_cast<cl::Context&>(ctx_.context()); }
  cl::CommandQueue& queue() { return ctx_.queue(); }

  cl::Buffer buffer(const std::vector<float>& host) {
    return cl::Buffer(context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(float),
                      const_cast<float*>(host.data()));
  }
  cl::Buffer buffer(size_t n) { return cl::Buffer(context(), CL_MEM_READ_WRITE, n * sizeof(float)); }

  // One CLBlast call as a contestant of the turns: milliseconds (host clock around the call and
  // clFinish), 0 with `error` set when CLBlast returns an error.
  TimedRun clblastRun(const std::function<clblast::StatusCode(cl_command_queue*)>& call, std::string& error) {
    return [this, call, &error] {
      cl_command_queue q = queue()();
      clblast::StatusCode status = clblast::StatusCode::kSuccess;
      double ms = timeOnce([&] {
        status = call(&q);
        clFinish(q);
      });
      if (status == clblast::StatusCode::kSuccess) return ms;
      error = fmt::format("CLBlast status {}", static_cast<int>(status));
      return 0.0;
    };
  }

  // The device's copy bandwidth in GB/s (read + write) for `bytes`: the better of a float4 copy
  // with one element a work-item (what GPUs want) and one with a contiguous block of 1024
  // float4 a work-item (what CPU devices want).
  double copyBandwidth(size_t bytes, int reps) {
    const char* src =
        "kernel void copy1(const global float4* restrict a, global float4* restrict b) {"
        "  size_t i = get_global_id(0); b[i] = a[i]; }\n"
        "kernel void copyBlock(const global float4* restrict a, global float4* restrict b) {"
        "  size_t i = get_global_id(0) * 1024; for (int j = 0; j < 1024; ++j) b[i + j] = a[i + j]; }\n";
    cl::Program p(context(), src);
    p.build();
    size_t n = bytes / 16 / 1024 * 1024;
    cl::Buffer a(context(), CL_MEM_READ_WRITE, n * 16), b(context(), CL_MEM_READ_WRITE, n * 16);
    queue().enqueueFillBuffer(a, 1.0f, 0, n * 16);
    double best = 0;
    for (const char* name : {"copy1", "copyBlock"}) {
      cl::Kernel k(p, name);
      k.setArg(0, a);
      k.setArg(1, b);
      size_t global = std::string(name) == "copy1" ? n : n / 1024;
      std::vector<double> t;
      for (int i = 0; i < reps + 2; ++i) {
        cl::Event e;
        queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NullRange, nullptr, &e);
        e.wait();
        double ms = (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                     e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                    1e-6;
        if (i >= 2) t.push_back(ms);
      }
      best = std::max(best, 2.0 * static_cast<double>(n * 16) / (median(t) * 1e6));
    }
    return best;
  }

 private:
  runtime::DeviceContext ctx_;
};

// One call of CLBlast for a case's routine on device buffers holding `host` (its inputs in the
// order of the routine's BLAS arguments: sgemm A, B; sgemv A, x, y; sdot x, y; sasum x; sscal
// x), with the output buffers it needs (the call holds them); a call for Peers::clblast.
using ClblastCall = std::function<clblast::StatusCode(cl_command_queue*)>;

ClblastCall clblastCall(const std::string& routine, int64_t M, int64_t N, int64_t K,
                        const std::vector<std::vector<float>>& host, Peers& peers) {
  std::vector<cl::Buffer> b;
  for (const auto& h : host) b.push_back(peers.buffer(h));
  if (routine == "sgemm") {
    b.push_back(peers.buffer(static_cast<size_t>(M * N)));
    return [=](cl_command_queue* q) {
      return clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                  clblast::Transpose::kNo, M, N, K, 1.0f, b[0](), 0, K, b[1](), 0, N, 0.0f,
                                  b[2](), 0, N, q);
    };
  }
  if (routine == "sgemv") {
    return [=](cl_command_queue* q) {
      return clblast::Gemv<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, M, N, 1.5f, b[0](), 0,
                                  N, b[1](), 0, 1, 0.5f, b[2](), 0, 1, q);
    };
  }
  if (routine == "sdot" || routine == "sasum") {
    b.push_back(peers.buffer(1));
    size_t n = host.at(0).size();
    if (routine == "sdot")
      return [=](cl_command_queue* q) {
        return clblast::Dot<float>(n, b[2](), 0, b[0](), 0, 1, b[1](), 0, 1, q);
      };
    return [=](cl_command_queue* q) { return clblast::Asum<float>(n, b[1](), 0, b[0](), 0, 1, q); };
  }
  if (routine == "sscal") {
    size_t n = host.at(0).size();
    return [=](cl_command_queue* q) { return clblast::Scal<float>(n, 1.0001f, b[0](), 0, 1, q); };
  }
  throw LiftError("unknown routine " + routine);
}

// The sizes of the routine's inputs, in clblastCall's order.
std::vector<size_t> clblastInputSizes(const std::string& routine, int64_t M, int64_t N, int64_t K) {
  auto u = [](int64_t v) { return static_cast<size_t>(v); };
  if (routine == "sgemm") return {u(M * K), u(K * N)};
  if (routine == "sgemv") return {u(M * N), u(N), u(M)};
  if (routine == "sdot") return {u(N), u(N)};
  return {u(N)};
}

// The kernels of CLBlast's database (OverrideParameters' names) that a routine uses.
std::vector<std::string> clblastKernels(const std::string& routine) {
  if (routine == "sgemm") return {"Xgemm", "XgemmDirect", "Copy", "Pad", "Transpose", "Padtranspose"};
  if (routine == "sgemv") return {"Xgemv", "XgemvFast", "XgemvFastRot"};
  if (routine == "sdot" || routine == "sasum") return {"Xdot"};
  if (routine == "sscal") return {"Xaxpy"};
  return {};
}

Case parseCase(const std::string& spec) {
  Case c;
  std::vector<std::string> parts;
  std::stringstream ss(spec);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.size() != 4) throw LiftError(fmt::format("--case {}: expected NAME:FILE:SIZES:ROUTINE", spec));
  c.name = parts[0];
  c.file = parts[1];
  c.sizesText = parts[2];
  c.routine = parts[3];
  interp::parseSizeList(parts[2], c.sizes);
  return c;
}

// Our best kernel of the case: replayed, compiled and validated in-process; row.oursRun times
// one run of it (profiling events) after a run that is validated again. `inputs` are the
// program's inputs, which the peers are given too.
void prepareOurs(const Case& c, explore::ResultStore& store, const std::string& deviceName,
                 runtime::KernelRunner& runner, Row& row, std::vector<interp::Value>& inputs) {
  ir::Program program = lang::parseFile(c.file);
  explore::SearchProblem problem = explore::SearchProblem::make(program, c.sizes);
  const std::optional<explore::KernelRecord> best =
      store.bestKernel(problem.startHash, problem.sizesText, deviceName);
  codegen::EvaluationRequest req;
  req.sizes = problem.sizes;
  req.reference = codegen::ReferenceChoice::parse(c.routine);
  auto ref = std::make_shared<const codegen::PreparedReference>(codegen::prepareReference(program, req));
  inputs = ref->inputs;
  if (!best) {
    row.ours = "no valid kernel in the store";
    return;
  }
  const explore::KernelRecord& k = *best;
  std::string why;
  auto derived = explore::replayStored(problem, k, &why);
  if (!derived) {
    row.ours = "the stored derivation no longer replays: " + why;
    return;
  }
  // The work-group size and code generator parameters of the search (StoredDerivation.h).
  const codegen::CompileOptions& options = derived->options;
  auto kernels =
      std::make_shared<const codegen::CompiledProgram>(codegen::compileProgram(derived->program, options));
  if (explore::kernelSourceHash(kernels->source()) != k.sourceHash)
    row.note = "source differs from the stored one";
  if (!kernels->singleKernel())
    row.note += fmt::format("{}{} kernels", row.note.empty() ? "" : "; ", kernels->stages.size());
  req.run.warmups = 1;
  req.run.repetitions = 1;
  req.run.returnOutputs = false;
  req.local = derived->localSize;
  codegen::Evaluation e = codegen::evaluate(derived->program, kernels, req, runner, ref.get());
  if (!e.ok()) {
    row.ours = e.summary();
    return;
  }
  row.ours =
      fmt::format("{} (store id {}, {})", k.parameters, k.id, e.validated() ? "valid" : "not validated");
  req.run.warmups = 0;
  row.oursRun = [program = derived->program, kernels, req, &runner, ref] {
    codegen::Evaluation run = codegen::evaluate(program, kernels, req, runner, ref.get());
    return run.ok() ? run.run.medianMs : 0.0;
  };
}

// The tuned parameters of a --clblast-tuned file: per kernel, one or more alternative parameter
// sets (a line each; the fastest at each size is taken).
using TunedSet = std::unordered_map<std::string, size_t>;
std::map<std::string, std::vector<TunedSet>> readTunedParameters(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw LiftError(fmt::format("--clblast-tuned: cannot read '{}'", file));
  std::map<std::string, std::vector<TunedSet>> out;
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string kernel, kv;
    if (!(words >> kernel)) continue;
    TunedSet params;
    while (words >> kv) {
      auto eq = kv.find('=');
      char* end = nullptr;
      unsigned long long v = eq == std::string::npos ? 0 : std::strtoull(kv.c_str() + eq + 1, &end, 10);
      if (eq == std::string::npos || eq == 0 || !end || *end)
        throw LiftError(fmt::format("{}:{}: expected NAME=VALUE, got '{}'", file, lineNo, kv));
      params[kv.substr(0, eq)] = static_cast<size_t>(v);
    }
    if (params.empty()) throw LiftError(fmt::format("{}:{}: {} has no parameters", file, lineNo, kernel));
    out[kernel].push_back(std::move(params));
  }
  if (out.empty()) throw LiftError(fmt::format("--clblast-tuned: '{}' has no parameters", file));
  return out;
}

std::string describe(const TunedSet& set) {
  std::map<std::string, size_t> sorted(set.begin(), set.end());
  std::string s;
  for (auto& [k, v] : sorted) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db, device = "0";
  int reps = 20;
  std::string tunedFile;
  std::vector<Case> cases;
  size_t copyBytes = 256u << 20;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw LiftError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--db")
      db = value();
    else if (a == "--device")
      device = value();
    else if (a == "--repeat")
      reps = std::stoi(value());
    else if (a == "--case")
      cases.push_back(parseCase(value()));
    else if (a == "--clblast-tuned")
      tunedFile = value();
    else if (a == "--copy-mb")
      copyBytes = std::stoull(value()) << 20;
    else {
      std::fprintf(
          stderr,
          "usage: bench_kernels --db FILE --device D [--repeat R] [--clblast-tuned FILE] [--copy-mb MB] "
          "--case NAME:FILE:SIZES:ROUTINE...\n");
      return 2;
    }
  }
  try {
    std::map<std::string, std::vector<TunedSet>> tuned;
    if (!tunedFile.empty()) tuned = readTunedParameters(tunedFile);
    std::vector<Row> rows;
    runtime::Device dev = runtime::Device::find(device);
    std::string deviceName = explore::deviceName(dev.info());
    explore::ResultStore store(db);
    runtime::KernelRunner runner(dev);
    Peers peers(dev);
    double copy = peers.copyBandwidth(copyBytes, reps);
    std::printf("device: %s\ncopy bandwidth (best float4 copy of %zu MiB, read + write): %.1f GB/s\n\n",
                deviceName.c_str(), copyBytes >> 20, copy);
    std::printf(
        "| case | sizes | ours ms | ours | CLBlast ms | CLBlast | OpenBLAS ms | OpenBLAS | ours / CLBlast | "
        "ours / OpenBLAS | of copy bw | our kernel |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Case& c : cases) {
      Row row;
      row.name = c.name;
      row.sizes = c.sizesText;
      row.routine = c.routine;
      std::vector<interp::Value> inputs;
      try {
        prepareOurs(c, store, deviceName, runner, row, inputs);
      } catch (const LiftError& e) {
        row.ours = e.what();
      }
      std::string err;
      auto scalars = [](const interp::Value& v) {
        return codegen::hostArrayOf(v, runtime::ScalarType::Float).floats();
      };
      int64_t M = c.sizes.count("M") ? c.sizes.at("M") : 0, N = c.sizes.count("N") ? c.sizes.at("N") : 0,
              K = c.sizes.count("K") ? c.sizes.at("K") : 0;
      row.M = M, row.N = N, row.K = K;
      // The routine's inputs as CLBlast and OpenBLAS take them (clblastCall's order): the
      // program's first ones (scal's x after its alpha).
      std::vector<std::vector<float>> host;
      size_t first = c.routine == "sscal" ? 1 : 0, count = clblastInputSizes(c.routine, M, N, K).size();
      for (size_t i = first; i < first + count && i < inputs.size(); ++i) host.push_back(scalars(inputs[i]));
      TimedRun openblas, clblastDefaults;
      std::vector<float> output;  // OpenBLAS's result (sgemm C, sgemv y)
      float sink = 0;
      if (host.size() < count) {
        row.note += fmt::format("{}no inputs for the peers", row.note.empty() ? "" : "; ");
      } else if (c.routine == "sgemm") {
        output.resize(static_cast<size_t>(M * N));
        row.metric = "GFLOP/s";
        row.work = 2.0 * M * N * K;
        openblas = [&] {
          return timeOnce([&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, host[0].data(), K,
                        host[1].data(), N, 0.0f, output.data(), N);
          });
        };
      } else if (c.routine == "sgemv") {
        row.metric = "GB/s";
        row.work = 4.0 * (M * N + N + 2.0 * M);
        openblas = [&] {
          output = host[2];
          return timeOnce([&] {
            cblas_sgemv(CblasRowMajor, CblasNoTrans, M, N, 1.5f, host[0].data(), N, host[1].data(), 1, 0.5f,
                        output.data(), 1);
          });
        };
      } else if (c.routine == "sdot" || c.routine == "sasum" || c.routine == "sscal") {
        int n = static_cast<int>(host.at(0).size());
        row.metric = "GB/s";
        row.work = c.routine == "sasum" ? 4.0 * n : 8.0 * n;
        openblas = [&, n] {
          return timeOnce([&] {
            if (c.routine == "sdot")
              sink += cblas_sdot(n, host[0].data(), 1, host[1].data(), 1);
            else if (c.routine == "sscal")
              cblas_sscal(n, 1.0001f, host[0].data(), 1);
            else
              sink += cblas_sasum(n, host[0].data(), 1);
          });
        };
      } else {
        row.note += fmt::format("{}unknown routine {}", row.note.empty() ? "" : "; ", c.routine);
      }
      if (openblas) clblastDefaults = peers.clblastRun(clblastCall(c.routine, M, N, K, host, peers), err);
      // Ours, OpenBLAS and CLBlast in turns.
      std::vector<std::vector<double>> t = timeInTurns({row.oursRun, openblas, clblastDefaults}, 1, reps);
      if (sink == 12345.678f) std::printf(" ");
      row.oursMs = median(t[0]);
      row.openblasMs = median(t[1]);
      row.clblastMs = median(t[2]);
      row.vsOpenblas = medianSpeedup(t[0], t[1]);
      row.vsClblast = medianSpeedup(t[0], t[2]);
      if (!err.empty()) row.note += (row.note.empty() ? "" : "; ") + err;
      auto rate = [&](double ms) {
        return ms > 0 ? fmt::format("{:.1f} {}", row.work / (ms * 1e6), row.metric) : std::string("-");
      };
      auto ratio = [](double r) { return r > 0 ? fmt::format("{:.2f}x", r) : std::string("-"); };
      std::string ofCopy = row.metric == "GB/s" && row.oursMs > 0
                               ? fmt::format("{:.0f} %", 100.0 * row.work / (row.oursMs * 1e6) / copy)
                               : "";
      std::printf("| %s | %s | %.4f | %s | %.4f | %s | %.4f | %s | %s | %s | %s | %s%s |\n", row.name.c_str(),
                  row.sizes.c_str(), row.oursMs, rate(row.oursMs).c_str(), row.clblastMs,
                  rate(row.clblastMs).c_str(), row.openblasMs, rate(row.openblasMs).c_str(),
                  ratio(row.vsClblast).c_str(), ratio(row.vsOpenblas).c_str(), ofCopy.c_str(),
                  row.ours.c_str(), row.note.empty() ? "" : (" — " + row.note).c_str());
      std::fflush(stdout);
      if (tuned.empty()) row.oursRun = nullptr;  // its inputs and expected outputs go
      rows.push_back(row);
    }
    if (!tuned.empty()) {
      // CLBlast with its tuner's parameters, after every measurement of its defaults (an
      // override stays for the rest of the process). For each case, every combination of the
      // alternatives of the kernels its routine uses (clblastKernels) is measured; the fastest
      // counts. Cases whose kernels the file does not tune are left out.
      cl_device_id id = dev.handle()();
      std::printf("\nCLBlast tuned (%s):\n\n", tunedFile.c_str());
      std::printf(
          "| case | sizes | ours | CLBlast defaults | CLBlast tuned | CLBlast tuned ms | ours / CLBlast "
          "tuned | "
          "parameters |\n");
      std::printf("|---|---|---|---|---|---|---|---|\n");
      for (const Row& row : rows) {
        std::vector<std::string> kernels;
        for (const std::string& k : clblastKernels(row.routine))
          if (tuned.count(k)) kernels.push_back(k);
        if (kernels.empty() || row.metric.empty()) continue;
        std::vector<std::vector<float>> host;
        uint64_t seed = 1;
        for (size_t n : clblastInputSizes(row.routine, row.M, row.N, row.K))
          host.push_back(randomFloats(n, seed++));
        ClblastCall call = clblastCall(row.routine, row.M, row.N, row.K, host, peers);
        double best = 0;
        std::string bestParams, errors;
        std::vector<size_t> choice(kernels.size(), 0), bestChoice;  // an alternative of each kernel
        // Gives CLBlast the alternatives `which` of the kernels; false when it refuses one.
        auto apply = [&](const std::vector<size_t>& which, std::string& params) {
          bool applied = true;
          for (size_t i = 0; i < kernels.size(); ++i) {
            const TunedSet& set = tuned.at(kernels[i])[which[i]];
            auto status = clblast::OverrideParameters(id, kernels[i], clblast::Precision::kSingle, set);
            if (status != clblast::StatusCode::kSuccess) {
              errors +=
                  fmt::format(" {} refused ({}): {};", kernels[i], static_cast<int>(status), describe(set));
              applied = false;
            }
            params += fmt::format("{}{} {}", params.empty() ? "" : "; ", kernels[i], describe(set));
          }
          return applied;
        };
        for (bool more = true; more;) {
          std::string params;
          if (apply(choice, params)) {
            std::string err;
            double ms = medianOfRuns(2, reps, peers.clblastRun(call, err));
            if (!err.empty()) errors += " " + err + ";";
            if (ms > 0 && (best == 0 || ms < best)) {
              best = ms;
              bestParams = params;
              bestChoice = choice;
            }
          }
          // The next combination (the last kernel's alternatives change fastest).
          more = false;
          for (size_t i = kernels.size(); i-- > 0;) {
            if (++choice[i] < tuned.at(kernels[i]).size()) {
              more = true;
              break;
            }
            choice[i] = 0;
          }
        }
        // Ours and the fastest combination in turns.
        double oursMs = row.oursMs, speedup = 0;
        std::string params;
        if (!bestChoice.empty() && row.oursRun && apply(bestChoice, params)) {
          std::string err;
          std::vector<std::vector<double>> t =
              timeInTurns({row.oursRun, peers.clblastRun(call, err)}, 1, reps);
          if (!err.empty()) errors += " " + err + ";";
          if (!t[1].empty()) best = median(t[1]);
          if (!t[0].empty()) oursMs = median(t[0]);
          speedup = medianSpeedup(t[0], t[1]);
        }
        double scale = row.metric == "GFLOP/s" ? 1e9 : 1e6;
        const char* unit = row.metric == "GFLOP/s" ? "TFLOP/s" : "GB/s";
        auto rate = [&](double t) {
          return t > 0 ? fmt::format("{:.1f} {}", row.work / (t * scale), unit) : std::string("-");
        };
        std::string ratio = speedup > 0 ? fmt::format("{:.2f}x", speedup) : "-";
        std::printf("| %s | %s | %s | %s | %s | %.4f | %s | %s%s |\n", row.name.c_str(), row.sizes.c_str(),
                    rate(oursMs).c_str(), rate(row.clblastMs).c_str(), rate(best).c_str(), best,
                    ratio.c_str(), bestParams.c_str(), errors.c_str());
        std::fflush(stdout);
      }
    }
  } catch (const LiftError& e) {
    std::fprintf(stderr, "bench_kernels: %s\n", e.what());
    return 2;
  } catch (const cl::Error& e) {
    std::fprintf(stderr, "bench_kernels: OpenCL error %s (%d)\n", e.what(), e.err());
    return 2;
  }
  return 0;
}
