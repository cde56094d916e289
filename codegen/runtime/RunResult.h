// RunResult: what one evaluation of a kernel gave — a status (ok, wrong result, build failed,
// launch failed with the OpenCL error name, timeout, crashed, out of resources, cancelled),
// kernel times from profiling events, the validation report and the output buffers — and the
// RunOptions that say how to evaluate (warm-ups, repetitions, tolerance, timeouts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/runtime/HostArray.h"
#include "codegen/runtime/Validation.h"
#include "core/support/Diagnostic.h"

namespace lift::runtime {

enum class RunStatus : uint8_t {
  Ok,
  WrongResult,
  BuildFailed,
  LaunchFailed,
  Timeout,
  Crashed,
  OutOfResources,
  Cancelled
};

// "ok", "wrong-result", "build-failed", "launch-failed", "timeout", "crashed", "out-of-resources",
// "cancelled".
const char* toString(RunStatus s);

// Where the program binary came from.
enum class BuildSource : uint8_t { None, Compiled, MemoryCache, DiskCache };
const char* toString(BuildSource s);

struct RunOptions {
  // The first execution after the upload is the validated one (untimed); then `warmups` untimed
  // executions, then `repetitions` timed ones.
  int warmups = 1;
  int repetitions = 5;
  Tolerance tolerance;
  bool returnOutputs = true;      // false: only the validation report comes back
  bool timeWrongResults = false;  // time a kernel even when its result is wrong
  // Through the worker only: a single kernel execution (or data transfer) that takes longer is
  // killed and reported as timeout; the build has its own, longer limit.
  double timeoutMs = 10'000;
  double buildTimeoutMs = 300'000;
  // 0: every kernel gets its warm-ups and timed executions. Otherwise a kernel whose validated
  // execution takes longer is timed by that execution alone (a search sets it to a multiple of
  // its best kernel's time: such a kernel cannot be among the fastest, and its repetitions
  // would cost the search seconds a candidate on large inputs).
  double stopAboveMs = 0;
};

struct KernelOutput {
  uint32_t argIndex = 0;
  std::string name;
  HostArray data;  // as scalars
};

struct RunResult {
  RunStatus status = RunStatus::Ok;
  std::string message;  // one line (or a few) for the user; empty when ok

  // launch-failed and out-of-resources: the OpenCL error, when one was returned.
  int clErrorCode = 0;
  std::string clError;  // "CL_INVALID_WORK_GROUP_SIZE"

  // build-failed: the first error at its place in the kernel source, and the whole log.
  Diagnostic diagnostic;
  std::string buildLog;
  BuildSource buildSource = BuildSource::None;
  double buildMs = 0;  // host time to get the program (0 for a memory-cache hit)

  // Timed executions, each from its profiling event (start to end), in milliseconds.
  std::vector<double> timesMs;
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
  double kernelMsTotal = 0;  // every execution, untimed ones included

  ValidationReport validation;
  std::vector<KernelOutput> outputs;  // output and inout buffers, in argument order

  bool ok() const { return status == RunStatus::Ok; }
  // "ok: median 0.123 ms (min 0.120, max 0.130, 5 runs)" or "launch-failed: ...".
  std::string summary() const;
  // Sets timesMs and the median, min and max from `samples`.
  void setTimes(std::vector<double> samples);
};

}  // namespace lift::runtime
