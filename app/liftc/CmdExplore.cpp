// liftc explore FILE.lift --device D --size N=... (--budget 10m | --max-kernels K) --db FILE
//               [--strategy three-phase|random|evolution] [--seed S] [--shard I/N] [--depth D]
//               [--top N] [--repeat R] [--timeout S] [--no-resume] [--no-warm-start] [--quiet]
// liftc explore FILE.lift --dry-run [--device D | --device-info SPEC] --size N=... [--max-kernels K] ...
// searches derivations and parameters of a high-level program for fast kernels on a device
// (rewrite/explore/SearchRunner.h), storing every evaluated kernel in an SQLite store that a
// later search resumes from. A live progress line (kernels evaluated, valid, best so far) goes
// to stderr; the best kernels with their derivations are printed at the end.
//
// --device may be given several times: one worker per device, all feeding the store (for a
// machine with several identical GPUs). --shard I/N evaluates only the candidates of hash class
// I of N, so that N machines (Slurm array jobs, MPI ranks) split one search; merge their
// stores with `liftc results --merge`. The evolution strategy starts from the fastest kernels the
// store holds for the same program at other sizes (--no-warm-start: from scratch).
//
// --dry-run compiles every candidate the strategy proposes and checks it against the device's
// limits without running anything (no worker, no store): one line per candidate with its
// status (compiled, compile-failed, constraint, invalid-launch) and why, then the count of each
// status and of each code-generator message. The device is --device, looked up in this process,
// or one described by --device-info (a device this machine lacks): "gpu" or "cpu", then
// comma-separated compute-units=N, local-memory=BYTES, global-memory=BYTES, max-alloc=BYTES
// (the largest buffer; BYTES may end in K, M or G), work-group=N (the largest work-group, also
// per dimension but the third, 64), vector-width=N (preferred float vector width); what is not
// given is as DeviceLimits assumes. An H100 (as its OpenCL driver reports it):
// gpu,compute-units=132,local-memory=48K,global-memory=79G,max-alloc=19G,work-group=1024,vector-width=1
// --max-kernels counts the candidates that compile or fail to.
//
// Exit status: 0 when the search ended (any stop reason but an error), 2 for bad input or a
// set-up error (no device, no reference).
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "app/liftc/Command.h"
#include "codegen/runtime/Device.h"
#include "core/lang/Parser.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchRunner.h"

namespace lift::liftc {
namespace {

std::atomic<bool> gInterrupted{false};
extern "C" void onInterrupt(int) { gInterrupted.store(true); }

// "90", "90s", "10m", "1.5h" -> seconds.
double parseBudget(const std::string& text) {
  if (text.empty()) throw LiftError("--budget: expected a duration such as 90s, 10m or 1h");
  char unit = text.back();
  std::string number =
      std::isdigit(static_cast<unsigned char>(unit)) ? text : text.substr(0, text.size() - 1);
  double scale = 1;
  if (!std::isdigit(static_cast<unsigned char>(unit))) {
    if (unit == 's')
      scale = 1;
    else if (unit == 'm')
      scale = 60;
    else if (unit == 'h')
      scale = 3600;
    else
      throw LiftError(fmt::format("--budget: unknown unit '{}' in '{}' (use s, m or h)", unit, text));
  }
  char* end = nullptr;
  double v = std::strtod(number.c_str(), &end);
  if (number.empty() || *end || !(v > 0))
    throw LiftError(
        fmt::format("--budget: expected a positive duration such as 90s, 10m or 1h, got '{}'", text));
  return v * scale;
}

int64_t positive(const Args& args, const std::string& opt, int64_t def) {
  if (!args.has(opt)) return def;
  std::string v = args.get(opt);
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end || n < 1)
    throw LiftError(fmt::format("{}: expected a positive integer, got '{}'", opt, v));
  return n;
}

std::string oneLine(const std::string& derivation) {
  std::string s = derivation;
  for (size_t p = s.find('\n'); p != std::string::npos; p = s.find('\n', p)) s.replace(p, 1, "; ");
  return s;
}

// A device described by --device-info (see the file comment).
runtime::DeviceInfo describedDevice(const std::string& spec) {
  runtime::DeviceInfo d;
  std::istringstream in(spec);
  std::string item;
  std::getline(in, item, ',');
  if (item != "gpu" && item != "cpu")
    throw LiftError(fmt::format("--device-info: starts with gpu or cpu, got '{}'", item));
  d.type = item == "gpu" ? "GPU" : "CPU";
  d.name = fmt::format("described device {}", spec);
  d.platformName = "dry run";
  while (std::getline(in, item, ',')) {
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq), text = eq == std::string::npos ? "" : item.substr(eq + 1);
    uint64_t scale = 1;
    for (auto [suffix, bytes] : {std::pair{'K', 1ull << 10}, {'M', 1ull << 20}, {'G', 1ull << 30}})
      if (!text.empty() && text.back() == suffix) scale = bytes;
    if (scale > 1) text.pop_back();
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end || v == 0)
      throw LiftError(fmt::format("--device-info: expected NAME=POSITIVE-NUMBER, got '{}'", item));
    v *= scale;
    if (key == "compute-units")
      d.computeUnits = static_cast<uint32_t>(v);
    else if (key == "local-memory")
      d.localMemBytes = v;
    else if (key == "global-memory")
      d.globalMemBytes = v;
    else if (key == "max-alloc")
      d.maxAllocBytes = v;
    else if (key == "work-group") {
      d.maxWorkGroupSize = v;
      d.maxWorkItemSizes = {v, v, std::min<uint64_t>(v, 64)};
    } else if (key == "vector-width")
      d.preferredFloatVectorWidth = static_cast<uint32_t>(v);
    else
      throw LiftError(
          fmt::format("--device-info: unknown '{}' (compute-units, local-memory, global-memory, max-alloc, "
                      "work-group, vector-width)",
                      key));
  }
  return d;
}

// A dry run's summary: candidates by status, and those the code generator refused by message.
void printDryRun(const std::vector<explore::KernelEvent>& kernels) {
  std::map<std::string, int64_t> byStatus, byMessage;
  for (const explore::KernelEvent& k : kernels) {
    ++byStatus[k.status];
    if (k.status == "compile-failed") ++byMessage[k.message];
  }
  std::printf("\nby status:\n");
  for (auto& [status, n] : byStatus) std::printf("%6lld  %s\n", static_cast<long long>(n), status.c_str());
  if (byMessage.empty()) return;
  std::printf("\ncompile-failed by message:\n");
  for (auto& [message, n] : byMessage) std::printf("%6lld  %s\n", static_cast<long long>(n), message.c_str());
}

void printBest(const std::vector<explore::KernelRecord>& best, size_t top) {
  if (best.empty()) {
    std::printf("no valid kernel found\n");
    return;
  }
  std::printf("\n%-4s %10s %10s %9s  %-28s %s\n", "#", "median ms", "GFLOP/s", "GB/s", "parameters",
              "store id");
  for (size_t i = 0; i < best.size() && i < top; ++i) {
    const auto& k = best[i];
    std::printf("%-4zu %10.4f %10.2f %9.2f  %-28s %lld\n", i + 1, k.medianMs, k.gflops, k.gbs,
                k.parameters.c_str(), static_cast<long long>(k.id));
  }
  std::printf("\nderivations:\n");
  for (size_t i = 0; i < best.size() && i < top; ++i)
    std::printf("%zu. %s\n", i + 1, oneLine(best[i].derivation).c_str());
}

int runExplore(const Args& args) {
  if (args.positional.size() != 1)
    throw LiftError(
        "usage: liftc explore FILE.lift --device D --size N=... --budget 10m|--max-kernels K --db FILE");
  ir::Program program = lang::parseFile(args.positional[0]);

  arith::Env sizes;
  for (const std::string& s : args.all("--size")) explore::parseSizes(s, sizes);
  for (auto& [name, value] : sizes)
    if (!program.findSize(name)) {
      std::string names;
      for (auto& d : program.sizes) names += (names.empty() ? "" : ", ") + d.name;
      throw LiftError(fmt::format("--size: the program has no size '{}' (its sizes: {})", name,
                                  names.empty() ? "none" : names));
    }
  for (auto& d : program.sizes)
    if (!sizes.count(d.name) && d.defaultValue) sizes[d.name] = *d.defaultValue;
  explore::SearchProblem problem = explore::SearchProblem::make(program, sizes);

  explore::SearchOptions o;
  o.programLabel = args.positional[0];
  o.strategy = args.get("--strategy", "three-phase");
  explore::makeStrategy(o.strategy, {});  // an unknown name is an error now, not after the set-up
  o.seed = static_cast<uint64_t>(positive(args, "--seed", 1));
  if (args.has("--budget")) o.limits.seconds = parseBudget(args.get("--budget"));
  o.limits.maxKernels = positive(args, "--max-kernels", 0);
  o.limits.maxDepth = static_cast<int>(positive(args, "--depth", 5));
  if (args.has("--no-warm-start")) o.warmStart = 0;
  if (o.limits.seconds <= 0 && o.limits.maxKernels <= 0)
    throw LiftError("give a limit: --budget DURATION (e.g. 10m) or --max-kernels K");
  if (args.has("--shard")) std::tie(o.shardIndex, o.shardCount) = explore::parseShard(args.get("--shard"));
  o.devices = args.all("--device");
  if (o.devices.empty()) o.devices = {"0"};
  o.run.repetitions = static_cast<int>(positive(args, "--repeat", o.run.repetitions));
  if (args.has("--timeout")) o.run.timeoutMs = static_cast<double>(positive(args, "--timeout", 5)) * 1000;
  o.resume = !args.has("--no-resume");
  if (args.has("--reference")) o.reference = codegen::ReferenceChoice::parse(args.get("--reference"));
  bool dryRun = args.has("--dry-run");
  if (dryRun)
    o.dryRun = args.has("--device-info") ? describedDevice(args.get("--device-info"))
                                         : runtime::Device::find(o.devices.front()).info();
  else if (args.has("--device-info"))
    throw LiftError("--device-info describes the device of a --dry-run");
  std::optional<explore::ResultStore> store;
  if (args.has("--db"))
    store.emplace(args.get("--db"));
  else if (!dryRun)
    throw LiftError("--db FILE: the result store is required (it is created if missing)");

  bool quiet = args.has("--quiet");
  bool tty = isatty(fileno(stderr));
  explore::SearchRunner runner(problem, o, store ? &*store : nullptr);
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load()) {
      if (gInterrupted.load()) {
        runner.cancel();
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });

  std::fprintf(stderr, "explore %s at %s, strategy %s, seed %llu%s\n", program.name.c_str(),
               problem.sizesText.c_str(), o.strategy.c_str(), static_cast<unsigned long long>(o.seed),
               o.shardCount > 1 ? fmt::format(", shard {}/{}", o.shardIndex, o.shardCount).c_str() : "");
  std::string lastActivity;
  std::vector<explore::KernelEvent> dryKernels;
  explore::SearchSummary summary = runner.run([&](const explore::SearchEvent& e) {
    if (dryRun && e.kind == explore::SearchEvent::Kind::Kernel) {
      const explore::KernelEvent& k = e.kernel;
      dryKernels.push_back(k);
      std::printf("#%lld %s %s | %s%s%s\n", static_cast<long long>(k.index), k.status.c_str(),
                  k.parameters.c_str(), oneLine(k.derivation).c_str(), k.message.empty() ? "" : " | ",
                  k.message.c_str());
      return;
    }
    if (quiet) return;
    std::string status = fmt::format(
        "[{:6.1f}s] kernels {} (valid {}, cached {}, rejected {}, duplicates {})", e.elapsedS,
        e.counts.evaluated, e.counts.valid, e.counts.cached, e.counts.rejected, e.counts.duplicates);
    if (e.bestMs > 0) status += fmt::format("  best {:.4f} ms {:.1f} GFLOP/s", e.bestMs, e.bestGflops);
    if (e.kind == explore::SearchEvent::Kind::Activity) {
      if (e.activity == lastActivity) return;
      lastActivity = e.activity;
      std::fprintf(stderr, "%s%s  %s\n", tty ? "\r\033[K" : "", status.c_str(), e.activity.c_str());
    } else if (e.kind == explore::SearchEvent::Kind::Kernel) {
      const explore::KernelEvent& k = e.kernel;
      std::string what =
          k.status == "ok" ? fmt::format("{:.4f} ms {:.1f} GFLOP/s", k.medianMs, k.gflops) : k.status;
      if (tty)
        std::fprintf(stderr, "\r\033[K%s  #%lld %s %s%s", status.c_str(), static_cast<long long>(k.index),
                     what.c_str(), k.parameters.c_str(), k.newBest ? " (new best)\n" : "");
      else
        std::fprintf(stderr, "%s  #%lld %s%s %s%s\n", status.c_str(), static_cast<long long>(k.index),
                     what.c_str(), k.cached ? " (stored)" : "", k.parameters.c_str(),
                     k.newBest ? " (new best)" : "");
    } else {
      std::fprintf(stderr, "%s%s  %s\n", tty ? "\r\033[K" : "", status.c_str(), e.activity.c_str());
    }
    std::fflush(stderr);
  });
  done.store(true);
  watcher.join();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  if (summary.stopReason == explore::StopReason::Error) throw LiftError(summary.error);
  const auto& c = summary.counts;
  if (dryRun) {
    std::printf("\ndry run on %s: %s after %.1f s\n", summary.device.c_str(),
                explore::toString(summary.stopReason), summary.seconds);
    std::printf("candidates %lld: compiled %lld, compile failed %lld, rejected %lld, duplicates %lld\n",
                static_cast<long long>(c.generated), static_cast<long long>(c.compiled),
                static_cast<long long>(c.compileFailed), static_cast<long long>(c.rejected),
                static_cast<long long>(c.duplicates));
    printDryRun(dryKernels);
    return kExitOk;
  }
  std::printf("search %lld on %s: %s after %.1f s\n", static_cast<long long>(summary.searchId),
              summary.device.c_str(), explore::toString(summary.stopReason), summary.seconds);
  std::printf(
      "candidates %lld: evaluated %lld, valid %lld, stored before %lld, duplicates %lld, rejected %lld, "
      "compile failed %lld, other shards %lld\n",
      static_cast<long long>(c.generated), static_cast<long long>(c.evaluated),
      static_cast<long long>(c.valid), static_cast<long long>(c.cached), static_cast<long long>(c.duplicates),
      static_cast<long long>(c.rejected), static_cast<long long>(c.compileFailed),
      static_cast<long long>(c.otherShard));
  std::string phases;
  for (auto& [p, n] : c.perPhase) phases += fmt::format("{}{} {}", phases.empty() ? "" : ", ", p, n);
  if (!phases.empty()) std::printf("proposed by phase: %s\n", phases.c_str());
  printBest(summary.best, static_cast<size_t>(positive(args, "--top", 5)));
  return kExitOk;
}

CommandRegistration reg({"explore",
                         "explore FILE.lift --device D --size N=... --budget 10m|--max-kernels K --db FILE "
                         "[--strategy three-phase|random|evolution] [--seed S] [--shard I/N] [--depth D] "
                         "[--top N] [--no-resume] [--no-warm-start] [--dry-run [--device-info SPEC]]",
                         {"--no-resume", "--no-warm-start", "--quiet", "--dry-run"},
                         {"--device", "--size", "--budget", "--max-kernels", "--db", "--strategy", "--seed",
                          "--shard", "--depth", "--top", "--repeat", "--timeout", "--reference",
                          "--device-info"},
                         runExplore});

}  // namespace
}  // namespace lift::liftc
