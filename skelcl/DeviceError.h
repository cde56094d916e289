// DeviceError: an OpenCL operation that failed on one device of a DeviceSet (allocation,
// transfer, kernel launch). It names the device and the operation, so that a failure is a clear
// exception and never wrong data.
#pragma once

#include <CL/opencl.hpp>

#include <string>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

class DeviceError : public LiftError {
 public:
  DeviceError(int device, const std::string& deviceName, const std::string& operation, int clCode);
  int device() const { return device_; }
  int clCode() const { return clCode_; }

 private:
  int device_;
  int clCode_;
};

}  // namespace lift::skelcl
