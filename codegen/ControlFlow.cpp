// The loop form of each map and reduction (ControlFlow.h).
#include "codegen/ControlFlow.h"

namespace lift::codegen {

bool provablyEqual(arith::Expr a, arith::Expr b) {
  if (a == b) return true;
  return arith::provablyLessEqual(a, b) && arith::provablyLessEqual(b, a);
}

LoopForm parallelLoopForm(arith::Expr n, arith::Expr threads, bool simplify) {
  if (!simplify || !threads) return LoopForm::Loop;
  if (provablyEqual(n, threads)) return LoopForm::Single;
  if (arith::provablyLessEqual(n, threads)) return LoopForm::Guard;
  return LoopForm::Loop;
}

LoopForm sequentialLoopForm(arith::Expr n, bool simplify, bool unroll) {
  if (unroll && n.isCst()) return LoopForm::Unrolled;
  if (simplify && n.isCst() && n.value() == 1) return LoopForm::Single;
  return LoopForm::Loop;
}

}  // namespace lift::codegen
