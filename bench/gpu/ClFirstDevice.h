// The first GPU of any OpenCL platform, else the first device of any; nullptr when there is none.
// For the standalone tools of bench/gpu (cl_build_info, cl_bandwidth, cl_host_copies), which pack-gpu.sh
// builds with g++ alone.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

inline cl_device_id firstGpuElseAnyDevice() {
  cl_uint n = 0;
  clGetPlatformIDs(0, nullptr, &n);
  std::vector<cl_platform_id> platforms(n);
  clGetPlatformIDs(n, platforms.data(), nullptr);
  cl_device_id any = nullptr;
  for (auto p : platforms) {
    cl_device_id d;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, nullptr) == CL_SUCCESS) return d;
    if (!any && clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS) any = d;
  }
  return any;
}

// firstGpuElseAnyDevice(), or the exit status 2 with a message naming `tool` when there is none.
inline cl_device_id firstDeviceOrExit(const char* tool) {
  cl_device_id d = firstGpuElseAnyDevice();
  if (!d) {
    std::fprintf(stderr, "%s: no OpenCL device\n", tool);
    std::exit(2);
  }
  return d;
}

inline std::string deviceName(cl_device_id d) {
  char name[256] = {};
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, nullptr);
  return name;
}
