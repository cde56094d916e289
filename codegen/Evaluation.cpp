// The evaluation pipeline (see Evaluation.h).
#include "codegen/Evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "codegen/Compiler.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/ir/TypeCheck.h"
#include "core/support/Trace.h"

namespace lift::codegen {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string listSizes(const arith::Env& sizes) {
  std::string s;
  for (auto& [n, v] : sizes) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", n, v);
  return s.empty() ? "no sizes" : s;
}

// The routine the program's name or its file's name suggests.
std::optional<BlasRoutine> suggestedRoutine(const ir::Program& p) {
  if (auto r = blasRoutineSuggestedBy(p.name)) return r;
  if (!p.file.empty()) return blasRoutineSuggestedBy(std::filesystem::path(p.file).stem().string());
  return std::nullopt;
}

size_t outputScalars(const ir::Program& p, const arith::Env& sizes) {
  ir::TypeInfo info = ir::typeCheck(interp::specialize(p, sizes));
  return static_cast<size_t>(arith::evaluate(info.resultType.scalarCount(), sizes));
}

void useBlas(PreparedReference& ref, const ir::Program& p, const BlasBinding& b) {
  std::vector<float> out = b.compute(p, ref.inputs, ref.sizes, outputScalars(p, ref.sizes));
  std::vector<interp::Scalar> scalars(out.size());
  for (size_t i = 0; i < out.size(); ++i) scalars[i].f = out[i];
  ref.expected =
      interp::Value::flatArray(ScalarKind::Float, 1, {static_cast<int64_t>(out.size())}, std::move(scalars));
  ref.source = ValidationSource::Blas;
  ref.description = "OpenBLAS " + b.describe(p);
  ref.blas = b;
  ref.nominalFlops = b.nominalFlops(p, ref.sizes);
}

EvaluationStatus statusOf(runtime::RunStatus s) {
  switch (s) {
    case runtime::RunStatus::Ok:
      return EvaluationStatus::Ok;
    case runtime::RunStatus::WrongResult:
      return EvaluationStatus::WrongResult;
    case runtime::RunStatus::BuildFailed:
      return EvaluationStatus::BuildFailed;
    case runtime::RunStatus::LaunchFailed:
      return EvaluationStatus::LaunchFailed;
    case runtime::RunStatus::Timeout:
      return EvaluationStatus::Timeout;
    case runtime::RunStatus::Crashed:
      return EvaluationStatus::Crashed;
    case runtime::RunStatus::OutOfResources:
      return EvaluationStatus::OutOfResources;
    case runtime::RunStatus::Cancelled:
      return EvaluationStatus::Cancelled;
  }
  return EvaluationStatus::LaunchFailed;
}

// The absolute floor of the tolerance raised to `fraction` of the largest expected magnitude.
void scaleTolerance(runtime::Tolerance& tol, const runtime::KernelLaunch& launch) {
  double maxFloat = 0, maxDouble = 0;
  for (auto& a : launch.args) {
    if (!a.expected) continue;
    const runtime::HostArray& h = *a.expected;
    if (h.type() == runtime::ScalarType::Float)
      for (float x : h.floats())
        if (std::isfinite(x)) maxFloat = std::max(maxFloat, static_cast<double>(std::fabs(x)));
    if (h.type() == runtime::ScalarType::Double)
      for (double x : h.doubles())
        if (std::isfinite(x)) maxDouble = std::max(maxDouble, std::fabs(x));
  }
  tol.floatAbs = std::max(tol.floatAbs, 1e-4 * maxFloat);
  tol.doubleAbs = std::max(tol.doubleAbs, 1e-10 * maxDouble);
}

Evaluation failed(Evaluation e, EvaluationStatus s, const LiftError& err) {
  e.status = s;
  e.diagnostic = err.diagnostic();
  e.message = err.diagnostic().message;
  return e;
}

bool sameSizes(const arith::Env& a, const arith::Env& b) { return a == b; }

}  // namespace

// ----- names -----------------------------------------------------------------------------------

ReferenceChoice ReferenceChoice::parse(const std::string& text) {
  ReferenceChoice c;
  if (text == "auto") return c;
  if (text == "interpreter") {
    c.kind = Kind::Interpreter;
    return c;
  }
  if (text == "none") {
    c.kind = Kind::None;
    return c;
  }
  if (auto r = blasRoutineByName(text)) {
    c.kind = Kind::Blas;
    c.routine = *r;
    return c;
  }
  throw LiftError(fmt::format(
      "unknown reference '{}' (choose auto, interpreter, none, sgemm, sgemv, sdot, sasum or sscal)", text));
}

std::string ReferenceChoice::name() const {
  switch (kind) {
    case Kind::Auto:
      return "auto";
    case Kind::Interpreter:
      return "interpreter";
    case Kind::None:
      return "none";
    case Kind::Blas:
      return toString(routine);
  }
  return "?";
}

const char* toString(ValidationSource s) {
  switch (s) {
    case ValidationSource::Interpreter:
      return "interpreter";
    case ValidationSource::Blas:
      return "openblas";
    case ValidationSource::None:
      return "none";
  }
  return "?";
}

const char* toString(EvaluationStatus s) {
  switch (s) {
    case EvaluationStatus::Ok:
      return "ok";
    case EvaluationStatus::WrongResult:
      return "wrong-result";
    case EvaluationStatus::InvalidSizes:
      return "invalid-sizes";
    case EvaluationStatus::CompileFailed:
      return "compile-failed";
    case EvaluationStatus::ReferenceFailed:
      return "reference-failed";
    case EvaluationStatus::BuildFailed:
      return "build-failed";
    case EvaluationStatus::LaunchFailed:
      return "launch-failed";
    case EvaluationStatus::Timeout:
      return "timeout";
    case EvaluationStatus::Crashed:
      return "crashed";
    case EvaluationStatus::OutOfResources:
      return "out-of-resources";
    case EvaluationStatus::Cancelled:
      return "cancelled";
  }
  return "?";
}

// ----- the reference ---------------------------------------------------------------------------

const FlatArrays::Entry& FlatArrays::get(const std::string& what,
                                         const std::function<runtime::HostArray()>& make) {
  static std::atomic<uint64_t> nextKey{1};
  std::lock_guard lock(mutex_);
  std::unique_ptr<Entry>& e = entries_[what];
  if (!e) e = std::make_unique<Entry>(Entry{make(), nextKey++});
  return *e;
}

namespace {

// The key of a reference's buffer in its FlatArrays (input -1: the expected result).
std::string bufferKey(int input, const std::vector<int>& path, runtime::ScalarType t) {
  std::string what = fmt::format("{}:{}", input, runtime::toString(t));
  for (int i : path) what += fmt::format(".{}", i);
  return what;
}

// setInputs and setExpected through the reference's flattened arrays (made once, then copied).
template <class Compiled>
void useReference(runtime::KernelLaunch& launch, const Compiled& k, const PreparedReference& ref) {
  ArraySource flat = [&](int input, const std::vector<int>& path, runtime::ScalarType t) {
    std::string what = bufferKey(input, path, t);
    const interp::Value& v = input < 0 ? *ref.expected : ref.inputs[static_cast<size_t>(input)];
    const FlatArrays::Entry& e = ref.flat->get(what, [&] { return hostArrayOf(v, t, path); });
    return KeyedArray{e.array, e.key};
  };
  setInputs(launch, k, ref.inputs, flat);
  if (ref.expected) setExpected(launch, k, *ref.expected, flat);
}

}  // namespace

void prepareBuffers(const PreparedReference& ref) {
  auto prepare = [&](int input, const interp::Value& v) {
    if (!v.isArray() || !v.isFlat()) return;
    std::optional<runtime::ScalarType> t;
    switch (v.flatKind()) {
      case ScalarKind::Float:
        t = runtime::ScalarType::Float;
        break;
      case ScalarKind::Double:
        t = runtime::ScalarType::Double;
        break;
      case ScalarKind::Int:
        t = runtime::ScalarType::Int;
        break;
      default:
        break;
    }
    if (t) ref.flat->get(bufferKey(input, {}, *t), [&] { return hostArrayOf(v, *t, {}); });
  };
  for (size_t i = 0; i < ref.inputs.size(); ++i) prepare(static_cast<int>(i), ref.inputs[i]);
  if (ref.expected) prepare(-1, *ref.expected);
}

PreparedReference prepareReference(const ir::Program& p, const EvaluationRequest& request) {
  auto start = Clock::now();
  if (auto problem = interp::sizeProblem(p, request.sizes)) throw LiftError(*problem);
  PreparedReference ref;
  ref.sizes = request.sizes;
  ref.seed = request.seed;
  ref.work = interp::countWork(p, request.sizes);
  ref.inputs = interp::randomInputs(p, request.sizes, request.seed, request.cancel);
  // The interpreter looks at the flag as it goes; a BLAS call cannot be stopped once it started.
  if (request.cancel && request.cancel->load()) throw LiftError("the reference was cancelled");

  auto runInterpreter = [&] {
    interp::InterpOptions opts;
    opts.cancel = request.cancel;
    ref.expected = interp::interpret(p, ref.inputs, request.sizes, opts);
    ref.source = ValidationSource::Interpreter;
    ref.description = "the interpreter";
  };
  auto bind = [&](BlasRoutine r) -> std::optional<BlasBinding> {
    std::string why;
    auto b = bindBlas(p, r, &why);
    if (!b) throw LiftError(fmt::format("reference {}: {}", toString(r), why));
    return b;
  };

  switch (request.reference.kind) {
    case ReferenceChoice::Kind::Interpreter:
      runInterpreter();
      break;
    case ReferenceChoice::Kind::None:
      ref.description = "not validated (no reference was asked for)";
      break;
    case ReferenceChoice::Kind::Blas:
      useBlas(ref, p, *bind(request.reference.routine));
      break;
    case ReferenceChoice::Kind::Auto: {
      if (ref.work.applications <= request.interpreterBudget) {
        runInterpreter();
        break;
      }
      std::string tooLarge =
          fmt::format("too large for the interpreter: {:.3g} function applications, budget {:.3g}",
                      ref.work.applications, request.interpreterBudget);
      std::optional<BlasRoutine> routine = suggestedRoutine(p);
      std::string why;
      if (routine && blasAvailable(&why)) {
        if (auto b = bindBlas(p, *routine, &why)) {
          useBlas(ref, p, *b);
          break;
        }
        why = fmt::format("not {}: {}", toString(*routine), why);
      }
      ref.description = fmt::format("not validated ({}{})", tooLarge, why.empty() ? "" : "; " + why);
      break;
    }
  }
  ref.milliseconds = msSince(start);
  return ref;
}

// ----- evaluation --------------------------------------------------------------------------------

Evaluation evaluate(const ir::Program& p, const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference) {
  auto start = Clock::now();
  Evaluation e;
  e.sizes = request.sizes;
  if (auto problem = interp::sizeProblem(p, request.sizes)) {
    e.status = EvaluationStatus::InvalidSizes;
    e.diagnostic = *problem;
    e.message = problem->message;
    return e;
  }
  CompileOptions options = request.compile;
  if (!request.global.empty()) {
    options.globalSize.clear();
    for (int64_t g : request.global) options.globalSize.push_back(arith::cst(g));
  }
  if (!request.local.empty()) {
    options.localSize.clear();
    for (int64_t l : request.local) options.localSize.push_back(arith::cst(l));
  }
  std::shared_ptr<const CompiledProgram> compiled;
  try {
    compiled = std::make_shared<const CompiledProgram>(compileProgram(p, options));
  } catch (const LiftError& err) {
    return failed(std::move(e), EvaluationStatus::CompileFailed, err);
  }
  double compileMs = msSince(start);
  Evaluation r = compiled->singleKernel()
                     ? evaluate(p, std::make_shared<const CompiledKernel>(compiled->stages.front().kernel),
                                request, evaluator, reference)
                     : evaluate(p, compiled, request, evaluator, reference);
  r.program = std::move(compiled);
  r.compileMs = compileMs;
  r.totalMs = msSince(start);
  return r;
}

namespace {

// The evaluation of a compiled kernel or sequence of kernels (`e` says which it is).
template <class Compiled>
Evaluation evaluateCompiled(const ir::Program& p, const Compiled& compiled, Evaluation e,
                            const EvaluationRequest& request, runtime::Evaluator& evaluator,
                            const PreparedReference* reference) {
  auto start = Clock::now();
  e.sizes = request.sizes;
  if (auto problem = interp::sizeProblem(p, request.sizes)) {
    e.status = EvaluationStatus::InvalidSizes;
    e.diagnostic = *problem;
    e.message = problem->message;
    return e;
  }

  runtime::KernelLaunch launch;
  try {
    launch = instantiate(compiled, request.sizes);
  } catch (const LiftError& err) {
    return failed(std::move(e), EvaluationStatus::InvalidSizes, err);
  }
  launch.seed = request.seed;
  e.global = launch.global;
  e.local = launch.local;

  auto cancelled = [&] { return request.cancel && request.cancel->load(); };
  if (cancelled()) {
    e.status = EvaluationStatus::Cancelled;
    e.message = "cancelled";
    return e;
  }

  // Inputs and expected outputs.
  PreparedReference own;
  if (reference) {
    if (!sameSizes(reference->sizes, request.sizes) || reference->seed != request.seed) {
      e.status = EvaluationStatus::ReferenceFailed;
      e.message =
          fmt::format("the reference was prepared for {} (seed {}), not for {} (seed {})",
                      listSizes(reference->sizes), reference->seed, listSizes(request.sizes), request.seed);
      return e;
    }
  } else {
    auto refStart = Clock::now();
    try {
      own = prepareReference(p, request);
    } catch (const interp::InterpError& err) {
      return failed(std::move(e),
                    err.kind() == interp::InterpError::Kind::Cancelled ? EvaluationStatus::Cancelled
                                                                       : EvaluationStatus::ReferenceFailed,
                    err);
    } catch (const LiftError& err) {
      return failed(std::move(e), EvaluationStatus::ReferenceFailed, err);
    }
    e.referenceMs = msSince(refStart);
    reference = &own;
  }
  try {
    useReference(launch, compiled, *reference);
  } catch (const LiftError& err) {
    return failed(std::move(e), EvaluationStatus::ReferenceFailed, err);
  }

  if (cancelled()) {
    e.status = EvaluationStatus::Cancelled;
    e.message = "cancelled";
    return e;
  }

  // The run.
  support::trace("evaluation: inputs and expected outputs set");
  runtime::RunOptions opts = request.run;
  scaleTolerance(opts.tolerance, launch);
  e.run = evaluator.run(launch, opts);
  e.status = statusOf(e.run.status);
  if (!e.run.ok()) {
    e.message = e.run.message;
    if (e.run.status == runtime::RunStatus::BuildFailed && !e.run.diagnostic.message.empty())
      e.diagnostic = e.run.diagnostic;
  }

  // Validation.
  e.maxRelError = e.run.validation.maxRelError;
  if (reference->expected) {
    e.validatedBy = reference->source;
    if (e.run.status == runtime::RunStatus::WrongResult)
      e.validationText =
          fmt::format("wrong result against {}: {}", reference->description, e.run.validation.message);
    else if (e.run.ok())
      e.validationText =
          fmt::format("ok against {} (max relative error {:.2g})", reference->description, e.maxRelError);
    else
      e.validationText = "not checked (the kernel did not run to completion)";
  } else {
    e.validatedBy = ValidationSource::None;
    if (e.run.status == runtime::RunStatus::WrongResult)
      e.validationText = "wrong result: " + e.run.validation.message;
    else if (e.run.ok())
      e.validationText = reference->description + "; every output element was written";
    else
      e.validationText = "not checked (the kernel did not run to completion)";
  }

  // Work and throughput.
  e.work = request.work ? *request.work : reference->work;
  e.flops = request.work || !reference->blas ? e.work.flops : reference->nominalFlops;
  e.computeBound = e.flops > 0 && e.flops >= interp::kComputeBoundIntensity * e.work.bytes();
  if (e.run.medianMs > 0) {
    e.gflops = e.flops / (e.run.medianMs * 1e6);
    e.gbps = e.work.bytes() / (e.run.medianMs * 1e6);
  }
  e.totalMs = msSince(start);
  return e;
}

}  // namespace

Evaluation evaluate(const ir::Program& p, std::shared_ptr<const CompiledKernel> kernel,
                    const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference) {
  Evaluation e;
  e.kernel = kernel;
  return evaluateCompiled(p, *kernel, std::move(e), request, evaluator, reference);
}

Evaluation evaluate(const ir::Program& p, std::shared_ptr<const CompiledProgram> program,
                    const EvaluationRequest& request, runtime::Evaluator& evaluator,
                    const PreparedReference* reference) {
  Evaluation e;
  e.kernel = std::make_shared<const CompiledKernel>(program->stages.front().kernel);
  e.program = program;
  return evaluateCompiled(p, *program, std::move(e), request, evaluator, reference);
}

std::string Evaluation::throughputText() const {
  if (run.medianMs <= 0) return "";
  return computeBound ? fmt::format("{:.4g} GFLOP/s", gflops) : fmt::format("{:.4g} GB/s", gbps);
}

std::string Evaluation::summary() const {
  if (status == EvaluationStatus::Ok || status == EvaluationStatus::WrongResult) {
    std::string s = fmt::format("{}: median {:.4g} ms, {}", toString(status), run.medianMs, throughputText());
    s += validatedBy == ValidationSource::None ? ", not validated"
                                               : fmt::format(", checked by the {}", toString(validatedBy));
    return s;
  }
  return fmt::format("{}: {}", toString(status), message);
}

// ----- sizes ---------------------------------------------------------------------------------------

arith::Env runSizes(const ir::Program& p, const arith::Env& given, bool small) {
  interp::SizeHint hint;
  hint.fixed = given;
  hint.useDefaults = !small;
  hint.perInputElement = true;  // `--small`: a size counting blocks of 128 elements may be 1
  size_t free = 0;
  for (auto& s : p.sizes)
    if (!given.count(s.name) && (small || !s.defaultValue)) ++free;
  if (!small) {
    hint.atLeast = free <= 1 ? int64_t(1) << 20 : free == 2 ? 1024 : free == 3 ? 128 : 32;
    hint.atMost = int64_t(1) << 24;
  }
  return interp::chooseSizes(p, hint);
}

}  // namespace lift::codegen
