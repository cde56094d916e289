// The copies between a container's host data and its device parts (one per part), run at once
// and counted in the container's TransferStats once they have finished: only the copies that
// completed are counted, so a device that fails leaves no transfer in the statistics that did
// not happen.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "skelcl/TransferStats.h"

namespace lift::skelcl {

struct Transfer {
  uint64_t bytes = 0;
  std::function<void()> copy;  // throws when the copy fails
};

enum class TransferDirection { Upload, Download };

// Runs the copies at once (DeviceSet::concurrently: a thread each when there are several),
// counts those that completed in `stats` (uploads or downloads and their bytes) and then
// rethrows the first failure, if any.
void runTransfers(const std::vector<Transfer>& transfers, TransferDirection direction, TransferStats& stats);

}  // namespace lift::skelcl
