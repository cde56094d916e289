// The dot product written directly against OpenCL; the lines between the `begin` and `end`
// markers (here and in DotProduct.h) are those skelcl/README.md counts.
#include "skelcl/programs/DotProduct.h"

#include <algorithm>
#include <numeric>

namespace lift::skelcl {

// -- plain OpenCL dot product: begin
OpenclDotProduct::OpenclDotProduct() {
  const char* source = R"(
    kernel void dot_product(global const float* a, global const float* b, global float* partial, int n, int chunk) {
      int g = get_global_id(0);
      float acc = 0.0f;
      for (int i = g * chunk; i < min(n, (g + 1) * chunk); ++i) acc += a[i] * b[i];
      partial[g] = acc;
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  context_ = cl::Context(devices.at(0));
  queue_ = cl::CommandQueue(context_, devices.at(0));
  cl::Program program(context_, source);
  program.build({devices.at(0)});
  kernel_ = cl::Kernel(program, "dot_product");
}

void OpenclDotProduct::upload(const std::vector<float>& a, const std::vector<float>& b) {
  n_ = static_cast<int>(a.size());
  a_ = cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n_ * sizeof(float),
                  const_cast<float*>(a.data()));
  b_ = cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n_ * sizeof(float),
                  const_cast<float*>(b.data()));
}

float OpenclDotProduct::run() {
  const int groups = std::min(n_, 1024), chunk = (n_ + groups - 1) / groups;
  cl::Buffer partials(context_, CL_MEM_WRITE_ONLY, groups * sizeof(float));
  kernel_.setArg(0, a_);
  kernel_.setArg(1, b_);
  kernel_.setArg(2, partials);
  kernel_.setArg(3, n_);
  kernel_.setArg(4, chunk);
  queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(groups));
  std::vector<float> partial(groups);
  queue_.enqueueReadBuffer(partials, CL_TRUE, 0, groups * sizeof(float), partial.data());
  return std::accumulate(partial.begin(), partial.end(), 0.0f);
}
// -- plain OpenCL dot product: end

}  // namespace lift::skelcl
