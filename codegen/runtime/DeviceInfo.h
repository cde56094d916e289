// DeviceInfo: the properties of one OpenCL device as a plain value (no OpenCL types), so that the
// GUI, the worker protocol and `liftc devices` can pass it around.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lift::runtime {

struct DeviceInfo {
  int index = -1;  // position in the listing of all devices of all platforms (what `--device 0` names)
  int platformIndex = -1;
  std::string platformName;
  std::string platformVendor;
  std::string platformVersion;
  std::string name;
  std::string vendor;
  std::string type;     // "CPU", "GPU", "accelerator", "custom" or "default"
  std::string version;  // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA"
  std::string driverVersion;
  std::string openclCVersion;  // CL_DEVICE_OPENCL_C_VERSION
  uint32_t computeUnits = 0;
  uint32_t maxClockMHz = 0;
  uint64_t globalMemBytes = 0;
  uint64_t localMemBytes = 0;
  uint64_t maxAllocBytes = 0;
  uint64_t maxWorkGroupSize = 0;
  std::vector<uint64_t> maxWorkItemSizes;
  uint32_t preferredFloatVectorWidth = 0;
  uint32_t nativeFloatVectorWidth = 0;
  bool doubleSupported = false;

  // Whether the device or its platform is NVIDIA's (warps of 32, PTX: KernelRunner, RegisterCap).
  bool isNvidia() const;
  // "0: NAME (PLATFORM)".
  std::string label() const;
  // Identifies the device and the driver for caches: a binary built by one driver version is
  // never loaded by another.
  std::string cacheKey() const;
  // The multi-line description that `liftc devices` prints (without the label line).
  std::string describe() const;
};

}  // namespace lift::runtime
