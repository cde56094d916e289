// KernelRunner: evaluates kernels (or sequences of kernels) in this process on one device — build through the
// cache, upload seeded inputs, poison outputs, run once and validate, then warm up and time with profiling
// events. Used directly by tests and benchmarks, and inside the worker process.
#pragma once

#include <CL/opencl.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "codegen/runtime/BuildCache.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/Evaluator.h"

namespace lift::runtime {

class KernelRunner : public Evaluator {
 public:
  // `cache` may be shared between runners (and threads); null gives a cache in the default
  // directory.
  explicit KernelRunner(Device device, std::shared_ptr<BuildCache> cache = nullptr);

  RunResult run(const KernelLaunch& launch, const RunOptions& options = {}) override;
  // As run(), calling `heartbeat` once the program is built and after every kernel execution;
  // the worker forwards it so that its parent can time each step out separately.
  RunResult run(const KernelLaunch& launch, const RunOptions& options,
                const std::function<void()>& heartbeat);

  const Device& device() const { return ctx_.device(); }
  BuildCache& cache() { return *cache_; }
  // Builds a small program of its own, not through the cache (its source names this process
  // and the time, so no compiler cache holds it either), so that the OpenCL compiler's one-time
  // start (PoCL: LLVM's, 2-5 s on a busy CPU) is over before the first kernel is built. Returns
  // its milliseconds; a failed build is ignored (the first kernel then pays as before).
  double warmUpCompiler();

 private:
  cl::Kernel kernelFor(const cl::Program& program, const std::string& name);
  void execute(const KernelLaunch& launch, const std::vector<KernelCall>& calls, const RunOptions& options,
               const std::vector<cl::Program>& programs, const std::function<void()>& heartbeat,
               RunResult& result);

  std::mutex mutex_;
  DeviceContext ctx_;
  std::shared_ptr<BuildCache> cache_;
  // Kernel objects of programs already used; the program is held so its handle stays unique.
  std::map<std::pair<cl_program, std::string>, std::pair<cl::Program, cl::Kernel>> kernels_;
  // The device buffers of the last run's keyed inputs (KernelArg::dataKey, role Input: the
  // kernel only reads them), reused when the next launch has the same keys instead of being
  // uploaded again (a search evaluates many kernels on the same inputs).
  std::unordered_map<uint64_t, cl::Buffer> keyedInputs_;
};

}  // namespace lift::runtime
