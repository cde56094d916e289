// Skeleton kernels from a result store: looked up, replayed, compiled and launched.
#include "skelcl/StoredKernel.h"

#include <fmt/format.h>

#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/RegisterCap.h"
#include "core/lang/Parser.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/SearchProblem.h"
#include "rewrite/explore/SearchRunner.h"
#include "rewrite/explore/StoredDerivation.h"
#include "skelcl/DeviceBufferPool.h"

namespace lift::skelcl {

StoredKernel::StoredKernel(explore::KernelRecord record, codegen::CompiledProgram compiled, arith::Env sizes,
                           std::string what)
    : record_(std::move(record)),
      compiled_(std::move(compiled)),
      sizes_(std::move(sizes)),
      what_(std::move(what)) {}

void StoredKernel::enqueue(DeviceSet& devices, int device, const std::vector<cl::Buffer>& inputs,
                           const cl::Buffer& output) {
  const runtime::KernelLaunch launch = codegen::instantiate(compiled_, sizes_);
  const std::vector<codegen::KernelParam>& params =
      compiled_.singleKernel() ? compiled_.stages.front().kernel.params : compiled_.params;
  runtime::DeviceContext& ctx = devices.context(device);
  const std::vector<runtime::KernelCall> calls = launch.calls();
  std::vector<cl::Kernel*> kernels;
  for (size_t s = 0; s < calls.size(); ++s) {
    auto it = kernels_.find({ctx.context()(), s});
    if (it == kernels_.end()) {
      runtime::BuiltProgram built =
          devices.cache().build(ctx, calls[s].source, launch.buildOptions, calls[s].kernelName + ".cl",
                                runtime::entryDirectiveFor(launch, ctx.device().info()));
      cl::Kernel kernel;
      devices.guarded(device, "creating the stored kernel " + calls[s].kernelName,
                      [&] { kernel = cl::Kernel(built.program, calls[s].kernelName.c_str()); });
      it = kernels_.emplace(std::pair{ctx.context()(), s}, kernel).first;
    }
    kernels.push_back(&it->second);
  }
  devices.guarded(device, fmt::format("launching the stored kernel {} of {}", record_.id, what_), [&] {
    std::vector<cl::Buffer> buffers(launch.args.size());
    // Temporaries come from the device set's pool and go back to it when this returns: the
    // queue is in order, so the kernels enqueued here run before any later owner's commands.
    std::vector<DeviceBufferPool::Lease> temporaries;
    for (size_t i = 0; i < launch.args.size(); ++i) {
      if (!launch.args[i].isBuffer()) continue;
      switch (params[i].kind) {
        case codegen::KernelParam::Kind::Input:
          LIFT_ASSERT(params[i].input >= 0 && static_cast<size_t>(params[i].input) < inputs.size() &&
                          params[i].component < 0,
                      what_ + ": a stored kernel's input that is not one of the skeleton's buffers");
          buffers[i] = inputs[static_cast<size_t>(params[i].input)];
          break;
        case codegen::KernelParam::Kind::Output:
          LIFT_ASSERT(params[i].component < 0, what_ + ": a stored kernel with a tuple result");
          buffers[i] = output;
          break;
        default:  // temporaries, shared by the kernels of the sequence
          temporaries.push_back(devices.bufferPool().acquire(ctx.context(), launch.args[i].byteSize()));
          buffers[i] = temporaries.back().buffer();
      }
    }
    for (size_t s = 0; s < calls.size(); ++s) {
      cl::Kernel& kernel = *kernels[s];
      for (size_t j = 0; j < calls[s].args.size(); ++j) {
        const runtime::KernelArg& a = launch.args[calls[s].args[j]];
        const auto index = static_cast<cl_uint>(j);
        switch (a.kind) {
          case runtime::KernelArg::Kind::Buffer:
            kernel.setArg(index, buffers[calls[s].args[j]]);
            break;
          case runtime::KernelArg::Kind::Scalar:
            LIFT_ASSERT(a.type.scalar == runtime::ScalarType::Int,
                        what_ + ": a stored kernel's scalar input");
            kernel.setArg(index, static_cast<cl_int>(a.intValue));
            break;
          case runtime::KernelArg::Kind::Local:
            kernel.setArg(index, cl::Local(a.localBytes));
            break;
        }
      }
      ctx.queue().enqueueNDRangeKernel(
          kernel, cl::NullRange, runtime::toNDRange(calls[s].global),
          calls[s].local.empty() ? cl::NullRange : runtime::toNDRange(calls[s].local));
    }
  });
}

StoredKernels::StoredKernels(const std::string& liftText, const std::string& what)
    : liftText_(liftText), what_(what), program_(lang::parseProgram(liftText, what)) {}

StoredKernel* StoredKernels::find(DeviceSet& devices, int device, const arith::Env& sizes) {
  lastUsed_ = 0;
  explore::ResultStore* store = devices.resultStore().get();
  if (!store) return nullptr;
  const std::string deviceName = explore::deviceName(devices.context(device).device().info());
  auto key = std::make_tuple(store->path(), deviceName, explore::formatSizes(sizes));
  if (auto it = found_.find(key); it != found_.end()) {
    lastUsed_ = it->second ? it->second->record().id : 0;
    return it->second.get();
  }
  std::unique_ptr<StoredKernel>& slot = found_[key];
  for (const auto& [name, value] : sizes)
    if (value <= 0) return nullptr;  // an empty part: nothing to look up
  std::optional<explore::SearchProblem> problem;
  try {
    problem = explore::SearchProblem::make(program_, sizes);
  } catch (const LiftError& e) {  // sizes the high-level program does not take: nothing stored
    whyNot_ = fmt::format("{}: no stored kernel at {}: {}", what_, explore::formatSizes(sizes), e.what());
    return nullptr;
  }
  const std::optional<explore::KernelRecord> best =
      store->bestKernel(problem->startHash, problem->sizesText, deviceName);
  if (!best) return nullptr;
  const explore::KernelRecord& k = *best;
  std::string why;
  auto derived = explore::replayStored(*problem, k, &why);
  if (!derived) {
    whyNot_ = fmt::format("{}: the stored kernel {} no longer replays: {}", what_, k.id, why);
    return nullptr;
  }
  try {
    slot = std::make_unique<StoredKernel>(k, codegen::compileProgram(derived->program, derived->options),
                                          problem->sizes, what_);
  } catch (const LiftError& e) {
    whyNot_ = fmt::format("{}: the stored kernel {} no longer compiles: {}", what_, k.id, e.what());
    return nullptr;
  }
  lastUsed_ = k.id;
  return slot.get();
}

bool StoredKernels::enqueue(DeviceSet& devices, int device, const arith::Env& sizes,
                            const std::vector<cl::Buffer>& inputs, const cl::Buffer& output) {
  StoredKernel* stored = find(devices, device, sizes);
  if (stored) stored->enqueue(devices, device, inputs, output);
  return stored != nullptr;
}

}  // namespace lift::skelcl
