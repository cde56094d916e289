// Work counts of a program at concrete sizes, from which run times become GFLOP/s or GB/s:
// the floating-point operations its user functions (and the `dot` pattern) execute, and the
// bytes a kernel must at least move (every input read once, the result written once).
//
// The counts come from a structural traversal, not from running the program: each user
// function's body is costed once (per call), and each function's number of applications
// follows from the concrete types (map over n elements applies its function n times, a
// reduction n times, iterate unrolled, ...). Counting matmul at 4096^3 takes as long as at 8^3.
//
// What counts as one floating-point operation, per lane of float and double values:
//   + - * / and comparisons                                   1
//   a built-in function (sqrt, exp, fabs, fmin, pow, ...)      1
//   mad, fma, clamp                                            2
//   mix                                                        3
//   dot / the dot pattern on width w                           2w - 1
//   length, distance, normalize on width w                     2w, 3w, 3w; cross 9
//   negation, conversions, selections, isnan & co.             0
// Every application of a reduction's operator counts, the one that combines the initial value
// too: reduce(add, 0.0f) over N elements is N additions, so asum (fabs and +) counts 2N, dot
// (mult and add) 2N, scal N, matmul 2MNK, gemv 2MN + 3M (its alpha * Ax + beta * y). md_hom
// has no initial value: md_dot is 2N - 1, md_gemv 2MK - M, md_gemm 2MNK - MN.
// Integer arithmetic is counted separately (intOps) and is not part of the flops.
//
// A body with a loop whose trip count is not a constant (`for (int i = 0; i < 4; i++)` is one),
// or with branches of different cost, is costed with one iteration, or the costlier branch;
// the count then says it is not exact.
#pragma once

#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::cfun {
struct Body;
}

namespace lift::interp {

// Flops per byte at and above which a program is reported in GFLOP/s rather than GB/s. Below
// one operation per byte moved (gemv: 0.5, dot: 0.25, asum: 0.5, element-wise maps less) the
// memory traffic bounds the run time on every device this tool targets, so GB/s says more;
// matmul (hundreds), n-body and Black-Scholes (several) are reported in GFLOP/s.
constexpr double kComputeBoundIntensity = 1.0;

// The cost of one call of a user function's body.
struct BodyWork {
  double flops = 0;
  double intOps = 0;
  bool exact = true;
  std::string inexactReason;  // "loop at 3:5 with a trip count that is not a constant"
};

BodyWork countBodyWork(const cfun::Body& body);

// One user function's share of a program's work.
struct FunctionWork {
  std::string name;
  double calls = 0;
  double flopsPerCall = 0;  // per call; a vectorized function (vectorize(4, f)) counts 4 lanes
  double intOpsPerCall = 0;
};

struct WorkCount {
  double flops = 0;         // floating-point operations (see the table above)
  double intOps = 0;        // integer arithmetic in user functions
  double userFunCalls = 0;  // calls of user functions (a vectorized call counts its lanes)
  // Function applications (patterns, lambdas, user functions) the interpreter would make: its
  // cost, in the unit of InterpOptions::maxApplications.
  double applications = 0;
  double bytesRead = 0;     // every input once
  double bytesWritten = 0;  // the result once
  bool exact = true;
  std::string inexactReason;            // the first reason, when not exact
  std::vector<FunctionWork> functions;  // in order of first call

  double bytes() const { return bytesRead + bytesWritten; }
  // Flops per byte moved; 0 when nothing is moved.
  double intensity() const { return bytes() > 0 ? flops / bytes() : 0; }
  // Whether throughput is best reported in GFLOP/s (else GB/s).
  bool computeBound() const { return flops > 0 && intensity() >= kComputeBoundIntensity; }
  // Throughput of a run taking `ms` milliseconds (0 when ms <= 0).
  double gflopsPerSecond(double ms) const { return ms > 0 ? flops / (ms * 1e6) : 0; }
  double gigabytesPerSecond(double ms) const { return ms > 0 ? bytes() / (ms * 1e6) : 0; }
  // "2.147 GFLOP, 12.58 MB moved, 171 flop/byte" (saying why when it is an estimate).
  std::string summary() const;
};

// The work of `p` with its size variables set to `sizes` (all of them). Throws LiftError when
// the program is not valid at these sizes (as interp::sizeProblem says).
WorkCount countWork(const ir::Program& p, const arith::Env& sizes);

// "2.147 GFLOP", "12.58 MB", "12 FLOP": a count with a decimal prefix (4 significant digits).
std::string siPrefixed(double value, const std::string& unit);

}  // namespace lift::interp
