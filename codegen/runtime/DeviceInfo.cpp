// Formatting of device properties.
#include "codegen/runtime/DeviceInfo.h"

#include <fmt/format.h>

namespace lift::runtime {

bool DeviceInfo::isNvidia() const {
  return vendor.find("NVIDIA") != std::string::npos || platformVendor.find("NVIDIA") != std::string::npos;
}

std::string DeviceInfo::label() const { return fmt::format("{}: {} ({})", index, name, platformName); }

std::string DeviceInfo::cacheKey() const {
  return fmt::format("{}|{}|{}|{}|{}", platformName, platformVersion, name, version, driverVersion);
}

static std::string bytes(uint64_t n) {
  if (n >= (uint64_t(1) << 30)) return fmt::format("{:.2f} GiB", double(n) / double(uint64_t(1) << 30));
  if (n >= (uint64_t(1) << 20)) return fmt::format("{:.1f} MiB", double(n) / double(uint64_t(1) << 20));
  if (n >= 1024) return fmt::format("{} KiB", n / 1024);
  return fmt::format("{} B", n);
}

std::string DeviceInfo::describe() const {
  std::string sizes;
  for (size_t i = 0; i < maxWorkItemSizes.size(); ++i)
    sizes += (i ? "x" : "") + std::to_string(maxWorkItemSizes[i]);
  std::string out;
  out += fmt::format("  platform:            {} ({}, {})\n", platformName, platformVendor, platformVersion);
  out += fmt::format("  vendor:              {}\n", vendor);
  out += fmt::format("  type:                {}\n", type);
  out += fmt::format("  version:             {}; {}; driver {}\n", version, openclCVersion, driverVersion);
  out += fmt::format("  compute units:       {}\n", computeUnits);
  out += fmt::format("  max clock:           {} MHz\n", maxClockMHz);
  out += fmt::format("  global memory:       {} (max allocation {})\n", bytes(globalMemBytes),
                     bytes(maxAllocBytes));
  out += fmt::format("  local memory:        {}\n", bytes(localMemBytes));
  out += fmt::format("  max work-group size: {}\n", maxWorkGroupSize);
  out += fmt::format("  max work-item sizes: {}\n", sizes);
  out += fmt::format("  float vector width:  preferred {}, native {}\n", preferredFloatVectorWidth,
                     nativeFloatVectorWidth);
  out += fmt::format("  double precision:    {}\n", doubleSupported ? "yes" : "no");
  return out;
}

}  // namespace lift::runtime
