// Checks that a program can be compiled to one OpenCL kernel, before any code is generated:
// every computation is lowered (no high-level map with computation, reduce or partRed), local
// memory is only used inside a work-group, and a result of mapGlb or mapWrg is only consumed
// where no synchronisation across work-groups is needed. Violations are LoweringErrors located
// at the offending node.
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

// Whether applying f generates no code (only data-layout patterns, maps of them, parameters).
bool isViewFunction(const ir::Fun& f);
bool isViewExpr(const ir::Expr& e);

}  // namespace lift::codegen
