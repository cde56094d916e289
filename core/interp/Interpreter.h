// The reference interpreter: runs any well-typed Lift program, high or low level, on concrete
// values. It is the oracle for rewrite rules and generated kernels, so it implements each
// pattern's meaning directly (docs/LANGUAGE.md), with the OpenCL patterns behaving as their
// algorithmic counterparts: mapGlb/mapWrg/mapLcl/mapSeq/mapSeqUnroll are map, reduceSeq and
// reduceSeqUnroll are reduce, toGlobal/toLocal/toPrivate(f) are f, reorderStride(s) is
// gather(reorderStride(s)).
//
// Checks the interpreter makes as it runs (each an InterpError located at the IR node):
// input shapes against the declared types, lengths (zip, split, asVector, partRed, slide),
// index functions out of bounds, scatter collisions, and the user functions' own errors
// (integer division by zero, endless loops).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/cfun/CFunEval.h"
#include "core/interp/Value.h"
#include "core/ir/IR.h"
#include "core/support/Diagnostic.h"

namespace lift::interp {

class InterpError : public LiftError {
 public:
  enum class Kind : uint8_t {
    Input,         // an input does not match the program's declared type at the given sizes
    Shape,         // a length or divisibility condition fails at run time (e.g. split 4 of 10)
    OutOfBounds,   // an index function reads or writes outside the array
    UserFunction,  // a user function failed (division by zero, step limit)
    Unbound,       // a size variable or parameter without a value
    Limit,         // InterpOptions::maxApplications was reached
    Cancelled,     // InterpOptions::cancel was set
  };
  InterpError(Kind k, Diagnostic d) : LiftError(std::move(d)), kind_(k) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

struct InterpOptions {
  cfun::EvalLimits userFunLimits;  // per call of a user function
  // Function applications (patterns, lambdas, user functions) one run may make; 0: no limit.
  uint64_t maxApplications = 0;
  // Checked as the interpreter runs: a background job sets it to stop a long run.
  const std::atomic<bool>* cancel = nullptr;
};

// Runs the program on `inputs` (one per input, in order) with the size variables set to
// `sizes`. Throws InterpError.
Value interpret(const ir::Program& p, const std::vector<Value>& inputs, const arith::Env& sizes,
                const InterpOptions& opts = {});

// Applies a function (e.g. a fragment a rewrite rule changed) to argument values. Errors are
// located through `context` when given.
Value applyFunction(const ir::Fun& f, const std::vector<Value>& args, const arith::Env& sizes,
                    const ir::Program* context = nullptr, const InterpOptions& opts = {});

// Checks that the inputs match the declared input types at `sizes` (throws InterpError::Input).
void checkInputs(const ir::Program& p, const std::vector<Value>& inputs, const arith::Env& sizes);

// The type with every length evaluated at `sizes` ("[[float]K]M" -> "[[float]8]16").
Type concreteType(Type t, const arith::Env& sizes);

}  // namespace lift::interp
