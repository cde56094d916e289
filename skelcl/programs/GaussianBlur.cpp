// The Gaussian blur with the SkelCL library and with plain OpenCL; the lines between the
// `begin` and `end` markers are those skelcl/README.md counts.
#include "skelcl/programs/GaussianBlur.h"

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
OpenclGaussianBlur::OpenclGaussianBlur() {
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
  context_ = cl::Context(devices.at(0));
  queue_ = cl::CommandQueue(context_, devices.at(0));
  cl::Program program(context_, source);
  program.build({devices.at(0)});
  kernel_ = cl::Kernel(program, "gauss");
}

void OpenclGaussianBlur::upload(const std::vector<float>& image, size_t rows, size_t columns) {
  if (rows * columns != rows_ * columns_) {  // the buffers of the last image otherwise
    in_ = cl::Buffer(context_, CL_MEM_READ_ONLY, rows * columns * sizeof(float));
    out_ = cl::Buffer(context_, CL_MEM_WRITE_ONLY, rows * columns * sizeof(float));
  }
  rows_ = rows, columns_ = columns;
  queue_.enqueueWriteBuffer(in_, CL_TRUE, 0, rows * columns * sizeof(float), image.data());
}

void OpenclGaussianBlur::run() {
  kernel_.setArg(0, in_);
  kernel_.setArg(1, out_);
  kernel_.setArg(2, static_cast<int>(rows_));
  kernel_.setArg(3, static_cast<int>(columns_));
  const cl::NDRange global((columns_ + 15) / 16 * 16, (rows_ + 15) / 16 * 16);  // 16 x 16 work-groups
  queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, global, cl::NDRange(16, 16));
  queue_.finish();
}

void OpenclGaussianBlur::download(std::vector<float>& result) {
  result.resize(rows_ * columns_);
  queue_.enqueueReadBuffer(out_, CL_TRUE, 0, result.size() * sizeof(float), result.data());
}
// -- plain OpenCL Gaussian blur: end

std::vector<float> openclGaussianBlur(const std::vector<float>& image, size_t rows, size_t columns) {
  return OpenclGaussianBlur()(image, rows, columns);
}

}  // namespace lift::skelcl
