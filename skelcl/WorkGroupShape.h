// The work-group shape a skeleton's kernel is launched with when its program leaves the local
// size open (global maps only: the kernel reads no local id, so any shape that divides the global
// size computes the same). Left to the OpenCL runtime, NVIDIA's driver chose shapes that ran the
// library's Mandelbrot kernel at 0.68x the hand-written one with its 16 x 16 work-groups; here a
// 2-D kernel gets 16 x 16 (or the nearest shape of 256 work-items that divides its global size)
// and a 1-D kernel up to 256 work-items, as a hand-written OpenCL program would choose.
#pragma once

#include <cstdint>
#include <vector>

namespace lift::skelcl {

// The local size for `global` (1 to 3 dimensions) of at most `maxItems` work-items (the kernel's
// CL_KERNEL_WORK_GROUP_SIZE on its device), each dimension dividing the global one; empty (the
// runtime chooses) where no such shape has at least 32 work-items, or for 3 dimensions.
std::vector<uint64_t> workGroupShapeFor(const std::vector<uint64_t>& global, uint64_t maxItems);

}  // namespace lift::skelcl
