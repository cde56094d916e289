// Compiling a skeleton's program with the Lift compiler and launching it on device buffers.
#include "skelcl/SkeletonKernel.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include "codegen/Compiler.h"
#include "codegen/Launch.h"
#include "core/lang/Parser.h"
#include "skelcl/WorkGroupShape.h"

namespace lift::skelcl {

SkeletonKernel::SkeletonKernel(const std::string& liftText, const std::string& what)
    : what_(what),
      program_(lang::parseProgram(liftText, what)),
      compiled_(codegen::compileKernel(program_)) {}

SkeletonKernel::SkeletonKernel(ir::Program program, codegen::CompiledKernel compiled, const std::string& what)
    : what_(what), program_(std::move(program)), compiled_(std::move(compiled)) {}

SkeletonKernel::Built& SkeletonKernel::kernelFor(DeviceSet& devices, int device) {
  runtime::DeviceContext& ctx = devices.context(device);
  auto it = kernels_.find(ctx.context()());
  if (it != kernels_.end()) return it->second;
  runtime::BuiltProgram built =
      devices.cache().build(ctx, compiled_.source, "", compiled_.kernelName + ".cl");
  Built b;
  devices.guarded(device, "creating the kernel " + compiled_.kernelName, [&] {
    b.kernel = cl::Kernel(built.program, compiled_.kernelName.c_str());
    b.maxItems = b.kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx.device().handle());
  });
  return kernels_.emplace(ctx.context()(), b).first->second;
}

void SkeletonKernel::enqueue(DeviceSet& devices, int device, const std::vector<cl::Buffer>& buffers,
                             const arith::Env& sizes) {
  for (const auto& [name, value] : sizes)
    if (value > std::numeric_limits<int32_t>::max())
      throw LiftError(
          fmt::format("{}: {} elements on one device; the kernels take at most 2^31-1", what_, value));
  runtime::KernelLaunch launch = codegen::instantiate(compiled_, sizes);
  Built& built = kernelFor(devices, device);
  cl::Kernel& kernel = built.kernel;
  if (launch.local.empty()) launch.local = workGroupShapeFor(launch.global, built.maxItems);
  runtime::DeviceContext& ctx = devices.context(device);
  devices.guarded(device, "launching " + compiled_.kernelName, [&] {
    size_t nextBuffer = 0;
    std::vector<cl::Buffer> temporaries;
    for (size_t i = 0; i < launch.args.size(); ++i) {
      const runtime::KernelArg& a = launch.args[i];
      const auto index = static_cast<cl_uint>(i);
      const codegen::KernelParam& p = compiled_.params[i];
      switch (a.kind) {
        case runtime::KernelArg::Kind::Buffer:
          if (p.kind == codegen::KernelParam::Kind::Temporary) {
            temporaries.emplace_back(ctx.context(), CL_MEM_READ_WRITE, a.byteSize());
            kernel.setArg(index, temporaries.back());
          } else {
            LIFT_ASSERT(nextBuffer < buffers.size(), what_ + ": fewer buffers than kernel parameters");
            kernel.setArg(index, buffers[nextBuffer++]);
          }
          break;
        case runtime::KernelArg::Kind::Scalar:  // the skeletons' programs take only sizes
          LIFT_ASSERT(a.type.scalar == runtime::ScalarType::Int,
                      what_ + ": a scalar input that is not a size");
          kernel.setArg(index, static_cast<cl_int>(a.intValue));
          break;
        case runtime::KernelArg::Kind::Local:
          kernel.setArg(index, cl::Local(a.localBytes));
          break;
      }
    }
    LIFT_ASSERT(nextBuffer == buffers.size(), what_ + ": more buffers than kernel parameters");
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, runtime::toNDRange(launch.global),
                                     launch.local.empty() ? cl::NullRange : runtime::toNDRange(launch.local));
  });
}

}  // namespace lift::skelcl
