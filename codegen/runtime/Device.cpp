// Device enumeration and lookup.
#include "codegen/runtime/Device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "codegen/runtime/ClError.h"
#include "core/support/Diagnostic.h"

namespace lift::runtime {

cl::NDRange toNDRange(const std::vector<uint64_t>& s) {
  switch (s.size()) {
    case 1:
      return cl::NDRange(s[0]);
    case 2:
      return cl::NDRange(s[0], s[1]);
    case 3:
      return cl::NDRange(s[0], s[1], s[2]);
  }
  return cl::NullRange;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// OpenCL strings sometimes carry a trailing NUL or blanks.
std::string clean(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::string typeName(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  if (t & CL_DEVICE_TYPE_CUSTOM) return "custom";
  return "default";
}

DeviceInfo query(const cl::Platform& p, const cl::Device& d, int index, int platformIndex) {
  DeviceInfo i;
  i.index = index;
  i.platformIndex = platformIndex;
  i.platformName = clean(p.getInfo<CL_PLATFORM_NAME>());
  i.platformVendor = clean(p.getInfo<CL_PLATFORM_VENDOR>());
  i.platformVersion = clean(p.getInfo<CL_PLATFORM_VERSION>());
  i.name = clean(d.getInfo<CL_DEVICE_NAME>());
  i.vendor = clean(d.getInfo<CL_DEVICE_VENDOR>());
  i.type = typeName(d.getInfo<CL_DEVICE_TYPE>());
  i.version = clean(d.getInfo<CL_DEVICE_VERSION>());
  i.driverVersion = clean(d.getInfo<CL_DRIVER_VERSION>());
  i.openclCVersion = clean(d.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
  i.computeUnits = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  i.maxClockMHz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
  i.globalMemBytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  i.localMemBytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  i.maxAllocBytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  i.maxWorkGroupSize = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  for (auto s : d.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>()) i.maxWorkItemSizes.push_back(s);
  i.preferredFloatVectorWidth = d.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>();
  i.nativeFloatVectorWidth = d.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
  i.doubleSupported = d.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
  return i;
}

}  // namespace

std::vector<Device> Device::enumerate() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (e.err() != CL_PLATFORM_NOT_FOUND_KHR)
      throw LiftError(fmt::format("cannot list OpenCL platforms: {}", describeClError(e.err())));
  }
  if (platforms.empty())
    throw LiftError(
        "no OpenCL platform found: install an OpenCL driver (e.g. the Debian package pocl-opencl-icd) "
        "and check OCL_ICD_VENDORS");
  std::vector<Device> result;
  for (size_t pi = 0; pi < platforms.size(); ++pi) {
    std::vector<cl::Device> devices;
    try {
      platforms[pi].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform without devices (CL_DEVICE_NOT_FOUND) is skipped
    }
    for (auto& d : devices)
      result.push_back(Device(
          platforms[pi], d, query(platforms[pi], d, static_cast<int>(result.size()), static_cast<int>(pi))));
  }
  if (result.empty())
    throw LiftError(fmt::format("no OpenCL device found on {} platform(s)", platforms.size()));
  return result;
}

const std::vector<Device>& Device::all() {
  // The ICD loader's list does not change during a run; enumerate once. A failed enumeration is
  // not cached, so the error is reported on every call.
  static std::mutex mutex;
  static std::vector<Device> devices;
  std::lock_guard lock(mutex);
  if (devices.empty()) devices = enumerate();
  return devices;
}

Device Device::find(const std::string& spec) {
  const auto& devices = all();
  std::string s = clean(spec);
  if (s.empty()) return devices.front();
  if (std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); })) {
    size_t idx = s.size() > 6 ? devices.size() : std::stoul(s);
    if (idx < devices.size()) return devices[idx];
  } else {
    std::string needle = lower(s);
    for (auto& d : devices)  // "gpu", "cpu": the first device of that type
      if (lower(d.info().type) == needle) return d;
    // Then by name: the device's, its platform's, the platform vendor's ("The pocl project"),
    // the device vendor's ("NVIDIA Corporation").
    for (auto field :
         {&DeviceInfo::name, &DeviceInfo::platformName, &DeviceInfo::platformVendor, &DeviceInfo::vendor})
      for (auto& d : devices)
        if (lower(d.info().*field).find(needle) != std::string::npos) return d;
  }
  std::string list;
  for (auto& d : devices) list += "\n  " + d.info().label();
  throw LiftError(fmt::format("unknown OpenCL device '{}'; the devices are:{}", spec, list));
}

DeviceContext::DeviceContext(Device device)
    : device_(std::move(device)),
      context_(device_.handle()),
      queue_(context_, device_.handle(), CL_QUEUE_PROFILING_ENABLE) {}

}  // namespace lift::runtime
