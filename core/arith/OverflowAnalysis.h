// The overflow query of the arithmetic (core/arith/OverflowAnalysis.cpp, docs/ARITH.md,
// "Overflow"): whether evaluating an expression can overflow 64 bits within its ranges.
#pragma once

#include "core/arith/ArithExpr.h"

namespace lift::arith {

// No intermediate value of evaluating e (sub-expressions, partial sums and products) can
// overflow 64 bits for any values of the variables in their ranges.
bool provablyNoOverflow(Expr e);

}  // namespace lift::arith
