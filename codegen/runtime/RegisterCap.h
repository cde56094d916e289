// RegisterCap: a cap on a kernel's registers a work-item (KernelLaunch::maxRegisters), where the
// device's compiler can be given one. NVIDIA's OpenCL driver refuses `-cl-nv-maxrregcount N` and
// ignores `-cl-nv-maxrregcount=N` (measured on an H100, docs/PERFORMANCE.md), but ptxas honours a
// `.maxnreg N` directive in the PTX: so the runtime builds the source, adds the directive to each
// kernel entry of the PTX the driver returns, and builds that (BuildCache). Other devices build
// without a cap. A cap that lets two work-groups share a compute unit can be worth the spills it
// costs (stream-K).
#pragma once

#include <string>

#include "codegen/runtime/DeviceInfo.h"
#include "codegen/runtime/KernelLaunch.h"

namespace lift::runtime {

// The fewest registers a cap may ask for: ptxas refuses fewer than 16.
inline constexpr int kMinRegisterCap = 16;
// The most a work-item can have on any NVIDIA GPU.
inline constexpr int kMaxRegisterCap = 255;

// A cap ptxas takes, or 0 (none): what --max-registers, the session file and the worker protocol
// accept.
inline bool isRegisterCap(int n) { return n == 0 || (n >= kMinRegisterCap && n <= kMaxRegisterCap); }

// Whether the device's compiler takes a register cap (NVIDIA's, through the PTX).
bool takesRegisterCap(const DeviceInfo& device);

// The PTX directive for each kernel entry that the launch's cap needs on the device: ".maxnreg N",
// or empty (no cap, or a device that takes none).
std::string entryDirectiveFor(const KernelLaunch& launch, const DeviceInfo& device);

// `ptx` with `directive` between each `.entry`'s parameter list and its body; empty when the
// text has no entry to add it to (not PTX).
std::string withEntryDirective(const std::string& ptx, const std::string& directive);

}  // namespace lift::runtime
