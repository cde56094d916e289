// CompiledProgram: what code generation gives for a program that may need several kernels
// (KernelSplit.h) — the kernels in the order they run, and the arguments of the whole sequence,
// each once: the program's inputs and result, the global temporaries passed from one kernel to
// the next, and each kernel's own temporaries, local buffers and sizes. A program that fits in
// one kernel is one stage whose kernel is compileKernel's.
#pragma once

#include <vector>

#include "codegen/CompiledKernel.h"

namespace lift::codegen {

struct KernelStage {
  CompiledKernel kernel;
  // args[j]: the index in CompiledProgram::params of the kernel's parameter j.
  std::vector<size_t> args;
};

struct CompiledProgram {
  std::vector<KernelStage> stages;  // in the order they run, in one queue
  // Every argument of the sequence. Input and Scalar parameters name the program's inputs
  // (KernelParam::input), Output parameters its result; Temporary parameters are global buffers
  // made by one kernel and read by a later one, or a kernel's own.
  std::vector<KernelParam> params;
  std::vector<Type> inputTypes;  // the program's inputs
  Type resultType;

  bool singleKernel() const { return stages.size() == 1; }
  // "kernel 2 of 2: asum_2, global 1, local 1" (the NDRange in the size variables).
  std::string stageTitle(size_t i) const;
  // The kernels' sources, each after a comment line with its stageTitle when there are several.
  std::string source() const;
};

}  // namespace lift::codegen
