// What the host sees of a generated kernel: its parameters in signature order and its launch
// configuration, assembled from the kernel model in one place.
#pragma once

#include <string>
#include <vector>

#include "codegen/CompiledKernel.h"
#include "codegen/KernelBuilder.h"

namespace lift::codegen {

// The program's inputs in order (buffers, tuple inputs by component, scalars), the outputs,
// global temporaries, local buffers sized at launch, then the size variables.
std::vector<KernelParam> kernelParameters(const ir::Program& program, const KernelModel& model);

// The NDRange and local memory of the kernel. Throws LiftError, located at the largest local
// allocation, when the kernel needs more local memory than a work-group can have.
LaunchInfo launchInfo(const ir::Program& program, const KernelModel& model, const CompileOptions& options);

// `__attribute__((reqd_work_group_size(...)))` when the kernel relies on a constant local size.
std::string kernelAttributes(const KernelModel& model, const CompileOptions& options);

}  // namespace lift::codegen
