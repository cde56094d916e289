// The meaning of gather's and scatter's index functions (ir::IndexFun), defined once: element
// i of an array of length n is read from (gather) or written to (scatter) position f(i, n).
//
//   reverse               f(i) = n - 1 - i
//   reorderStride(s)      f(i) = i / (n/s) + s * (i % (n/s))     (Lift's ReorderWithStride;
//                         n divisible by s: the elements s apart become neighbours)
//   transpose(R, C)       f(i) = (i % R) * C + i / R             (n = R*C: reading the
//                         row-major R x C matrix column by column, i.e. the flattened transpose)
//
// The symbolic form is what code generation emits; the numeric one is what the interpreter runs.
#pragma once

#include <cstdint>

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::interp {

arith::Expr indexFunction(const ir::IndexFun& f, arith::Expr i, arith::Expr n);
// Numeric evaluation; the parameters of f (s, R, C) are evaluated in `sizes`.
int64_t indexFunction(const ir::IndexFun& f, int64_t i, int64_t n, const arith::Env& sizes);

}  // namespace lift::interp
