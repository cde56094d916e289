// Execution of user-function bodies on concrete values, with C and OpenCL C semantics: float
// arithmetic in 32 bits, 32-bit wrapping int arithmetic, shifts masked to the bit width.
// Integer division by zero and endless loops are errors located in the .lift file.
#pragma once

#include <cstdint>
#include <span>

#include "core/cfun/CFunAst.h"

namespace lift::cfun {

struct EvalLimits {
  // Statements and loop iterations one call may execute before it is stopped.
  uint64_t maxSteps = 10'000'000;
};

// Runs `body` on its arguments, given as the parameters' slots in order (see slotCount), and
// writes slotCount(body.returnType) slots to `result`. Throws LiftError for integer division
// by zero or overflow, and when the step limit is exceeded.
void evaluate(const Body& body, std::span<const Scalar> args, std::span<Scalar> result,
              const EvalLimits& limits = {});

// `v` (of kind `from`) converted to kind `to` as C converts: float to int truncates toward
// zero (NaN gives 0, values out of range saturate), anything to bool tests for non-zero.
Scalar convertScalar(Scalar v, ScalarKind from, ScalarKind to);

}  // namespace lift::cfun
