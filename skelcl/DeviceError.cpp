// DeviceError's message.
#include "skelcl/DeviceError.h"

#include <fmt/format.h>

#include "codegen/runtime/ClError.h"

namespace lift::skelcl {

DeviceError::DeviceError(int device, const std::string& deviceName, const std::string& operation, int clCode)
    : LiftError(fmt::format("device {} ({}): {} failed: {}", device, deviceName, operation,
                            runtime::describeClError(clCode))),
      device_(device),
      clCode_(clCode) {}

}  // namespace lift::skelcl
