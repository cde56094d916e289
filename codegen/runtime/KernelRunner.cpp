// In-process evaluation of one kernel launch (or a sequence of kernels, KernelLaunch::sequence).
#include "codegen/runtime/KernelRunner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <new>

#include "codegen/runtime/ClError.h"
#include "codegen/runtime/RegisterCap.h"
#include "core/support/Trace.h"

namespace lift::runtime {

namespace {

// Thrown inside execute() for a problem found before OpenCL was asked (the status is set).
struct Stop {};

std::string sizes(const std::vector<uint64_t>& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r;
}

// From the start of the first event to the end of the last (one kernel: its execution time).
double eventMs(const cl::Event& first, const cl::Event& last) {
  auto start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  auto end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

// Why a launch may have been refused, in the words of the launch description.
std::string launchHint(int code, const KernelCall& l, uint64_t kernelMaxWg) {
  if (code != CL_INVALID_WORK_GROUP_SIZE && code != CL_INVALID_WORK_ITEM_SIZE) return "";
  if (l.local.empty()) return "";
  for (size_t d = 0; d < l.global.size(); ++d)
    if (l.global[d] % l.local[d] != 0)
      return fmt::format("; the global size {} is not a multiple of the local size {} in dimension {}",
                         l.global[d], l.local[d], d);
  uint64_t wg = 1;
  for (auto x : l.local) wg *= x;
  if (kernelMaxWg && wg > kernelMaxWg)
    return fmt::format("; the work-group has {} work-items, the kernel allows at most {}", wg, kernelMaxWg);
  return "";
}

void setClError(RunResult& r, int code, const std::string& what, const std::string& hint = "") {
  r.clErrorCode = code;
  r.clError = clErrorName(code);
  r.status = isOutOfResources(code) ? RunStatus::OutOfResources : RunStatus::LaunchFailed;
  r.message = fmt::format("{} failed: {}{}", what, describeClError(code), hint);
}

// issue 17 (lift17w): why a kernel with warp patterns cannot run on the device ("" when it can).
// Its warps are NVIDIA's 32 work-items; other vendors' devices (PoCL's CPU device among them)
// have no such notion.
std::string warpSupport(const std::string& warpPatterns, const DeviceInfo& dev) {
  if (warpPatterns.empty()) return "";
  if (dev.isNvidia()) return "";
  return fmt::format(
      "{} {} a device with warps of 32 work-items (NVIDIA); the device '{}' ({}, {}) has "
      "none: map with mapLcl instead",
      warpPatterns, warpPatterns.find(" and ") != std::string::npos ? "need" : "needs", dev.name,
      dev.platformName, dev.vendor);
}

template <class T>
void fillPoison(cl::CommandQueue& q, const cl::Buffer& b, T pattern, uint64_t bytes) {
  q.enqueueFillBuffer(b, pattern, 0, bytes);
}

}  // namespace

KernelRunner::KernelRunner(Device device, std::shared_ptr<BuildCache> cache)
    : ctx_(std::move(device)), cache_(cache ? std::move(cache) : std::make_shared<BuildCache>()) {}

double KernelRunner::warmUpCompiler() {
  std::lock_guard lock(mutex_);
  auto start = std::chrono::steady_clock::now();
  std::string source = fmt::format(
      "// lift-studio: the compiler's start (process {}, {})\n"
      "__kernel void lift_warm_up(__global float* a) {{ a[get_global_id(0)] *= 2.0f; }}\n",
      static_cast<long>(::getpid()), std::chrono::system_clock::now().time_since_epoch().count());
  try {
    cl::Program program(ctx_.context(), source);
    program.build({ctx_.device().handle()});
    // And one launch: PoCL compiles a kernel's work-group function at its first enqueue.
    cl::Kernel kernel(program, "lift_warm_up");
    cl::Buffer buffer(ctx_.context(), CL_MEM_READ_WRITE, 4 * sizeof(float));
    kernel.setArg(0, buffer);
    ctx_.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4), cl::NDRange(1));
    ctx_.queue().finish();
  } catch (const cl::Error&) {
    return 0;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

RunResult KernelRunner::run(const KernelLaunch& launch, const RunOptions& options) {
  return run(launch, options, {});
}

cl::Kernel KernelRunner::kernelFor(const cl::Program& program, const std::string& name) {
  auto key = std::make_pair(program(), name);
  if (auto it = kernels_.find(key); it != kernels_.end()) return it->second.second;
  if (kernels_.size() >= 512) kernels_.clear();
  cl::Kernel k(program, name.c_str());
  kernels_.emplace(key, std::make_pair(program, k));
  return k;
}

RunResult KernelRunner::run(const KernelLaunch& launch, const RunOptions& options,
                            const std::function<void()>& heartbeat) {
  std::lock_guard lock(mutex_);
  support::trace("kernel runner: request starts");
  RunResult r;
  if (std::string err = launch.check(); !err.empty()) {
    r.status = RunStatus::LaunchFailed;
    r.message = "invalid launch: " + err;
    return r;
  }
  if (std::string why = warpSupport(launch.warpPatterns, ctx_.device().info()); !why.empty()) {
    r.status = RunStatus::LaunchFailed;
    r.message = why;
    return r;
  }
  std::vector<KernelCall> calls = launch.calls();
  std::vector<cl::Program> programs;
  const std::string directive = entryDirectiveFor(launch, ctx_.device().info());
  for (const KernelCall& call : calls) {
    BuiltProgram built;
    try {
      built = cache_->build(ctx_, call.source, launch.buildOptions, call.sourceName, directive);
    } catch (const BuildError& e) {
      r.status = RunStatus::BuildFailed;
      r.diagnostic = e.diagnostic();
      r.buildLog = e.log();
      r.message = e.diagnostic().format();
      return r;
    } catch (const cl::Error& e) {
      setClError(r, e.err(), e.what());
      r.status = RunStatus::BuildFailed;
      return r;
    }
    // A sequence reports the slowest way any of its kernels was obtained, and their total time.
    if (programs.empty() || built.source == BuildSource::Compiled ||
        (built.source == BuildSource::DiskCache && r.buildSource == BuildSource::MemoryCache))
      r.buildSource = built.source;
    r.buildMs += built.ms;
    programs.push_back(built.program);
  }
  if (heartbeat) heartbeat();
  try {
    execute(launch, calls, options, programs, heartbeat, r);
  } catch (const Stop&) {
  } catch (const cl::Error& e) {
    setClError(r, e.err(), e.what());
  } catch (const std::bad_alloc&) {
    r.status = RunStatus::OutOfResources;
    r.message = "out of host memory for the kernel's buffers";
  }
  // Leave nothing queued behind a failure.
  try {
    ctx_.queue().finish();
  } catch (const cl::Error&) {
  }
  return r;
}

void KernelRunner::execute(const KernelLaunch& launch, const std::vector<KernelCall>& calls,
                           const RunOptions& options, const std::vector<cl::Program>& programs,
                           const std::function<void()>& heartbeat, RunResult& r) {
  const DeviceInfo& dev = ctx_.device().info();
  cl::CommandQueue& q = ctx_.queue();
  auto stop = [&](RunStatus s, std::string message) {
    r.status = s;
    r.message = std::move(message);
    throw Stop{};
  };

  std::vector<cl::Kernel> kernels(calls.size());
  std::vector<uint64_t> kernelMaxWg(calls.size());
  for (size_t c = 0; c < calls.size(); ++c) {
    const KernelCall& call = calls[c];
    try {
      kernels[c] = kernelFor(programs[c], call.kernelName);
    } catch (const cl::Error& e) {
      setClError(r, e.err(), "clCreateKernel");
      if (e.err() == CL_INVALID_KERNEL_NAME)
        r.message = fmt::format("the program has no kernel named '{}' ({})", call.kernelName, r.clError);
      throw Stop{};
    }
    auto numArgs = kernels[c].getInfo<CL_KERNEL_NUM_ARGS>();
    if (numArgs != call.args.size())
      stop(RunStatus::LaunchFailed, fmt::format("kernel '{}' takes {} arguments, the launch gives {}",
                                                call.kernelName, numArgs, call.args.size()));

    // Resources the device cannot provide are reported as such rather than as a cryptic failure.
    uint64_t localBytes = kernels[c].getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(ctx_.device().handle());
    kernelMaxWg[c] = kernels[c].getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx_.device().handle());
    for (uint32_t i : call.args)
      if (launch.args[i].kind == KernelArg::Kind::Local) localBytes += launch.args[i].localBytes;
    if (localBytes > dev.localMemBytes)
      stop(RunStatus::OutOfResources,
           fmt::format("the kernel needs {} bytes of local memory; the device has {}", localBytes,
                       dev.localMemBytes));
  }
  uint64_t globalBytes = 0;
  for (const auto& a : launch.args) {
    if (a.isBuffer()) {
      globalBytes += a.byteSize();
      if (a.byteSize() > dev.maxAllocBytes)
        stop(RunStatus::OutOfResources,
             fmt::format("buffer '{}' needs {} bytes; the device allows {} per buffer", a.name, a.byteSize(),
                         dev.maxAllocBytes));
    }
  }
  if (globalBytes > dev.globalMemBytes)
    stop(RunStatus::OutOfResources,
         fmt::format("the buffers need {} bytes; the device has {}", globalBytes, dev.globalMemBytes));

  // Buffers: inputs uploaded, outputs poisoned so that unwritten elements show.
  std::vector<cl::Buffer> buffers(launch.args.size());
  // Initial contents: the launch's own data where it has some (not copied), else generated.
  std::vector<HostArray> generated(launch.args.size());
  std::vector<const HostArray*> initial(launch.args.size(), nullptr);
  std::unordered_map<uint64_t, cl::Buffer> keyedInputs;
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const KernelArg& a = launch.args[i];
    bool keyedInput = a.isBuffer() && a.role == ArgRole::Input && a.dataKey && a.data;
    if (keyedInput) {
      auto kept = keyedInputs_.find(a.dataKey);
      if (kept != keyedInputs_.end() && kept->second.getInfo<CL_MEM_SIZE>() == a.byteSize()) {
        buffers[i] = kept->second;  // the same contents are on the device already
        initial[i] = &*a.data;
        keyedInputs[a.dataKey] = buffers[i];
        continue;
      }
    }
    if (a.isBuffer()) {
      buffers[i] = cl::Buffer(ctx_.context(), CL_MEM_READ_WRITE, a.byteSize());
      if (keyedInput) keyedInputs[a.dataKey] = buffers[i];
      if (a.readsInput()) {
        if (a.data) {
          initial[i] = &*a.data;
        } else {
          generated[i] = launch.inputData(i);
          initial[i] = &generated[i];
        }
        q.enqueueWriteBuffer(buffers[i], CL_FALSE, 0, a.byteSize(), initial[i]->data());
      } else {
        switch (a.type.scalar) {
          case ScalarType::Float:
            fillPoison(q, buffers[i], std::bit_cast<cl_float>(kPoisonFloatBits), a.byteSize());
            break;
          case ScalarType::Double:
            fillPoison(q, buffers[i], std::bit_cast<cl_double>(kPoisonDoubleBits), a.byteSize());
            break;
          case ScalarType::Int:
            fillPoison(q, buffers[i], cl_int(kPoisonInt), a.byteSize());
            break;
        }
      }
    }
  }

  keyedInputs_ = std::move(keyedInputs);  // only this launch's: device memory stays bounded
  if (support::tracing()) {
    support::trace("kernel runner: built, buffers made");
    q.finish();
    support::trace("kernel runner: inputs uploaded");
  }

  // Each kernel's arguments, from the launch's.
  for (size_t c = 0; c < calls.size(); ++c) {
    for (size_t j = 0; j < calls[c].args.size(); ++j) {
      auto at = static_cast<cl_uint>(j);
      const uint32_t i = calls[c].args[j];
      const KernelArg& a = launch.args[i];
      switch (a.kind) {
        case KernelArg::Kind::Buffer:
          kernels[c].setArg(at, buffers[i]);
          break;
        case KernelArg::Kind::Scalar:
          switch (a.type.scalar) {
            case ScalarType::Int:
              kernels[c].setArg(at, static_cast<cl_int>(a.intValue));
              break;
            case ScalarType::Float:
              kernels[c].setArg(at, static_cast<cl_float>(a.floatValue));
              break;
            case ScalarType::Double:
              kernels[c].setArg(at, static_cast<cl_double>(a.floatValue));
              break;
          }
          break;
        case KernelArg::Kind::Local:
          kernels[c].setArg(at, cl::Local(a.localBytes));
          break;
      }
    }
  }

  // One execution: every kernel in order, in one queue; its time from the start of the first
  // to the end of the last.
  auto once = [&]() -> double {
    std::vector<cl::Event> events(calls.size());
    for (size_t c = 0; c < calls.size(); ++c) {
      const KernelCall& call = calls[c];
      const cl::NDRange global = toNDRange(call.global);
      const cl::NDRange local = call.local.empty() ? cl::NullRange : toNDRange(call.local);
      try {
        q.enqueueNDRangeKernel(kernels[c], cl::NullRange, global, local, nullptr, &events[c]);
      } catch (const cl::Error& e) {
        setClError(r, e.err(), e.what(), launchHint(e.err(), call, kernelMaxWg[c]));
        r.message += fmt::format("{} (global {}, local {})",
                                 calls.size() > 1 ? fmt::format(" for kernel '{}'", call.kernelName) : "",
                                 sizes(call.global), call.local.empty() ? "any" : sizes(call.local));
        throw Stop{};
      }
    }
    try {
      events.back().wait();
    } catch (const cl::Error& e) {
      setClError(r, e.err(), e.what());
      throw Stop{};
    }
    for (const cl::Event& ev : events)
      if (cl_int st = ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(); st < 0) {
        setClError(r, st, "the kernel execution");
        throw Stop{};
      }
    double ms = eventMs(events.front(), events.back());
    r.kernelMsTotal += ms;
    if (heartbeat) heartbeat();
    return ms;
  };

  // The validated execution.
  double firstMs = once();
  ValidationReport report;
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const KernelArg& a = launch.args[i];
    if (!a.writesOutput()) continue;
    HostArray out(a.type.scalar, a.scalarCount());
    q.enqueueReadBuffer(buffers[i], CL_TRUE, 0, a.byteSize(), out.data());
    std::string name = a.name.empty() ? fmt::format("argument {}", i) : a.name;
    report.merge(a.expected ? compareArrays(out, *a.expected, options.tolerance, name)
                            : checkWritten(out, name));
    if (options.returnOutputs) r.outputs.push_back({static_cast<uint32_t>(i), a.name, std::move(out)});
  }
  r.validation = report;
  support::trace("kernel runner: first execution validated");
  if (!report.ok) {
    r.status = RunStatus::WrongResult;
    r.message = report.message;
    if (!options.timeWrongResults) {
      r.setTimes({firstMs});
      return;
    }
  }

  // Far slower than the best a search has: its first execution says enough (RunOptions).
  if (options.stopAboveMs > 0 && firstMs > options.stopAboveMs) {
    r.setTimes({firstMs});
    return;
  }
  bool hasInOut = false;
  for (const auto& a : launch.args) hasInOut |= a.isBuffer() && a.role == ArgRole::InOut;
  std::vector<double> samples;
  for (int k = 0; k < options.warmups + options.repetitions; ++k) {
    if (hasInOut)  // every execution starts from the same data
      for (size_t i = 0; i < launch.args.size(); ++i)
        if (launch.args[i].isBuffer() && launch.args[i].role == ArgRole::InOut)
          q.enqueueWriteBuffer(buffers[i], CL_FALSE, 0, launch.args[i].byteSize(), initial[i]->data());
    double ms = once();
    if (k >= options.warmups) samples.push_back(ms);
  }
  r.setTimes(samples.empty() ? std::vector<double>{firstMs} : std::move(samples));
  support::trace("kernel runner: timed");
}

}  // namespace lift::runtime
