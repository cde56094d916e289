// The dot product written directly against OpenCL; the lines between the `begin` and `end`
// markers (here and in DotProduct.h) are those skelcl/README.md counts.
#include "skelcl/programs/DotProduct.h"

#include <algorithm>
#include <numeric>

namespace lift::skelcl {

// -- plain OpenCL dot product: begin
OpenclDotProduct::OpenclDotProduct() {
  const char* source = R"(
    kernel void dot_product(global const float* a, global const float* b, global float* partial, int n,
                            local float* sums) {
      float acc = 0.0f;
      for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc += a[i] * b[i];
      int l = get_local_id(0);
      sums[l] = acc;
      for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) sums[l] += sums[l + s];
      }
      if (l == 0) partial[get_group_id(0)] = sums[0];
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  device_ = devices.at(0);
  context_ = cl::Context(device_);
  queue_ = cl::CommandQueue(context_, device_);
  cl::Program program(context_, source);
  program.build({device_});
  kernel_ = cl::Kernel(program, "dot_product");
}

void OpenclDotProduct::upload(const std::vector<float>& a, const std::vector<float>& b) {
  n_ = static_cast<int>(a.size());
  a_ = cl::Buffer(context_, CL_MEM_READ_ONLY, n_ * sizeof(float));
  b_ = cl::Buffer(context_, CL_MEM_READ_ONLY, n_ * sizeof(float));
  queue_.enqueueWriteBuffer(a_, CL_FALSE, 0, n_ * sizeof(float), a.data());
  queue_.enqueueWriteBuffer(b_, CL_TRUE, 0, n_ * sizeof(float), b.data());
}

float OpenclDotProduct::run() {
  const int local = std::min<int>(256, device_.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>()), groups = 1024;
  cl::Buffer partials(context_, CL_MEM_WRITE_ONLY, groups * sizeof(float));
  kernel_.setArg(0, a_);
  kernel_.setArg(1, b_);
  kernel_.setArg(2, partials);
  kernel_.setArg(3, n_);
  kernel_.setArg(4, cl::Local(local * sizeof(float)));
  queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(groups * local), cl::NDRange(local));
  std::vector<float> partial(groups);
  queue_.enqueueReadBuffer(partials, CL_TRUE, 0, groups * sizeof(float), partial.data());
  return std::accumulate(partial.begin(), partial.end(), 0.0f);
}
// -- plain OpenCL dot product: end

}  // namespace lift::skelcl
