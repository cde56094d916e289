// Names of the host memory kinds.
#include "skelcl/HostMemory.h"

namespace lift::skelcl {

std::string describe(HostMemory m) { return m == HostMemory::Pageable ? "pageable" : "page-locked"; }

std::optional<HostMemory> hostMemoryNamed(const std::string& text) {
  for (HostMemory m : {HostMemory::Pageable, HostMemory::PageLocked})
    if (describe(m) == text) return m;
  return std::nullopt;
}

}  // namespace lift::skelcl
