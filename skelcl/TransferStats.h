// TransferStats: the host <-> device copies a container has made, so that tests (and users) can
// check that transfers happen lazily and only when needed.
#pragma once

#include <cstdint>

namespace lift::skelcl {

struct TransferStats {
  uint64_t uploads = 0;    // host -> device copies (one per device part)
  uint64_t downloads = 0;  // device -> host copies (one per device part)
  uint64_t uploadedBytes = 0;
  uint64_t downloadedBytes = 0;
};

}  // namespace lift::skelcl
