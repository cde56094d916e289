// Running a container's transfers at once and counting those that completed.
#include "skelcl/Transfers.h"

#include <exception>

#include "skelcl/DeviceSet.h"

namespace lift::skelcl {

void runTransfers(const std::vector<Transfer>& transfers, TransferDirection direction, TransferStats& stats) {
  std::vector<char> completed(transfers.size(), 0);  // written by one thread each
  std::vector<std::function<void()>> ops;
  ops.reserve(transfers.size());
  for (size_t i = 0; i < transfers.size(); ++i)
    ops.push_back([&transfers, &completed, i] {
      transfers[i].copy();
      completed[i] = 1;
    });
  std::exception_ptr failure;
  try {
    DeviceSet::concurrently(ops);
  } catch (...) {
    failure = std::current_exception();
  }
  uint64_t& count = direction == TransferDirection::Upload ? stats.uploads : stats.downloads;
  uint64_t& bytes = direction == TransferDirection::Upload ? stats.uploadedBytes : stats.downloadedBytes;
  for (size_t i = 0; i < transfers.size(); ++i)
    if (completed[i]) {
      ++count;
      bytes += transfers[i].bytes;
    }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace lift::skelcl
