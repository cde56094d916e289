// The prefix sum written directly against OpenCL; the lines between the `begin` and `end` markers
// (here and in PrefixSum.h) are those skelcl/README.md counts.
#include "skelcl/programs/PrefixSum.h"

#include <algorithm>
#include <utility>

namespace lift::skelcl {

// -- plain OpenCL prefix sum: begin
OpenclPrefixSum::OpenclPrefixSum() {
  const char* source = R"(
    #define TILE 16
    kernel void tile_sums(global const float* a, global float* sums, int n, local float* part) {
      int l = get_local_id(0), size = get_local_size(0), begin = get_group_id(0) * size * TILE;
      float acc = 0.0f;
      for (int i = begin + l; i < min(n, begin + size * TILE); i += size) acc += a[i];
      part[l] = acc;
      for (int s = size / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) part[l] += part[l + s];
      }
      if (l == 0) sums[get_group_id(0)] = part[0];
    }
    kernel void tile_scans(global const float* a, global const float* offsets, global float* out, int n,
                           local float* part) {
      int l = get_local_id(0), size = get_local_size(0), begin = get_group_id(0) * size * TILE;
      float carry = offsets[get_group_id(0)];
      for (int base = begin; base < min(n, begin + size * TILE); base += size) {
        float x = base + l < n ? a[base + l] : 0.0f;
        part[l] = x;
        for (int s = 1; s < size; s *= 2) {
          barrier(CLK_LOCAL_MEM_FENCE);
          float y = l >= s ? part[l - s] : 0.0f;
          barrier(CLK_LOCAL_MEM_FENCE);
          part[l] += y;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (base + l < n) out[base + l] = carry + part[l] - x;
        carry += part[size - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  context_ = cl::Context(devices.at(0));
  queue_ = cl::CommandQueue(context_, devices.at(0));
  cl::Program program(context_, source);
  program.build({devices.at(0)});
  sums_ = cl::Kernel(program, "tile_sums");
  scans_ = cl::Kernel(program, "tile_scans");
  local_ = std::min<int>(256, devices.at(0).getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
}

void OpenclPrefixSum::upload(const std::vector<float>& a) {
  n_ = static_cast<int>(a.size());
  a_ = cl::Buffer(context_, CL_MEM_READ_ONLY, n_ * sizeof(float));
  out_ = cl::Buffer(context_, CL_MEM_WRITE_ONLY, n_ * sizeof(float));
  queue_.enqueueWriteBuffer(a_, CL_TRUE, 0, n_ * sizeof(float), a.data());
}

void OpenclPrefixSum::run() {
  const int groups = (n_ + local_ * 16 - 1) / (local_ * 16);
  cl::Buffer sums(context_, CL_MEM_READ_WRITE, groups * sizeof(float));
  sums_.setArg(0, a_);
  sums_.setArg(1, sums);
  sums_.setArg(2, n_);
  sums_.setArg(3, cl::Local(local_ * sizeof(float)));
  queue_.enqueueNDRangeKernel(sums_, cl::NullRange, cl::NDRange(groups * local_), cl::NDRange(local_));
  std::vector<float> offsets(groups);
  queue_.enqueueReadBuffer(sums, CL_TRUE, 0, groups * sizeof(float), offsets.data());
  float running = 0.0f;
  for (float& o : offsets) running += std::exchange(o, running);
  queue_.enqueueWriteBuffer(sums, CL_FALSE, 0, groups * sizeof(float), offsets.data());
  scans_.setArg(0, a_);
  scans_.setArg(1, sums);
  scans_.setArg(2, out_);
  scans_.setArg(3, n_);
  scans_.setArg(4, cl::Local(local_ * sizeof(float)));
  queue_.enqueueNDRangeKernel(scans_, cl::NullRange, cl::NDRange(groups * local_), cl::NDRange(local_));
  queue_.finish();
}

std::vector<float> OpenclPrefixSum::download() {
  std::vector<float> out(n_);
  queue_.enqueueReadBuffer(out_, CL_TRUE, 0, n_ * sizeof(float), out.data());
  return out;
}
// -- plain OpenCL prefix sum: end

}  // namespace lift::skelcl
