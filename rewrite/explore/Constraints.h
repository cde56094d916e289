// Resource constraints of the parameter exploration (the seeds' phase 3): a kernel is rejected
// before it runs when its work-items need too much private memory, its work-groups too much
// local memory, its buffers too much global memory, or when it has too few or too many
// work-items or work-groups for the device. The limits come from the device (DeviceInfo) with
// the seeds' defaults where a device does not say (private memory <= 1024 bytes a work-item on
// GPUs, 8 to 10,000 work-groups, a global size of at least 8).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/CompiledKernel.h"
#include "codegen/CompiledProgram.h"
#include "codegen/runtime/DeviceInfo.h"
#include "codegen/runtime/KernelLaunch.h"

namespace lift::explore {

struct DeviceLimits {
  bool gpu = false;
  uint64_t maxWorkGroupSize = 1024;
  std::vector<uint64_t> maxWorkItemSizes = {1024, 1024, 64};
  uint64_t localMemBytes = 48 * 1024;
  uint64_t globalMemBytes = 1ull << 32;
  uint64_t maxAllocBytes = 1ull << 30;
  uint64_t privateMemBytes = 1024;  // per work-item (registers on a GPU, stack on a CPU)
  uint64_t minGlobalSize = 8;
  uint64_t minWorkGroups = 1;  // the device's compute units: fewer groups leave cores idle
  uint64_t maxWorkGroups = 1u << 20;
  uint64_t minWorkGroupSize = 1;  // GPUs: a warp; a smaller group wastes lanes

  // The limits for a device: its own figures, with the seeds' defaults for what it does not report.
  static DeviceLimits of(const runtime::DeviceInfo& d);
  // A 2-core CPU device with PoCL's figures (tests and defaults).
  static DeviceLimits cpu();
};

// Private memory a work-item of the kernel declares, in bytes (its private variables and
// arrays as the kernel source declares them): an estimate, since the OpenCL compiler may keep
// them in registers or spill more.
uint64_t privateMemoryBytes(const std::string& kernelSource);

// Why the kernel, launched as `launch` says, breaks a limit; "" when it keeps all.
std::string resourceViolation(const codegen::CompiledKernel& kernel, const runtime::KernelLaunch& launch,
                              const DeviceLimits& limits);

// The same for a sequence of kernels (launch: instantiate(program)): each kernel's memory, the
// whole sequence's global memory, and the first kernel's work-groups (the later ones combine its
// results, with few work-items by design).
std::string resourceViolation(const codegen::CompiledProgram& program, const runtime::KernelLaunch& launch,
                              const DeviceLimits& limits);

// Why a work-group size does not fit a global size and the device; "" when it does.
std::string workGroupViolation(const std::vector<uint64_t>& global, const std::vector<uint64_t>& local,
                               const DeviceLimits& limits);

}  // namespace lift::explore
