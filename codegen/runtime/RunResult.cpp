// Status names and the summary of a run.
#include "codegen/runtime/RunResult.h"

#include <fmt/format.h>

#include <algorithm>

namespace lift::runtime {

const char* toString(RunStatus s) {
  switch (s) {
    case RunStatus::Ok:
      return "ok";
    case RunStatus::WrongResult:
      return "wrong-result";
    case RunStatus::BuildFailed:
      return "build-failed";
    case RunStatus::LaunchFailed:
      return "launch-failed";
    case RunStatus::Timeout:
      return "timeout";
    case RunStatus::Crashed:
      return "crashed";
    case RunStatus::OutOfResources:
      return "out-of-resources";
    case RunStatus::Cancelled:
      return "cancelled";
  }
  return "?";
}

const char* toString(BuildSource s) {
  switch (s) {
    case BuildSource::None:
      return "none";
    case BuildSource::Compiled:
      return "compiled";
    case BuildSource::MemoryCache:
      return "memory-cache";
    case BuildSource::DiskCache:
      return "disk-cache";
  }
  return "?";
}

std::string RunResult::summary() const {
  std::string times;
  if (!timesMs.empty())
    times = fmt::format("median {:.4f} ms (min {:.4f}, max {:.4f}, {} runs)", medianMs, minMs, maxMs,
                        timesMs.size());
  if (status == RunStatus::Ok) return fmt::format("ok: {}", times);
  std::string s = fmt::format("{}: {}", toString(status), message);
  if (!clError.empty() && message.find(clError) == std::string::npos) s += " (" + clError + ")";
  return s;
}

void RunResult::setTimes(std::vector<double> samples) {
  timesMs = std::move(samples);
  if (timesMs.empty()) {
    medianMs = minMs = maxMs = 0;
    return;
  }
  std::vector<double> sorted = timesMs;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  medianMs = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  minMs = sorted.front();
  maxMs = sorted.back();
}

}  // namespace lift::runtime
