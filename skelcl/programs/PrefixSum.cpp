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
  tileSums_ = cl::Kernel(program, "tile_sums");
  tileScans_ = cl::Kernel(program, "tile_scans");
  local_ = std::min<int>(256, devices.at(0).getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
}

void OpenclPrefixSum::upload(const std::vector<float>& a) {
  if (static_cast<int>(a.size()) != n_) {  // the last vector's buffers otherwise
    n_ = static_cast<int>(a.size()), groups_ = (n_ + local_ * 16 - 1) / (local_ * 16);
    a_ = cl::Buffer(context_, CL_MEM_READ_ONLY, n_ * sizeof(float));
    out_ = cl::Buffer(context_, CL_MEM_WRITE_ONLY, n_ * sizeof(float));
    sums_ = cl::Buffer(context_, CL_MEM_READ_WRITE, groups_ * sizeof(float));
  }
  queue_.enqueueWriteBuffer(a_, CL_TRUE, 0, n_ * sizeof(float), a.data());
}

void OpenclPrefixSum::run() {
  tileSums_.setArg(0, a_);
  tileSums_.setArg(1, sums_);
  tileSums_.setArg(2, n_);
  tileSums_.setArg(3, cl::Local(local_ * sizeof(float)));
  queue_.enqueueNDRangeKernel(tileSums_, cl::NullRange, cl::NDRange(groups_ * local_), cl::NDRange(local_));
  std::vector<float> offsets(groups_);
  queue_.enqueueReadBuffer(sums_, CL_TRUE, 0, groups_ * sizeof(float), offsets.data());
  float running = 0.0f;
  for (float& o : offsets) running += std::exchange(o, running);
  queue_.enqueueWriteBuffer(sums_, CL_FALSE, 0, groups_ * sizeof(float), offsets.data());
  tileScans_.setArg(0, a_);
  tileScans_.setArg(1, sums_);
  tileScans_.setArg(2, out_);
  tileScans_.setArg(3, n_);
  tileScans_.setArg(4, cl::Local(local_ * sizeof(float)));
  queue_.enqueueNDRangeKernel(tileScans_, cl::NullRange, cl::NDRange(groups_ * local_), cl::NDRange(local_));
  queue_.finish();
}

void OpenclPrefixSum::download(std::vector<float>& out) {
  out.resize(n_);
  queue_.enqueueReadBuffer(out_, CL_TRUE, 0, n_ * sizeof(float), out.data());
}
// -- plain OpenCL prefix sum: end

}  // namespace lift::skelcl
