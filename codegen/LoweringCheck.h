// Checks that a program can be compiled to one OpenCL kernel, before any code is generated:
// every computation is lowered (no high-level map with computation, reduce or partRed), local
// memory is only used inside a work-group, a result of mapGlb or mapWrg is only consumed where
// no synchronisation across work-groups is needed, and a result of a mapLcl nested in another
// mapLcl only where no barrier inside the enclosing mapLcl's loop is needed. Violations are LoweringErrors
// located at the offending node.
#pragma once

#include "codegen/ProgramIndex.h"
#include "core/ir/IR.h"
#include "core/support/Diagnostic.h"

namespace lift::codegen {

// The program's structure cannot become one OpenCL kernel, whatever its sizes and launch (the
// explorer drops such mappings instead of trying other parameter values).
class LoweringError : public LiftError {
 public:
  using LiftError::LiftError;
};

void checkLowered(const ProgramIndex& index);

// Whether a mapGlb's or mapWrg's function has a parallel map across work-groups (of another
// dimension), so that each element of its result is made by several work-items or work-groups:
// no map of the same kind and dimension can consume it element-wise in the same kernel.
bool spreadsElements(const ir::PatternNode& parallelMap);

// Whether applying f generates no code (only data-layout patterns, maps of them, parameters).
bool isViewFunction(const ir::Fun& f);
bool isViewExpr(const ir::Expr& e);

}  // namespace lift::codegen
