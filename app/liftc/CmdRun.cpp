// liftc run FILE.lift [--device D] [--size N=...]... [--local X[,Y,Z]] [--global X[,Y,Z]]
//           [--repeat R] [--warmup W] [--timeout S] [--seed S] [--reference R] [--small]
//           [--interp-budget A] [--in-process] [--kernel FILE.cl]
// compiles a low-level program, runs the kernel on an OpenCL device, validates its output and
// prints the device, sizes, NDRange, median/min/max time, GFLOP/s or GB/s and the validation
// result (codegen/Evaluation.h does the work). A program that needs several kernels runs them in
// one queue (an NDRange line for each), its time that of the whole sequence.
//
// Sizes not given take the program's defaults, else moderate valid values (--small: the
// smallest valid ones, ignoring defaults). Kernels run in a worker process (`liftc worker`)
// with a per-execution timeout unless --in-process is given.
//
// --kernel FILE.cl runs that OpenCL source instead of the generated one (a kernel edited by hand,
// to measure what a change to code generation would give before making it): the program still
// gives the parameters, the NDRange, the inputs and the expected outputs, so the file must
// define a kernel of the program's name with the generated kernel's parameters. --local and
// --global then change the launch only (a --local alone keeps the program's number of groups).
//
// Exit status: 0 when the kernel ran and its output is valid (or could not be checked, which is
// said: "not validated"), 1 when its output is wrong, 2 for every other problem (bad file or
// option, a program that is not lowered, bad sizes, unknown device, build failure, launch
// failure, timeout, crash).
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "codegen/Compiler.h"
#include "codegen/Evaluation.h"
#include "codegen/Launch.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "codegen/runtime/RegisterCap.h"
#include "codegen/runtime/Worker.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"
#include "core/support/FileRead.h"

namespace lift::liftc {
namespace {

struct RunArgs {
  std::string file;
  std::string device;
  arith::Env sizes;
  std::vector<int64_t> global, local;
  int64_t repeat = 10, warmup = 1, timeout = 60, interpreterBudget = codegen::kDefaultInterpreterBudget;
  uint64_t seed = 1;
  codegen::ReferenceChoice reference;
  bool small = false, inProcess = false, timeoutGiven = false;
  std::string kernel;               // --kernel FILE.cl
  codegen::CompileOptions compile;  // --vector-local-loads, --unroll
};

std::string dimsText(const std::vector<uint64_t>& d) {
  std::string s;
  for (uint64_t x : d) s += fmt::format("{}{}", s.empty() ? "" : " x ", x);
  return s;
}

std::string buildText(const runtime::RunResult& r) {
  switch (r.buildSource) {
    case runtime::BuildSource::Compiled:
      return fmt::format("built by the OpenCL compiler in {:.0f} ms", r.buildMs);
    case runtime::BuildSource::DiskCache:
      return fmt::format("loaded from the build cache on disk in {:.0f} ms", r.buildMs);
    case runtime::BuildSource::MemoryCache:
      return "from the build cache in memory";
    case runtime::BuildSource::None:
      break;
  }
  return "not built";
}

// The evaluation of the program with the kernel source of `file` in place of the generated one.
codegen::Evaluation evaluateWithSource(const ir::Program& p, const codegen::EvaluationRequest& req,
                                       runtime::Evaluator& evaluator, const std::string& file) {
  std::string text;
  try {
    text = readInputFile(file);
  } catch (const LiftError& e) {
    throw LiftError("--kernel: " + e.diagnostic().message);
  }
  // The program's own kernel gives parameters and groups; --global/--local apply to the launch
  // only (the hand-written kernel may use another work-group shape than the program's).
  auto kernel = std::make_shared<codegen::CompiledKernel>(codegen::compileKernel(p, req.compile));
  codegen::LaunchInfo& launch = kernel->launch;
  auto constants = [](const std::vector<int64_t>& v) {
    std::vector<arith::Expr> out;
    for (int64_t x : v) out.push_back(arith::cst(x));
    return out;
  };
  if (!req.local.empty()) {
    if (req.global.empty()) {
      if (launch.local.size() != req.local.size())
        throw LiftError(
            fmt::format("--kernel with --local: the program's kernel has {} local dimensions, --local gives "
                        "{}; give --global too",
                        launch.local.size(), req.local.size()));
      for (size_t d = 0; d < req.local.size(); ++d)
        launch.global[d] = launch.global[d] / launch.local[d] * arith::cst(req.local[d]);
    }
    launch.local = constants(req.local);
  }
  if (!req.global.empty()) launch.global = constants(req.global);
  codegen::EvaluationRequest plain = req;
  plain.global.clear();
  plain.local.clear();
  if (text.find(kernel->kernelName) == std::string::npos)
    throw LiftError(fmt::format("--kernel: '{}' defines no kernel named '{}' (the program's name)", file,
                                kernel->kernelName));
  kernel->source = text;
  kernel->lineNodes.clear();
  kernel->indices.clear();
  return codegen::evaluate(p, kernel, plain, evaluator);
}

int runRun(const RunArgs& args) {
  if (args.inProcess && args.timeoutGiven)
    badUsage(
        "--timeout needs the worker process (a kernel running in this process cannot be stopped): drop "
        "--in-process or --timeout");
  const std::string& file = args.file;
  ir::Program p = lang::parseFile(file);

  codegen::EvaluationRequest req;
  const arith::Env& given = args.sizes;
  checkSizeNames(given, p);
  req.global = args.global;
  req.local = args.local;
  req.compile = args.compile;
  req.run.repetitions = static_cast<int>(args.repeat);
  req.run.warmups = static_cast<int>(args.warmup);
  req.run.timeoutMs = 1000.0 * static_cast<double>(args.timeout);
  req.run.returnOutputs = false;
  req.seed = args.seed;
  req.interpreterBudget = static_cast<double>(args.interpreterBudget);
  req.reference = args.reference;
  req.sizes = codegen::runSizes(p, given, args.small);  // throws (exit 2) for invalid sizes

  // The device, resolved here so that an unknown name lists the devices; the worker opens the
  // same one by its index.
  runtime::Device device = runtime::Device::find(args.device);
  std::unique_ptr<runtime::Evaluator> evaluator;
  if (args.inProcess) {
    evaluator = std::make_unique<runtime::KernelRunner>(device);
  } else {
    auto worker = std::make_unique<runtime::WorkerClient>(runtime::WorkerOptions{
        .liftcPath = runtime::WorkerClient::findLiftc(), .device = std::to_string(device.info().index)});
    worker->start();
    evaluator = std::move(worker);
  }

  std::printf("program:    %s (%s)\n", p.name.c_str(), file.c_str());
  std::printf("device:     %s%s\n", device.info().label().c_str(),
              args.inProcess ? "" : " (in a worker process)");
  std::string sizeLine;
  for (auto& s : p.sizes) {
    const char* origin = given.count(s.name) ? "given" : !args.small && s.defaultValue ? "default" : "chosen";
    sizeLine +=
        fmt::format("{}{}={} ({})", sizeLine.empty() ? "" : ", ", s.name, req.sizes.at(s.name), origin);
  }
  std::printf("sizes:      %s\n", sizeLine.empty() ? "none" : sizeLine.c_str());
  std::fflush(stdout);

  codegen::Evaluation e = !args.kernel.empty() ? evaluateWithSource(p, req, *evaluator, args.kernel)
                                               : codegen::evaluate(p, req, *evaluator);

  if (e.status == codegen::EvaluationStatus::InvalidSizes ||
      e.status == codegen::EvaluationStatus::CompileFailed ||
      e.status == codegen::EvaluationStatus::ReferenceFailed) {
    const std::string why = e.diagnostic ? e.diagnostic->format() : "liftc run: error: " + e.message;
    std::fprintf(stderr, "%s\n", why.c_str());
    // Only where the program is not lowered (not, say, for a kernel that needs too much memory).
    if (e.status == codegen::EvaluationStatus::CompileFailed &&
        why.find("must be lowered") != std::string::npos)
      std::fprintf(stderr,
                   "note: liftc run needs a low-level program (OpenCL patterns such as mapGlb, mapSeq, "
                   "toGlobal); rewrite it first (liftc rules / liftc rewrite)\n");
    return kExitError;
  }

  if (e.program) {
    noteStreamKNotApplied("run", req.compile, *e.program);
    notePrefetchPartsNotApplied("run", req.compile, *e.program);
  }
  if (req.compile.maxRegisters > 0 && !runtime::takesRegisterCap(device.info()))
    std::fprintf(stderr,
                 "liftc run: note: --max-registers %d has no effect on %s: only NVIDIA's OpenCL compiler "
                 "takes a register cap\n",
                 req.compile.maxRegisters, device.info().label().c_str());
  if (e.program && !e.program->singleKernel()) {
    // A sequence: each kernel with its NDRange at these sizes.
    runtime::KernelLaunch launch = codegen::instantiate(*e.program, req.sizes);
    std::string names;
    for (size_t i = 0; i < launch.sequence.size(); ++i) {
      const runtime::KernelCall& c = launch.sequence[i];
      std::printf("%s kernel %zu of %zu (%s): global %s, local %s\n",
                  i ? "           " : "ndrange:   ", i + 1, launch.sequence.size(), c.kernelName.c_str(),
                  dimsText(c.global).c_str(),
                  c.local.empty() ? "chosen by the device" : dimsText(c.local).c_str());
      names += (i ? ", " : "") + c.kernelName;
    }
    std::printf("kernels:    %s in one queue, %s\n", names.c_str(), buildText(e.run).c_str());
  } else {
    std::printf("ndrange:    global %s, local %s\n", dimsText(e.global).c_str(),
                e.local.empty() ? "chosen by the device" : dimsText(e.local).c_str());
    std::printf("kernel:     %s, %s\n", e.kernel->kernelName.c_str(), buildText(e.run).c_str());
  }

  if (e.status != codegen::EvaluationStatus::Ok && e.status != codegen::EvaluationStatus::WrongResult) {
    std::printf("result:     %s\n", codegen::toString(e.status));
    std::fflush(stdout);
    if (e.diagnostic) std::fprintf(stderr, "%s\n", e.diagnostic->format().c_str());
    std::fprintf(stderr, "liftc run: error: %s: %s\n", codegen::toString(e.status), e.message.c_str());
    if (e.status == codegen::EvaluationStatus::BuildFailed && !e.run.buildLog.empty())
      std::fprintf(stderr, "build log:\n%s\n", e.run.buildLog.c_str());
    return kExitError;
  }

  std::printf("time:       %s\n",
              fmt::format("median {:.4g} ms (min {:.4g}, max {:.4g}; {} runs after {} warm-up{})",
                          e.run.medianMs, e.run.minMs, e.run.maxMs, e.run.timesMs.size(), req.run.warmups,
                          req.run.warmups == 1 ? "" : "s")
                  .c_str());
  std::string flopsNote;
  if (e.flops != e.work.flops)
    flopsNote = fmt::format(" (nominal {} of the BLAS routine; the program's own count: {})",
                            interp::siPrefixed(e.flops, "FLOP"), interp::siPrefixed(e.work.flops, "FLOP"));
  std::printf("work:       %s%s\n", e.work.summary().c_str(), flopsNote.c_str());
  std::string other;
  if (e.computeBound)
    other = fmt::format(" ({:.4g} GB/s)", e.gbps);
  else if (e.flops > 0)
    other = fmt::format(" ({:.4g} GFLOP/s)", e.gflops);
  std::printf("throughput: %s%s\n", e.throughputText().c_str(), other.c_str());
  std::printf("host:       compile %.1f ms, inputs and expected outputs %.0f ms, total %.0f ms\n",
              e.compileMs, e.referenceMs, e.totalMs);
  std::printf("validation: %s\n", e.validationText.c_str());
  std::printf("result:     %s\n", codegen::toString(e.status));
  return e.status == codegen::EvaluationStatus::Ok ? kExitOk : kExitWrong;
}

const CommandRegistration registration(Command{
    "run", "run, validate and time the kernel of a lowered program on an OpenCL device", [](CLI::App& cmd) {
      auto args = std::make_shared<RunArgs>();
      addProgramArgument(cmd, args->file);
      addDeviceOption(cmd, args->device);
      addSizeOption(cmd, args->sizes, "1024");
      addNDRangeOption(cmd, "--global", args->global, "the global size to generate and launch for");
      addNDRangeOption(cmd, "--local", args->local, "the local (work-group) size");
      cmd.add_option("--repeat", args->repeat, "timed runs (default 10)")->check(integerIn(1));
      cmd.add_option("--warmup", args->warmup, "runs before the timed ones (default 1)")->check(integerIn(0));
      cmd.add_option("--timeout", args->timeout, "seconds one run may take (default 60)")
          ->check(integerIn(1, 1000000))
          ->each([args](const std::string&) { args->timeoutGiven = true; });
      cmd.add_option("--seed", args->seed, "the seed of the random inputs (default 1)")
          ->check(integerIn(0, std::numeric_limits<int64_t>::max()));
      cmd.add_option("--interp-budget", args->interpreterBudget,
                     "the most work the interpreter may do for the expected outputs (default 5000000)")
          ->check(integerIn(0, std::numeric_limits<int64_t>::max()));
      addReferenceOption(cmd, args->reference);
      cmd.add_flag("--small", args->small, "the smallest valid sizes instead of the program's defaults");
      cmd.add_flag("--in-process", args->inProcess, "run the kernel in this process, not in a worker");
      cmd.add_option("--kernel", args->kernel,
                     "run the OpenCL source of this file instead of the generated kernel (same name and "
                     "parameters)")
          ->type_name("FILE.cl");
      addCodegenTuningOptions(cmd, args->compile);
      return [args] { return runRun(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
