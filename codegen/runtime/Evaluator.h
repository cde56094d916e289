// Evaluator: anything that turns a KernelLaunch into a RunResult — the in-process KernelRunner
// or the isolated WorkerClient — so that the app and the explorer can use either.
#pragma once

#include "codegen/runtime/KernelLaunch.h"
#include "codegen/runtime/RunResult.h"

namespace lift::runtime {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Builds (or finds in the cache), runs, times and validates one kernel. Problems with the
  // kernel are statuses of the result, never exceptions. Safe to call from any thread;
  // concurrent calls are served one after another.
  virtual RunResult run(const KernelLaunch& launch, const RunOptions& options = {}) = 0;
};

}  // namespace lift::runtime
