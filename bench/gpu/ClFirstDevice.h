// The first GPU of any OpenCL platform, else the first device of any; nullptr when there is none.
// For the standalone tools of bench/gpu (cl_build_info, cl_bandwidth), which pack-gpu.sh builds
// with g++ alone.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

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
