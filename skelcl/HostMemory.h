// HostMemory: which memory a container's host copy lives in — ordinary pageable memory, or
// page-locked memory that the OpenCL driver allocated (a CL_MEM_ALLOC_HOST_PTR buffer mapped
// once), which devices can copy to and from without staging. A setting of the DeviceSet.
#pragma once

#include <optional>
#include <string>

namespace lift::skelcl {

enum class HostMemory { Pageable, PageLocked };

// "pageable" or "page-locked".
std::string describe(HostMemory m);
// The HostMemory that describe() names `text`, none for other text.
std::optional<HostMemory> hostMemoryNamed(const std::string& text);

}  // namespace lift::skelcl
