// Checks that a program can be compiled to one OpenCL kernel, before any code is generated:
// every computation is lowered (no high-level map with computation, reduce or partRed), local
// memory is only used inside a work-group, and a result of mapGlb or mapWrg is only consumed
// where no synchronisation across work-groups is needed. Violations are LiftErrors located at
// the offending node.
#pragma once

#include "codegen/ProgramIndex.h"
#include "core/ir/IR.h"

namespace lift::codegen {

void checkLowered(const ProgramIndex& index);

// Whether applying f generates no code (only data-layout patterns, maps of them, parameters).
bool isViewFunction(const ir::Fun& f);
bool isViewExpr(const ir::Expr& e);

}  // namespace lift::codegen
