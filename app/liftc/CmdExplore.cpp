// liftc explore FILE.lift --device D --size N=... (--budget 10m | --max-kernels K) --db FILE
//               [--strategy three-phase|random|evolution] [--seed S] [--shard I/N] [--depth D]
//               [--top N] [--repeat R] [--timeout S] [--no-resume] [--no-warm-start]
//               [--first-guesses N] [--no-reference-cache] [--no-compiler-warm-up] [--quiet]
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
// store holds for the same program at other sizes (--no-warm-start: from scratch). Both the
// evolution and the three phases first measure a few first guesses, the templates a
// device-aware rank puts first (rewrite/explore/StagedTemplateSpace.h; --first-guesses N, default
// 3, 0: none; --first-stage-depth D: among derivations of at most D steps, measured while phase 1
// goes on). The worker starts the OpenCL compiler while the expected outputs and phases 1 and 2
// are made (--no-compiler-warm-up: not). The inputs and expected outputs are kept between searches of the
// same program, sizes and seed (codegen/ReferenceCache.h, ~/.cache/lift-studio/references;
// --no-reference-cache: made again).
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
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
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
  if (text.empty()) throw LiftError("expected a duration such as 90s, 10m or 1h");
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
      throw LiftError(fmt::format("unknown unit '{}' in '{}' (use s, m or h)", unit, text));
  }
  char* end = nullptr;
  double v = std::strtod(number.c_str(), &end);
  if (number.empty() || *end || !(v > 0))
    throw LiftError(fmt::format("expected a positive duration such as 90s, 10m or 1h, got '{}'", text));
  return v * scale;
}

struct ExploreArgs {
  std::string file, db, strategy = "three-phase";
  arith::Env sizes;
  std::vector<std::string> devices;
  std::optional<runtime::DeviceInfo> described;  // --device-info
  double budgetSeconds = 0;
  int64_t maxKernels = 0, depth = 5, top = 5, repeat = 0, timeout = 0;
  uint64_t seed = 1;
  std::pair<int, int> shard{0, 1};
  codegen::ReferenceChoice reference;
  bool noResume = false, noWarmStart = false, noReferenceCache = false, noWarmUp = false, quiet = false,
       dryRun = false;
  int64_t firstGuesses = 3, firstStageDepth = 1000;
};

// An option whose value `parse` turns into `into` as the command line is parsed; a LiftError
// from it is a usage error of that option.
template <class T, class Parse>
CLI::Option* addParsedOption(CLI::App& cmd, const std::string& name, T& into, Parse parse,
                             const std::string& help) {
  return cmd.add_option_function<std::string>(
      name,
      [&into, parse, name](const std::string& text) {
        try {
          into = parse(text);
        } catch (const LiftError& e) {
          badArgument(name, e.diagnostic().message);
        }
      },
      help);
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
  if (item != "gpu" && item != "cpu") throw LiftError(fmt::format("starts with gpu or cpu, got '{}'", item));
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
      throw LiftError(fmt::format("expected NAME=POSITIVE-NUMBER, got '{}'", item));
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
          fmt::format("unknown '{}' (compute-units, local-memory, global-memory, max-alloc, "
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

int runExplore(const ExploreArgs& args) {
  if (args.budgetSeconds <= 0 && args.maxKernels <= 0)
    badUsage("give a limit: --budget DURATION (e.g. 10m) or --max-kernels K");
  if (!args.dryRun && args.db.empty())
    badUsage("--db FILE: the result store is required (it is created if missing)");
  ir::Program program = lang::parseFile(args.file);

  arith::Env sizes = args.sizes;
  checkSizeNames(sizes, program);
  for (auto& d : program.sizes)
    if (!sizes.count(d.name) && d.defaultValue) sizes[d.name] = *d.defaultValue;
  explore::SearchProblem problem = explore::SearchProblem::make(program, sizes);

  explore::SearchOptions o;
  o.programLabel = args.file;
  o.strategy = args.strategy;
  o.seed = args.seed;
  o.limits.seconds = args.budgetSeconds;
  o.limits.maxKernels = args.maxKernels;
  o.limits.maxDepth = static_cast<int>(args.depth);
  if (args.noWarmStart) o.warmStart = 0;
  o.firstGuesses = static_cast<size_t>(args.firstGuesses);
  o.firstStageDepth = static_cast<int>(args.firstStageDepth);
  if (args.noReferenceCache) o.referenceCacheDir = std::filesystem::path();
  if (args.noWarmUp) o.warmUpCompiler = false;
  std::tie(o.shardIndex, o.shardCount) = args.shard;
  o.devices = args.devices;
  if (o.devices.empty()) o.devices = {"0"};
  if (args.repeat > 0) o.run.repetitions = static_cast<int>(args.repeat);
  if (args.timeout > 0) o.run.timeoutMs = static_cast<double>(args.timeout) * 1000;
  o.resume = !args.noResume;
  o.reference = args.reference;
  bool dryRun = args.dryRun;
  if (dryRun) o.dryRun = args.described ? *args.described : runtime::Device::find(o.devices.front()).info();
  std::optional<explore::ResultStore> store;
  if (!args.db.empty()) store.emplace(args.db);

  bool quiet = args.quiet;
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
  printBest(summary.best, static_cast<size_t>(args.top));
  return kExitOk;
}

CommandRegistration reg(
    {"explore", "search derivations and parameters of a program for fast kernels", [](CLI::App& cmd) {
       auto args = std::make_shared<ExploreArgs>();
       addProgramArgument(cmd, args->file);
       addDeviceOption(cmd, args->devices);
       addSizeOption(cmd, args->sizes, "256");
       addParsedOption(cmd, "--budget", args->budgetSeconds, parseBudget,
                       "the time to search, e.g. 90s, 10m, 1.5h")
           ->type_name("DURATION");
       cmd.add_option("--max-kernels", args->maxKernels, "stop after this many kernels")
           ->check(integerIn(1, std::numeric_limits<int64_t>::max()))
           ->type_name("K");
       cmd.add_option("--db", args->db,
                      "the result store (created if missing; a later search resumes from it)")
           ->type_name("FILE");
       addParsedOption(
           cmd, "--strategy", args->strategy,
           [](const std::string& name) {
             explore::makeStrategy(name, {});  // an unknown name is an error now
             return name;
           },
           "three-phase (default), random or evolution")
           ->type_name("S");
       cmd.add_option("--seed", args->seed, "the seed of the strategy (default 1)")
           ->check(integerIn(1, std::numeric_limits<int64_t>::max()));
       addParsedOption(cmd, "--shard", args->shard, explore::parseShard,
                       "evaluate only the candidates of hash class I of N (0 <= I < N)")
           ->type_name("I/N");
       cmd.add_option("--depth", args->depth, "the deepest derivation (default 5)")
           ->check(integerIn(1, 1000));
       cmd.add_option("--top", args->top, "how many of the best kernels to print (default 5)")
           ->check(integerIn(1));
       cmd.add_option("--repeat", args->repeat, "timed runs of each kernel")->check(integerIn(1));
       cmd.add_option("--timeout", args->timeout, "seconds one run may take")->check(integerIn(1, 1000000));
       addReferenceOption(cmd, args->reference);
       cmd.add_flag("--no-resume", args->noResume, "measure again what the store holds");
       cmd.add_flag("--no-warm-start", args->noWarmStart,
                    "evolution: start from scratch, not from the store's fastest kernels");
       cmd.add_option("--first-guesses", args->firstGuesses,
                      "templates of the starts measured while phases 1 and 2 run (default 3; 0: "
                      "phases 1 and 2 first)")
           ->check(integerIn(0, 1000));
       cmd.add_option("--first-stage-depth", args->firstStageDepth,
                      "algorithmic steps of the first guesses' derivations (default: the whole "
                      "depth; less: measured while phase 1 goes on)")
           ->check(integerIn(0, 1000));
       cmd.add_flag("--no-compiler-warm-up", args->noWarmUp,
                    "the worker does not build a small program before the first kernel");
       cmd.add_flag("--no-reference-cache", args->noReferenceCache,
                    "make the inputs and expected outputs again, not from an earlier search");
       cmd.add_flag("--quiet", args->quiet, "no progress lines");
       auto* dryRun = cmd.add_flag("--dry-run", args->dryRun,
                                   "compile the candidates and check them against the "
                                   "device's limits; run nothing, store nothing");
       addParsedOption(cmd, "--device-info", args->described, describedDevice,
                       "with --dry-run: a device this machine lacks, e.g. "
                       "gpu,compute-units=132,local-memory=48K,work-group=1024")
           ->type_name("SPEC")
           ->needs(dryRun);
       return [args] { return runExplore(*args); };
     }});

}  // namespace
}  // namespace lift::liftc
