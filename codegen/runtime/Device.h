// OpenCL devices: enumeration of every platform and device through the ICD loader, lookup by
// index or name, and the per-device context with a profiling queue.
//
// The RAII handles are those of the Khronos C++ bindings (cl::Context, cl::CommandQueue,
// cl::Program, cl::Kernel, cl::Buffer): they retain on copy and release on destruction.
#pragma once

#include <CL/opencl.hpp>

#include <string>
#include <vector>

#include "codegen/runtime/DeviceInfo.h"

namespace lift::runtime {

// The NDRange of 1 to 3 sizes; cl::NullRange for none (the implementation chooses).
cl::NDRange toNDRange(const std::vector<uint64_t>& sizes);

class Device {
 public:
  // Every device of every platform, in a stable order (platforms as the ICD loader lists them,
  // then devices). Throws LiftError when there is no OpenCL platform or no device at all.
  static const std::vector<Device>& all();

  // A device named by `spec`: its index in all() ("0", "1", ...), its type ("gpu", "cpu"), or a
  // case-insensitive substring of the device name, the platform name, the platform vendor or
  // the device vendor ("h100", "nvidia", "pocl"), tried in that order; the first match wins.
  // An empty spec names device 0. Throws LiftError (listing the devices) when nothing matches.
  static Device find(const std::string& spec);

  const DeviceInfo& info() const { return info_; }
  const cl::Device& handle() const { return device_; }
  const cl::Platform& platform() const { return platform_; }

 private:
  static std::vector<Device> enumerate();
  Device(cl::Platform p, cl::Device d, DeviceInfo info)
      : platform_(std::move(p)), device_(std::move(d)), info_(std::move(info)) {}
  cl::Platform platform_;
  cl::Device device_;
  DeviceInfo info_;
};

// A context for one device and an in-order command queue with profiling enabled.
class DeviceContext {
 public:
  explicit DeviceContext(Device device);
  const Device& device() const { return device_; }
  const cl::Context& context() const { return context_; }
  cl::CommandQueue& queue() { return queue_; }

 private:
  Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
};

}  // namespace lift::runtime
