// Control-flow simplification (CGO 2017, section 5.5): a map or reduction is a loop unless the
// types and the NDRange prove less is needed. A parallel map whose length equals the number of
// work-items sharing it runs exactly one iteration per work-item (no loop: `int l_id =
// get_local_id(0);`); with at most as many elements as work-items, an `if` guards the one
// iteration; otherwise a loop strides by the number of work-items. A sequential loop of one
// iteration is its body. Unrolled loops repeat their body with constant indices.
#pragma once

#include "core/arith/ArithExpr.h"

namespace lift::codegen {

enum class LoopForm : uint8_t { Loop, Guard, Single, Unrolled };

// A parallel map of n elements shared by `threads` work-items (null: unknown).
LoopForm parallelLoopForm(arith::Expr n, arith::Expr threads, bool simplify);
// A sequential loop of n iterations.
LoopForm sequentialLoopForm(arith::Expr n, bool simplify, bool unroll);

// Whether a == b for every value of the variables.
bool provablyEqual(arith::Expr a, arith::Expr b);

}  // namespace lift::codegen
