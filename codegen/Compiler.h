// The code generator's entry point: a lowered Lift program to one OpenCL kernel (CGO 2017,
// section 5). compileKernel (Compiler.cpp) is the pipeline, one pass a line: type check (core),
// lowering checks, NDRange, barrier planning, generation (KernelGenerator.h: address spaces,
// memory and views, every barrier that may be needed), barrier elimination, repeated barriers,
// barrier placement check, private-array scalarization, parameters and launch configuration
// (KernelInterface.h), printing with index simplification. docs/CODEGEN.md describes each.
#pragma once

#include "codegen/CompileOptions.h"
#include "codegen/CompiledKernel.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// Throws LiftError, located at the offending node, for programs that are not lowered or that
// one kernel cannot compute (see LoweringCheck.h); the type checker's errors pass through.
CompiledKernel compileKernel(const ir::Program& program, const CompileOptions& options = {});

}  // namespace lift::codegen
