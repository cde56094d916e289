// The dimensions of a BLAS routine bound to a program (BlasReference.h) at given sizes, for
// calling the routine from another library on the program's shapes: the application's CLBlast
// line (views/ClBlastTiming.h). Defined with the bindings, in BlasReference.cpp.
#pragma once

#include <cstdint>

#include "codegen/BlasReference.h"

namespace lift::codegen {

struct BlasDims {
  // sgemm: C (m x n) = op(A) (m x k) x op(B) (k x n); sgemv: A's rows (m) and columns (n) as
  // stored, row-major; sdot, sasum, sscal: n, the length of the whole vector.
  int64_t m = 0, n = 0, k = 0;
  // sdot, sasum: the program's outputs, the sums of that many equal chunks of the vector.
  int64_t chunks = 1;
};

// Throws LiftError when the program's shapes at `sizes` do not fit the binding.
BlasDims blasDims(const BlasBinding& binding, const ir::Program& p, const arith::Env& sizes);

}  // namespace lift::codegen
