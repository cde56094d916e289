// The search runner (egg's Runner, for kernels): runs a strategy under explicit limits (time,
// number of kernels, derivation depth), evaluates each candidate through the isolated worker
// (one per device, all feeding one result store), deduplicates programs by structural hash and
// kernels by their OpenCL source, type-checks every candidate (the rewrite engine does) and
// checks the resource constraints before anything runs, skips what the store has measured
// (resume), and reports progress as value-type events. It ends with a StopReason. A dry run
// (SearchOptions::dryRun) compiles and checks the candidates for a described device without one.
//
// The desktop app runs a search in the background:
//
//   auto runner = std::make_shared<explore::SearchRunner>(problem, options, &store);
//   std::thread([runner, receiver] {
//     runner->run([receiver](const explore::SearchEvent& e) {
//       QMetaObject::invokeMethod(receiver, [receiver, e] { receiver->onSearchEvent(e); },
//                                 Qt::QueuedConnection);       // copied to the GUI thread
//     });
//   }).detach();
//   ...
//   runner->cancel();  // the stop button: the kernel in flight is killed, run() returns soon
//
// Events come from the search's threads (one per device), one at a time (never concurrently).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Evaluation.h"
#include "codegen/runtime/RunResult.h"
#include "rewrite/explore/Constraints.h"
#include "rewrite/explore/Heuristics.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchEvent.h"
#include "rewrite/explore/SearchProblem.h"
#include "rewrite/explore/SearchStrategy.h"

namespace lift::runtime {
class WorkerClient;
}

namespace lift::explore {

struct SearchLimits {
  double seconds = 0;      // wall-clock budget (0: none)
  int64_t maxKernels = 0;  // kernels run on a device by this search (0: no limit)
  int maxDepth = 5;        // algorithmic rewrites in a derivation (phase 1 depth)
};

struct SearchOptions {
  std::string strategy = "three-phase";
  uint64_t seed = 1;
  SearchLimits limits;
  int shardIndex = 0, shardCount = 1;  // --shard i/n: this search evaluates the candidates of hash class i
  std::vector<std::string> devices = {"0"};       // one worker per device (identical devices: one space)
  std::string liftcPath;                          // empty: WorkerClient::findLiftc()
  std::optional<std::filesystem::path> cacheDir;  // the workers' build cache (nullopt: the default)
  // Where the inputs and expected outputs are kept between searches (codegen/ReferenceCache.h):
  // nullopt: cacheDir's folder "references" (cacheDir nullopt: ReferenceCache::defaultDir(); an
  // empty cacheDir: none); an empty path: none.
  std::optional<std::filesystem::path> referenceCacheDir;
  runtime::RunOptions run = [] {
    runtime::RunOptions r;
    r.warmups = 1;
    r.repetitions = 5;
    r.returnOutputs = false;
    r.timeoutMs = 5'000;
    r.buildTimeoutMs = 60'000;
    return r;
  }();
  codegen::ReferenceChoice reference;  // expected outputs (auto: interpreter or OpenBLAS)
  HeuristicLimits heuristics;
  std::optional<DeviceLimits> deviceLimits;  // default: from the first device
  bool resume = true;                        // skip candidates the store has measured
  int warmStart = 8;           // hints: the fastest stored kernels of the program at other sizes
  size_t firstGuesses = 3;     // StrategyOptions::firstGuesses (0: phases 1 and 2 first, one stage)
  int firstStageDepth = 1000;  // StrategyOptions::firstStageDepth (default: the whole depth)
  bool warmUpCompiler = true;  // WorkerOptions::warmUp: the OpenCL compiler starts with the worker
  std::string programLabel;    // the program's path or name, for the store
  double phase1Share = 0.25;   // of the time budget, at most, for phases 1 and 2
  uint64_t inputSeed = 1;      // the inputs every kernel is run on
  // A dry run for this device: every candidate is compiled and checked against the limits
  // (deviceLimits, default: DeviceLimits::of this device) and nothing runs — no worker, no
  // reference, nothing stored or resumed. Each candidate that is not a duplicate is reported as
  // a kernel event with status "compile-failed" (the code generator's message), "constraint" or
  // "invalid-launch" (why) or "compiled" (it would run); limits.maxKernels counts the
  // candidates that are compiled or fail to compile (what a real search evaluates or counts
  // as compile failed).
  std::optional<runtime::DeviceInfo> dryRun;
};

struct SearchSummary {
  StopReason stopReason = StopReason::None;
  std::string error;  // StopReason::Error
  SearchCounts counts;
  double seconds = 0;
  int64_t searchId = 0;  // in the store
  std::string device;    // the first device
  double bestMs = 0, bestGflops = 0;
  std::vector<KernelRecord> best;  // the fastest valid kernels of this search (cached ones included)
};

class SearchRunner {
 public:
  using EventSink = std::function<void(const SearchEvent&)>;

  // `store` may be null (nothing stored, nothing resumed).
  SearchRunner(SearchProblem problem, SearchOptions options, ResultStore* store = nullptr);
  ~SearchRunner();
  SearchRunner(const SearchRunner&) = delete;
  SearchRunner& operator=(const SearchRunner&) = delete;

  // Runs the search to a stop reason. Blocks: run it on a background thread.
  SearchSummary run(const EventSink& onEvent = {});
  // From any thread: stops the search (the kernel in flight is killed).
  void cancel();
  bool cancelRequested() const { return cancel_.load(); }

  const SearchProblem& problem() const { return problem_; }
  const SearchOptions& options() const { return options_; }

 private:
  struct Impl;
  SearchProblem problem_;
  SearchOptions options_;
  ResultStore* store_;
  std::atomic<bool> cancel_{false};
  std::mutex workersMutex_;                      // workers_ and referenceStop_
  std::vector<runtime::WorkerClient*> workers_;  // for cancel()
  // The running search's stop flag for its reference's thread (for cancel()); run() sets it on
  // every way out, so that its end never waits for expected outputs it will not use.
  std::atomic<bool>* referenceStop_ = nullptr;
};

// Whether a candidate key belongs to shard i of n (a stable hash of the key).
bool inShard(const std::string& key, int index, int count);

// "i/n" -> (i, n); throws LiftError unless 0 <= i < n.
std::pair<int, int> parseShard(const std::string& text);

// The store's name for a device: "NAME (PLATFORM)".
std::string deviceName(const runtime::DeviceInfo& d);

}  // namespace lift::explore
