// What a running search reports: value types only, so that the desktop app can copy them from
// the search's thread to the GUI thread (a queued signal) and plot every kernel live.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lift::explore {

enum class StopReason : uint8_t {
  None,         // still running
  Exhausted,    // the strategy has no more candidates
  TimeLimit,    // SearchLimits::seconds
  KernelLimit,  // SearchLimits::maxKernels
  Cancelled,    // SearchRunner::cancel
  Error,        // the set-up failed (no device, no liftc): SearchSummary::error says why
};
const char* toString(StopReason r);  // "exhausted", "time-limit", "kernel-limit", "cancelled", "error"

// Counts of one search so far.
struct SearchCounts {
  int64_t generated = 0;   // candidates the strategy proposed
  int64_t duplicates = 0;  // the same program or kernel source as an earlier candidate
  int64_t rejected = 0;    // failed derivations, heuristics and resource constraints
  int64_t otherShard = 0;  // left to another shard (--shard)
  int64_t compileFailed = 0;
  int64_t compiled = 0;   // dry run: compiled and within the limits (they would run)
  int64_t cached = 0;     // measured before (in the store): not measured again
  int64_t evaluated = 0;  // kernels run on a device in this search (any status)
  int64_t valid = 0;      // of those (and of the cached ones), correct results
  // Per phase of the strategy ("algorithmic", "mapping", "parameters", "random", "mutation"...):
  // candidates proposed.
  std::vector<std::pair<std::string, int64_t>> perPhase;
};

// One evaluated (or cached) kernel: a point of the live plot.
struct KernelEvent {
  int64_t index = 0;       // 1, 2, ... in the order of evaluation
  int64_t storeId = 0;     // row of `kernels` in the result store (0 without a store)
  double elapsedS = 0;     // since the search started
  std::string phase;       // what proposed it
  std::string derivation;  // the rewrite steps, one a line
  std::string parameters;  // "k=8,n=16,local=1x4"
  std::string device;
  std::string status;   // "ok", "wrong-result", "build-failed", "timeout", ...
  std::string message;  // why, when not ok
  double medianMs = 0, minMs = 0, maxMs = 0;
  double gflops = 0, gbs = 0;
  bool cached = false;   // from the store, not measured now
  bool newBest = false;  // the fastest valid kernel so far
  std::string sourceHash;
};

struct SearchEvent {
  enum class Kind : uint8_t {
    Activity,  // what the search is doing now (`activity`)
    Kernel,    // a kernel was evaluated (`kernel`)
    Finished,  // the search ended (`stopReason`)
  };
  Kind kind = Kind::Activity;
  double elapsedS = 0;
  std::string activity;  // "phase 1: algorithmic exploration (120 programs)", "evaluating ..."
  SearchCounts counts;
  KernelEvent kernel;  // Kind::Kernel
  double bestMs = 0;   // the fastest valid kernel so far (0: none yet)
  double bestGflops = 0;
  StopReason stopReason = StopReason::None;  // Kind::Finished
};

}  // namespace lift::explore
