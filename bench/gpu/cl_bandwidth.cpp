// Times a float4 copy and a float4 sum (one partial sum a work-group) on the first GPU (else the
// first device) through plain OpenCL, with the input buffer made four ways: written by
// clEnqueueWriteBuffer, created with CL_MEM_COPY_HOST_PTR, filled by a kernel (never seen by the
// host), and CL_MEM_ALLOC_HOST_PTR (host memory the GPU reads over PCIe: what a kernel costs
// when the driver keeps a buffer off the device). Each figure is the median of REPEAT
// event-timed runs; then the sum with four independent loads in flight a work-item, at several
// work-group counts: the read bandwidth a reduction can reach. For telling a slow host or driver from a slow
// kernel of ours: when the first three rows run at the speed of the fourth, the buffers live in host memory,
// whatever the kernel.
//
// Usage: cl_bandwidth [MIB (default 256)] [REPEAT (default 20)]
// pack-gpu.sh builds it into .gpu-ex/.
#include "ClFirstDevice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* kSource = R"CL(
kernel void copy4(global const float4* in, global float4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}
kernel void fill4(global float4* out) {
  size_t i = get_global_id(0);
  out[i] = (float4)(1.0f, 2.0f, 3.0f, 4.0f) * (float)(i & 7);
}
kernel void sum4(global const float4* in, global float* partial, uint n4) {
  local float tree[256];
  float4 acc = (float4)(0.0f);
  for (size_t i = get_global_id(0); i < n4; i += get_global_size(0)) acc += in[i];
  tree[get_local_id(0)] = acc.x + acc.y + acc.z + acc.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (get_local_id(0) < s) tree[get_local_id(0)] += tree[get_local_id(0) + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (get_local_id(0) == 0) partial[get_group_id(0)] = tree[0];
}
kernel void sum4x4(global const float4* in, global float* partial, uint n4) {
  local float tree[256];
  float4 a = (float4)(0.0f), b = a, c = a, d = a;
  const size_t g = get_global_size(0);
  size_t i = get_global_id(0);
  for (; i + 3 * g < n4; i += 4 * g) {
    a += in[i];
    b += in[i + g];
    c += in[i + 2 * g];
    d += in[i + 3 * g];
  }
  for (; i < n4; i += g) a += in[i];
  a += b + c + d;
  tree[get_local_id(0)] = a.x + a.y + a.z + a.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (get_local_id(0) < s) tree[get_local_id(0)] += tree[get_local_id(0) + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (get_local_id(0) == 0) partial[get_group_id(0)] = tree[0];
}
)CL";

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "cl_bandwidth: %s failed (%d)\n", what, err);
    std::exit(2);
  }
}

double eventMs(cl_event e) {
  cl_ulong a = 0, b = 0;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
  clReleaseEvent(e);
  return double(b - a) * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  int repeat = argc > 2 ? std::atoi(argv[2]) : 20;
  size_t bytes = mib << 20, n4 = bytes / 16;
  cl_int err;
  cl_device_id dev = firstDeviceOrExit("cl_bandwidth");
  const std::string name = deviceName(dev);
  cl_ulong global = 0;
  clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, nullptr);
  std::printf("device: %s, %.1f GiB global memory; buffers of %zu MiB, median of %d runs\n", name.c_str(),
              double(global) / (1 << 30), mib, repeat);
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  check(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "clBuildProgram");
  cl_kernel copy4 = clCreateKernel(prog, "copy4", &err), fill4 = clCreateKernel(prog, "fill4", &err),
            sum4 = clCreateKernel(prog, "sum4", &err);
  check(err, "clCreateKernel");
  std::vector<float> host(bytes / 4, 1.0f);
  const size_t groups = 1024, local = 256, sumGlobal = groups * local;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  cl_mem partial = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * 4, nullptr, &err);
  check(err, "clCreateBuffer");
  std::printf("%-26s %10s %10s %10s %10s\n", "input buffer", "copy ms", "copy GB/s", "sum ms", "sum GB/s");
  const char* ways[] = {"clEnqueueWriteBuffer", "CL_MEM_COPY_HOST_PTR", "filled by a kernel",
                        "CL_MEM_ALLOC_HOST_PTR"};
  for (int way = 0; way < 4; ++way) {
    cl_mem in = nullptr;
    if (way == 1)
      in = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &err);
    else if (way == 3)
      in = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
    else
      in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check(err, "clCreateBuffer (input)");
    if (way == 0)
      check(clEnqueueWriteBuffer(q, in, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr), "write");
    if (way == 2) {
      clSetKernelArg(fill4, 0, sizeof in, &in);
      check(clEnqueueNDRangeKernel(q, fill4, 1, nullptr, &n4, nullptr, 0, nullptr, nullptr), "fill4");
    }
    clSetKernelArg(copy4, 0, sizeof in, &in);
    clSetKernelArg(copy4, 1, sizeof out, &out);
    cl_uint n4arg = cl_uint(n4);
    clSetKernelArg(sum4, 0, sizeof in, &in);
    clSetKernelArg(sum4, 1, sizeof partial, &partial);
    clSetKernelArg(sum4, 2, sizeof n4arg, &n4arg);
    std::vector<double> copyMs, sumMs;
    for (int r = 0; r <= repeat; ++r) {
      cl_event a, b;
      check(clEnqueueNDRangeKernel(q, copy4, 1, nullptr, &n4, nullptr, 0, nullptr, &a), "copy4");
      check(clEnqueueNDRangeKernel(q, sum4, 1, nullptr, &sumGlobal, &local, 0, nullptr, &b), "sum4");
      clFinish(q);
      double ca = eventMs(a), sb = eventMs(b);
      if (r == 0) continue;  // the first run pays for any migration
      copyMs.push_back(ca);
      sumMs.push_back(sb);
    }
    double c = median(copyMs), s = median(sumMs);
    std::printf("%-26s %10.3f %10.0f %10.3f %10.0f\n", ways[way], c, 2.0 * bytes / c * 1e-6, s,
                double(bytes) / s * 1e-6);
    clReleaseMemObject(in);
  }
  // The read ceiling: the sum with four loads in flight a work-item, over a buffer filled on the
  // device, at several numbers of work-groups of 256.
  cl_kernel sum4x4 = clCreateKernel(prog, "sum4x4", &err);
  check(err, "clCreateKernel sum4x4");
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "clCreateBuffer (input)");
  clSetKernelArg(fill4, 0, sizeof in, &in);
  check(clEnqueueNDRangeKernel(q, fill4, 1, nullptr, &n4, nullptr, 0, nullptr, nullptr), "fill4");
  cl_uint n4arg = cl_uint(n4);
  std::printf("%-26s %10s %10s %10s %10s\n", "work-groups of 256", "sum ms", "sum GB/s", "sum4x4 ms",
              "sum4x4 GB/s");
  for (size_t wgs : {264, 528, 1024, 1056, 2112, 4224}) {
    cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, wgs * 4, nullptr, &err);
    check(err, "clCreateBuffer (partials)");
    const size_t global = wgs * local;
    std::vector<double> ms[2];
    int which = 0;
    for (cl_kernel k : {sum4, sum4x4}) {
      clSetKernelArg(k, 0, sizeof in, &in);
      clSetKernelArg(k, 1, sizeof part, &part);
      clSetKernelArg(k, 2, sizeof n4arg, &n4arg);
      for (int r = 0; r <= repeat; ++r) {
        cl_event e;
        check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, &e), "sum");
        clFinish(q);
        double t = eventMs(e);
        if (r > 0) ms[which].push_back(t);
      }
      ++which;
    }
    double a = median(ms[0]), b = median(ms[1]);
    std::printf("%-26zu %10.3f %10.0f %10.3f %10.0f\n", wgs, a, double(bytes) / a * 1e-6, b,
                double(bytes) / b * 1e-6);
    clReleaseMemObject(part);
  }
  return 0;
}
