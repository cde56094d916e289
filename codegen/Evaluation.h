// The evaluation pipeline: a low-level program at concrete sizes -> compiled kernel (or sequence
// of kernels, where one kernel cannot compute it: ProgramCompiler.h) -> launch
// with seeded inputs -> expected outputs -> run on a device (in-process or through the worker)
// -> a validated, timed result with its throughput. `liftc run`, the application and the
// explorer all evaluate programs through this file.
//
//   runtime::WorkerClient worker({.liftcPath = runtime::WorkerClient::findLiftc(), .device = "0"});
//   codegen::EvaluationRequest req;
//   req.sizes = codegen::runSizes(program, {{"N", 4096}});
//   codegen::Evaluation e = codegen::evaluate(program, req, worker);
//   if (e.ok()) show(e.run.medianMs, e.throughputText(), e.validationText);
//
// An explorer evaluating many rewritten variants of one program at the same sizes prepares
// the inputs and the expected outputs once, from the original program, and passes them to
// every evaluation (rewrites keep the inputs and the meaning, so one reference serves all):
//
//   codegen::PreparedReference ref = codegen::prepareReference(original, req);
//   for (auto& variant : variants) results.push_back(codegen::evaluate(variant, req, worker, &ref));
//
// Expected outputs (EvaluationRequest::reference):
//   auto         the interpreter while the program's work is within interpreterBudget (in
//                function applications, see interp/WorkCount.h); beyond it OpenBLAS when the
//                program computes a BLAS routine its name suggests (matmul*, gemv, dot,
//                asum, scal: bindBlas confirms it at small sizes); else not validated ("too
//                large for the interpreter"); outputs are then still checked for elements
//                the kernel never wrote.
//   interpreter  the interpreter, whatever the size.
//   sgemm, sgemv, sdot, sasum, sscal: OpenBLAS; an error when the program does not compute it.
//   none         not validated (unwritten elements are still caught).
//
// Tolerance: RunOptions::tolerance, with the absolute floor for floats raised to 1e-4 of the
// largest expected magnitude, so that sums of thousands of terms (matmul at K = 4096, where
// the kernel, OpenBLAS and the interpreter add in different orders) are not failed on rounding
// near zero while a missing or extra term still is.
//
// Throughput: GFLOP/s when the work is compute-bound (WorkCount::computeBound: at least one
// flop per byte moved), else GB/s; both are always in the result. The flops are those of
// EvaluationRequest::work when given (the explorer gives the original program's, so every
// variant is measured against the same work), else the BLAS routine's nominal count when the
// reference is OpenBLAS (sgemm 2mnk, as BLAS libraries report), else the program's own count.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "codegen/BlasReference.h"
#include "codegen/CompileOptions.h"
#include "codegen/CompiledKernel.h"
#include "codegen/CompiledProgram.h"
#include "codegen/runtime/Evaluator.h"
#include "codegen/runtime/RunResult.h"
#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"
#include "core/interp/WorkCount.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// Function applications the interpreter makes in 1 to 5 seconds on the development machines
// (1 to 4 million a second, depending on the program and the load): the default limit of
// `auto`, so that a run validated by the interpreter does not wait on it for long.
constexpr double kDefaultInterpreterBudget = 5e6;

struct ReferenceChoice {
  enum class Kind : uint8_t { Auto, Interpreter, Blas, None };
  Kind kind = Kind::Auto;
  BlasRoutine routine = BlasRoutine::Sgemm;  // Kind::Blas

  // "auto", "interpreter", "none", "sgemm", "sgemv", "sdot", "sasum", "sscal"; throws LiftError
  // naming the choices for anything else.
  static ReferenceChoice parse(const std::string& text);
  std::string name() const;
};

struct EvaluationRequest {
  arith::Env sizes;  // every size variable of the program (runSizes gives them)
  // The NDRange to generate and launch the kernel for (1 to 3 dimensions); empty: the
  // program's (CompiledKernel::launch). Only a local size: the program's number of groups.
  std::vector<int64_t> global, local;
  CompileOptions compile;  // its globalSize/localSize are replaced by `global`/`local` when given
  // Warm-ups, repetitions, tolerance, timeouts; returnOutputs = false saves sending the
  // outputs back when only the validation report is wanted.
  runtime::RunOptions run;
  uint64_t seed = 1;          // the inputs are interp::randomInputs(program, sizes, seed)
  ReferenceChoice reference;  // where the expected outputs come from (see the file comment)
  double interpreterBudget = kDefaultInterpreterBudget;
  std::optional<interp::WorkCount> work;      // the work throughput is computed from; default: counted
  const std::atomic<bool>* cancel = nullptr;  // stops the interpreter (the run: WorkerClient::cancel)
};

enum class ValidationSource : uint8_t { Interpreter, Blas, None };
const char* toString(ValidationSource s);  // "interpreter", "openblas", "none"

// The inputs of one evaluation and the outputs expected from them.
// Buffers flattened from a reference's values (see PreparedReference::flat).
class FlatArrays {
 public:
  struct Entry {
    runtime::HostArray array;
    uint64_t key = 0;  // unique in this process, never 0
  };
  // The array for `what` (input index, tuple path and scalar type as text), made by `make` the
  // first time.
  const Entry& get(const std::string& what, const std::function<runtime::HostArray()>& make);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
};

struct PreparedReference {
  arith::Env sizes;
  uint64_t seed = 1;
  std::vector<interp::Value> inputs;      // the program's inputs, in order
  std::optional<interp::Value> expected;  // the program's output; none when not validated
  ValidationSource source = ValidationSource::None;
  // "the interpreter", "OpenBLAS sgemm A x B", or why there is none ("not validated (too large
  // for the interpreter: 1.07e+09 applications, budget 2e+07)").
  std::string description;
  std::optional<BlasBinding> blas;
  interp::WorkCount work;   // of the program the reference was prepared from
  double nominalFlops = 0;  // the BLAS routine's, when the reference is one
  double milliseconds = 0;  // host time to generate the inputs and compute the expected outputs
  // The inputs and expected outputs as kernel buffers, flattened on first use and shared by
  // every evaluation that uses this reference (a search's thousands of kernels), each with a
  // key (KernelArg::dataKey) so that the worker keeps it between requests instead of receiving
  // it again. Thread-safe; copies of the reference share it.
  std::shared_ptr<FlatArrays> flat = std::make_shared<FlatArrays>();
};

// Generates the inputs and computes the expected outputs of `p` as `request` says. Throws
// LiftError when the sizes are invalid, the interpreter fails (e.g. an index out of bounds), a
// requested BLAS routine is unavailable or not what the program computes, or on cancellation.
PreparedReference prepareReference(const ir::Program& p, const EvaluationRequest& request);
// Flattens the reference's flat inputs and expected result into its kernel buffers (FlatArrays)
// in their own scalar types, as the kernels of the program read them, ahead of the first
// evaluation (a search does it on the thread that prepares the reference). Others are flattened
// on first use, as before.
void prepareBuffers(const PreparedReference& ref);

enum class EvaluationStatus : uint8_t {
  Ok,
  WrongResult,
  InvalidSizes,     // the sizes do not fit the program's types, or the NDRange does not fit them
  CompileFailed,    // not a lowered program, or one kernel cannot compute it (diagnostic located)
  ReferenceFailed,  // no expected outputs: the interpreter failed, a BLAS reference is wrong
  BuildFailed,      // the OpenCL compiler rejected the kernel (diagnostic at the kernel line)
  LaunchFailed,
  Timeout,
  Crashed,
  OutOfResources,
  Cancelled,
};
// "ok", "wrong-result", "invalid-sizes", "compile-failed", "reference-failed", then the
// runtime's names ("build-failed", "launch-failed", ...).
const char* toString(EvaluationStatus s);

struct Evaluation {
  EvaluationStatus status = EvaluationStatus::Ok;
  std::string message;                   // one line when not ok
  std::optional<Diagnostic> diagnostic;  // where it went wrong: in the program or the kernel

  arith::Env sizes;
  std::shared_ptr<const CompiledKernel> kernel;  // when it compiled (several kernels: the first)
  // Every kernel when it compiled (evaluate with a program; null when given a kernel).
  std::shared_ptr<const CompiledProgram> program;
  // As launched (several kernels: the first's); local empty: the device chose.
  std::vector<uint64_t> global, local;
  runtime::RunResult run;  // times, validation report, build information

  // Validation.
  ValidationSource validatedBy = ValidationSource::None;
  std::string validationText;  // "ok against the interpreter (max relative error 2.4e-07)"
  double maxRelError = 0;

  // Work and throughput at the median time.
  interp::WorkCount work;
  double flops = 0;  // what GFLOP/s are computed from (see the file comment)
  bool computeBound = false;
  double gflops = 0;  // GFLOP/s
  double gbps = 0;    // GB/s

  // Host time of the stages, in milliseconds.
  double compileMs = 0;
  double referenceMs = 0;
  double totalMs = 0;

  bool ok() const { return status == EvaluationStatus::Ok; }
  // Whether an expected output was compared (ok and not validated are both ok()).
  bool validated() const { return ok() && validatedBy != ValidationSource::None; }
  // "174.2 GFLOP/s" or "18.30 GB/s", by computeBound; empty without a time.
  std::string throughputText() const;
  // One line: "ok: median 1.234 ms, 174.2 GFLOP/s, valid (interpreter)" or "build-failed: ...".
  std::string summary() const;
};

// Compiles `p` and evaluates it on `evaluator` as `request` says. Never throws for problems of
// the program, its sizes or its kernel: they are statuses (the evaluator's own set-up errors,
// e.g. a worker that cannot start, are LiftErrors). `reference`, when given, supplies the
// inputs and expected outputs (prepared for the same sizes and seed, from this program or one
// it was derived from).
Evaluation evaluate(const ir::Program& p, const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference = nullptr);

// The same for a sequence of kernels compiled already (compileProgram, ProgramCompiler.h).
Evaluation evaluate(const ir::Program& p, std::shared_ptr<const CompiledProgram> program,
                    const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference = nullptr);

// The same for a kernel compiled already (e.g. the application's kernel pane has it), which
// must come from `p` with request.global/local (if given) in its CompileOptions.
Evaluation evaluate(const ir::Program& p, std::shared_ptr<const CompiledKernel> kernel,
                    const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference = nullptr);

// Sizes to run `p` at: `given` as they are; for the others the declared defaults (`size N =
// 1024;`), else moderate valid values (the smallest valid ones from about 2^20 for one free
// size, 1024 for two, 128 for three: a moderate index space); with `small`, the smallest valid
// ones from 8 and no defaults (tests, quick checks). Throws LiftError when the given sizes are
// invalid or none fit.
arith::Env runSizes(const ir::Program& p, const arith::Env& given = {}, bool small = false);

}  // namespace lift::codegen
