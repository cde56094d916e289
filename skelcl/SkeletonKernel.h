// SkeletonKernel: the OpenCL kernel of one skeleton, made by the Lift compiler. The skeleton's
// program (.lift text, already lowered: mapGlb, reduceSeq, ...) is parsed and compiled once, on
// construction, so that errors in the user function show at once; sizes are kernel arguments,
// so one kernel serves every size. The OpenCL program is built for each device through the
// device set's BuildCache (memory, then disk), and the kernel object kept per device. A program
// that leaves the local size open is launched with the work-group shape of WorkGroupShape.h.
#pragma once

#include <CL/opencl.hpp>

#include <map>
#include <string>
#include <vector>

#include "codegen/CompiledKernel.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "skelcl/DeviceSet.h"

namespace lift::skelcl {

class SkeletonKernel {
 public:
  // `what` names the skeleton in messages ("Map<float(float)>"). Throws LiftError (located in
  // `liftText`) when the program does not parse, type-check or compile.
  SkeletonKernel(const std::string& liftText, const std::string& what);
  // A program the skeleton made and compiled itself (AllPairs, whose row function is lowered by
  // rewriting).
  SkeletonKernel(ir::Program program, codegen::CompiledKernel compiled, const std::string& what);

  const ir::Program& program() const { return program_; }
  const codegen::CompiledKernel& compiled() const { return compiled_; }
  const std::string& what() const { return what_; }

  // Enqueues the kernel on `device` of `devices` with `buffers` for its buffer parameters (in
  // order: inputs, then the output) and `sizes` for its size variables; returns without waiting.
  // Build failures are BuildErrors, OpenCL failures DeviceErrors.
  void enqueue(DeviceSet& devices, int device, const std::vector<cl::Buffer>& buffers,
               const arith::Env& sizes);

 private:
  // The kernel built for a device's context, and the most work-items a work-group of it may have
  // there.
  struct Built {
    cl::Kernel kernel;
    size_t maxItems = 0;
  };
  Built& kernelFor(DeviceSet& devices, int device);

  std::string what_;
  ir::Program program_;
  codegen::CompiledKernel compiled_;
  // By the context of the device (the kernel keeps its program and so the context alive).
  std::map<cl_context, Built> kernels_;
};

}  // namespace lift::skelcl
