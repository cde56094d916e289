// The Gaussian blur with the SkelCL library and with plain OpenCL; the lines between the
// `begin` and `end` markers are those skelcl/README.md counts.
#include "skelcl/programs/GaussianBlur.h"

#include <CL/opencl.hpp>

namespace lift::skelcl {

// -- SkelCL Gaussian blur: begin
GaussianBlur::GaussianBlur()
    : gauss_(R"(float func(float in) {
        return (get(in, -1, -1) + 2.0f * get(in, 0, -1) + get(in, 1, -1) +
                2.0f * get(in, -1, 0) + 4.0f * get(in, 0, 0) + 2.0f * get(in, 1, 0) +
                get(in, -1, 1) + 2.0f * get(in, 0, 1) + get(in, 1, 1)) * 0.0625f; })",
             1, OutOfBound::Neutral, 0.0f) {}
// -- SkelCL Gaussian blur: end

// -- plain OpenCL Gaussian blur: begin
std::vector<float> openclGaussianBlur(const std::vector<float>& image, size_t rows, size_t columns) {
  const char* source = R"(
    kernel void gauss(global const float* in, global float* out, int rows, int cols) {
      int c = get_global_id(0), r = get_global_id(1);
      if (r >= rows || c >= cols) return;
      const float w[3][3] = {{1.0f, 2.0f, 1.0f}, {2.0f, 4.0f, 2.0f}, {1.0f, 2.0f, 1.0f}};
      float sum = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int y = r + dy, x = c + dx;
          float v = (y < 0 || y >= rows || x < 0 || x >= cols) ? 0.0f : in[y * cols + x];
          sum += w[dy + 1][dx + 1] * v;
        }
      out[r * cols + c] = sum * 0.0625f;
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  cl::Context context(devices.at(0));
  cl::CommandQueue queue(context, devices.at(0));
  cl::Program program(context, source);
  program.build({devices.at(0)});
  cl::Kernel kernel(program, "gauss");
  const size_t bytes = rows * columns * sizeof(float);
  cl::Buffer in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float*>(image.data()));
  cl::Buffer out(context, CL_MEM_WRITE_ONLY, bytes);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, static_cast<int>(rows));
  kernel.setArg(3, static_cast<int>(columns));
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(columns, rows));
  std::vector<float> result(rows * columns);
  queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, result.data());
  return result;
}
// -- plain OpenCL Gaussian blur: end

}  // namespace lift::skelcl
