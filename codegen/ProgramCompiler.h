// compileProgram: a lowered program to the sequence of kernels that computes it — split where
// one kernel cannot (KernelSplit.h), each part compiled by compileKernel (Compiler.h), the
// parts' arguments joined into those of the whole sequence (CompiledProgram.h).
#pragma once

#include "codegen/CompileOptions.h"
#include "codegen/CompiledProgram.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// The options' globalSize applies to the first kernel only, the others take their programs'
// own global size. Its localSize applies to the first kernel and to every later one whose
// program leaves its work-group size to the runtime (global maps), where it provably divides
// the global size; the others keep their programs' own (a work-group's kernel, one work-item).
// Throws what compileKernel throws, for the part that fails.
CompiledProgram compileProgram(const ir::Program& program, const CompileOptions& options = {});

// The program of one kernel: its stage, and params with one entry per kernel parameter.
CompiledProgram singleKernelProgram(CompiledKernel kernel);

}  // namespace lift::codegen
