// OpenBLAS as the reference for programs too large for the interpreter that compute a BLAS
// routine (sgemm, sgemv, sdot, sasum, sscal): the expected output of a kernel at the sizes it
// runs at, computed by the optimised CPU library.
//
// A routine is bound to a program by trial, not by reading its structure: every way the
// routine can take the program's inputs (which input is A and which B, transposed or not, the
// output transposed, alpha and beta, a reduction split into equal chunks as the partial-sum
// examples are) is computed at small sizes on seeded random inputs and compared with the
// interpreter; the first that agrees is the binding. So a binding is only made for a program
// that computes what the routine computes, and `--reference sgemm` on another program is an
// error, not a false "valid".
//
// OpenBLAS is loaded on first use (dlopen of libopenblas.so.0), so that only what validates
// against it needs it, and a liftc without it (the GPU machine may lack it) still runs and
// says why a BLAS reference is unavailable.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"
#include "core/ir/IR.h"

namespace lift::codegen {

enum class BlasRoutine : uint8_t { Sgemm, Sgemv, Sdot, Sasum, Sscal };

const char* toString(BlasRoutine r);  // "sgemm", ...
std::optional<BlasRoutine> blasRoutineByName(std::string_view name);
// The routine a program's or file's name suggests ("matmul_best" and "mm" -> sgemm,
// "gemv" -> sgemv, "partialDot" -> sdot, "asum" -> sasum, "scal" -> sscal), if any.
std::optional<BlasRoutine> blasRoutineSuggestedBy(std::string_view name);

// Whether OpenBLAS can be loaded; `why` says what failed when not.
bool blasAvailable(std::string* why = nullptr);

// How a routine takes a program's inputs (see the file comment).
struct BlasBinding {
  BlasRoutine routine = BlasRoutine::Sgemm;
  std::vector<int> arrays;  // program inputs: sgemm A, B; sgemv A, x[, y]; sdot x, y; sasum, sscal x
  int alpha = -1;           // program input holding alpha (-1: 1)
  int beta = -1;            // program input holding beta (-1: 1 with y, else 0)
  bool transA = false, transB = false;
  bool transC = false;  // sgemm: the program's output is (AB)^T

  // "sgemm (A x B^T)", "sdot (in 512 chunks)" style text naming the program's inputs.
  std::string describe(const ir::Program& p) const;

  // The expected output, as the program's output scalars in order (row-major), for `inputs`
  // (the program's, at `sizes`) when the output has `outputScalars` scalars. Throws LiftError
  // when the inputs' shapes do not fit the binding at these sizes, or OpenBLAS is missing.
  std::vector<float> compute(const ir::Program& p, const std::vector<interp::Value>& inputs,
                             const arith::Env& sizes, size_t outputScalars) const;

  // The median host time, in milliseconds, of the routine on arrays of the program's shapes at
  // `sizes` (after a warm-up call): the OpenBLAS line of the application's performance plot.
  // Throws LiftError as compute does.
  double medianMs(const ir::Program& p, const arith::Env& sizes, int repetitions = 5) const;

  // The routine's operation count at these sizes (sgemm 2mnk, sgemv 2mn, sdot 2n, sasum 2n,
  // sscal n: the conventions of interp/WorkCount.h).
  double nominalFlops(const ir::Program& p, const arith::Env& sizes) const;
};

// The most interpreter work (function applications) bindBlas spends on its check: a few seconds.
constexpr double kMaxBindingCheckWork = 2e7;

// Binds `routine` to `p` by comparing every candidate with the interpreter at small valid
// sizes. nullopt when none agrees, when the program's inputs cannot be the routine's, or when
// even its smallest sizes (constants) cost the interpreter more than kMaxBindingCheckWork
// (`why` says which); throws LiftError only when OpenBLAS cannot be loaded.
std::optional<BlasBinding> bindBlas(const ir::Program& p, BlasRoutine routine, std::string* why = nullptr);

}  // namespace lift::codegen
