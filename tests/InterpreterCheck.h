// Runs a compiled program on the OpenCL device of a KernelRunner with the given inputs and checks
// its output against the interpreter's (the tests' oracle), within a relative and absolute
// tolerance: one run, no warm-up. Returns the run's result and a message for a failing check (the
// sizes, the run's summary and validation, the build log when the build failed, the kernel).
#pragma once

#include <string>
#include <vector>

#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Value.h"
#include "rewrite/explore/SearchProblem.h"

struct InterpreterCheck {
  lift::runtime::RunResult result;
  std::string what;
  // Ran, and its output was compared with the interpreter's and matched.
  bool matched() const { return result.ok() && result.validation.checked && result.validation.ok; }
};

inline InterpreterCheck runAgainstInterpreter(lift::runtime::KernelRunner& runner,
                                              const lift::codegen::CompiledProgram& k,
                                              const std::vector<lift::interp::Value>& inputs,
                                              const lift::interp::Value& expected,
                                              const lift::arith::Env& sizes, double tolerance) {
  using namespace lift;
  runtime::KernelLaunch launch = codegen::instantiate(k, sizes);
  codegen::setInputs(launch, k, inputs);
  codegen::setExpected(launch, k, expected);
  runtime::RunOptions opts;
  opts.warmups = 0;
  opts.repetitions = 1;
  opts.tolerance.floatRel = tolerance;
  opts.tolerance.floatAbs = tolerance;
  InterpreterCheck c{runner.run(launch, opts), ""};
  c.what = explore::formatSizes(sizes) + ": " + c.result.summary() + " " + c.result.validation.message;
  if (c.result.status == runtime::RunStatus::BuildFailed) c.what += "\n" + c.result.buildLog;
  c.what += "\n" + k.source();
  return c;
}
