// The Mandelbrot set with the SkelCL library and with plain OpenCL; the lines between the `begin`
// and `end` markers are those skelcl/README.md counts.
#include "skelcl/programs/Mandelbrot.h"

#include <fmt/format.h>
#include <CL/opencl.hpp>

namespace lift::skelcl {

// -- SkelCL Mandelbrot: begin
Mandelbrot::Mandelbrot(size_t width, size_t height)
    : width_(width),
      height_(height),
      mandelbrot_(fmt::format(R"(int func(int row, int column) {{
        float cr = -2.0f + column * {:.9e}f, ci = -1.5f + row * {:.9e}f, x = 0.0f, y = 0.0f;
        int n = 0;
        while (n < {} && x * x + y * y <= 4.0f) {{
          float t = x * x - y * y + cr;
          y = 2.0f * x * y + ci;
          x = t;
          n = n + 1;
        }}
        return n; }})",
                              3.0 / double(width), 3.0 / double(height), kMandelbrotIterations)) {}
// -- SkelCL Mandelbrot: end

// -- plain OpenCL Mandelbrot: begin
OpenCLMandelbrot::OpenCLMandelbrot() {
  const char* source = R"(
    kernel void mandelbrot(global int* out, int width, int height, int iterations) {
      int c = get_global_id(0), r = get_global_id(1);
      if (r >= height || c >= width) return;
      float cr = -2.0f + c * (3.0f / width), ci = -1.5f + r * (3.0f / height), x = 0.0f, y = 0.0f;
      int n = 0;
      while (n < iterations && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cr;
        y = 2.0f * x * y + ci;
        x = t;
        ++n;
      }
      out[r * width + c] = n;
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  context_ = cl::Context(devices.at(0));
  queue_ = cl::CommandQueue(context_, devices.at(0));
  cl::Program program(context_, source);
  program.build({devices.at(0)});
  kernel_ = cl::Kernel(program, "mandelbrot");
}

void OpenCLMandelbrot::run(size_t width, size_t height) {
  if (width * height != width_ * height_)  // the last image's buffer otherwise
    out_ = cl::Buffer(context_, CL_MEM_WRITE_ONLY, width * height * sizeof(int32_t));
  width_ = width, height_ = height;
  kernel_.setArg(0, out_);
  kernel_.setArg(1, static_cast<int>(width));
  kernel_.setArg(2, static_cast<int>(height));
  kernel_.setArg(3, kMandelbrotIterations);
  const cl::NDRange global((width + 15) / 16 * 16, (height + 15) / 16 * 16);  // 16 x 16 work-groups
  queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, global, cl::NDRange(16, 16));
  queue_.finish();
}

void OpenCLMandelbrot::download(std::vector<int32_t>& result) {
  result.resize(width_ * height_);
  queue_.enqueueReadBuffer(out_, CL_TRUE, 0, result.size() * sizeof(int32_t), result.data());
}
// -- plain OpenCL Mandelbrot: end

}  // namespace lift::skelcl
