// The code generator's entry point: a lowered Lift program to one OpenCL kernel (CGO 2017,
// section 5). The passes, in order: type check (core), lowering checks, NDRange, barrier
// planning, address spaces and memory allocation with views during generation, index
// simplification, control-flow simplification, unrolling and private-array scalarization,
// printing. docs/CODEGEN.md describes each.
#pragma once

#include "codegen/CompileOptions.h"
#include "codegen/CompiledKernel.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// Throws LiftError, located at the offending node, for programs that are not lowered or that
// one kernel cannot compute (see LoweringCheck.h); the type checker's errors pass through.
CompiledKernel compileKernel(const ir::Program& program, const CompileOptions& options = {});

}  // namespace lift::codegen
