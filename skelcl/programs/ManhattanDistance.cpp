// The Manhattan distance with the SkelCL library and with plain OpenCL; the lines between the
// `begin` and `end` markers (here and in ManhattanDistance.h) are those skelcl/README.md counts.
#include "skelcl/programs/ManhattanDistance.h"

namespace lift::skelcl {

// -- SkelCL Manhattan distance: begin
ManhattanDistance::ManhattanDistance()
    : distance_(Reduce<float(float)>("float func(float x, float y) { return x + y; }", "0"),
                Zip<float(float, float)>("float func(float x, float y) { return fabs(x - y); }")) {}
// -- SkelCL Manhattan distance: end

// -- plain OpenCL Manhattan distance: begin
OpenclManhattanDistance::OpenclManhattanDistance() {
  const char* source = R"(
    #define TS 16
    kernel void manhattan(global const float* A, global const float* B, global float* C, int n, int d, int m) {
      local float As[TS][TS], Bs[TS][TS];
      int tx = get_local_id(0), ty = get_local_id(1), col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (int t = 0; t < d; t += TS) {
        As[ty][tx] = row < n && t + tx < d ? A[row * d + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < d && col < m ? B[(t + ty) * m + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; ++k) acc += fabs(As[ty][k] - Bs[k][tx]);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (row < n && col < m) C[row * m + col] = acc;
    })";
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  std::vector<cl::Device> devices;
  platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  context_ = cl::Context(devices.at(0));
  queue_ = cl::CommandQueue(context_, devices.at(0));
  cl::Program program(context_, source);
  program.build({devices.at(0)});
  kernel_ = cl::Kernel(program, "manhattan");
}

void OpenclManhattanDistance::upload(const std::vector<float>& a, const std::vector<float>& b, size_t n,
                                     size_t d, size_t m) {
  if (int(n) != n_ || int(d) != d_ || int(m) != m_) {  // the last matrices' buffers otherwise
    n_ = static_cast<int>(n), d_ = static_cast<int>(d), m_ = static_cast<int>(m);
    a_ = cl::Buffer(context_, CL_MEM_READ_ONLY, n * d * sizeof(float));
    b_ = cl::Buffer(context_, CL_MEM_READ_ONLY, d * m * sizeof(float));
    c_ = cl::Buffer(context_, CL_MEM_WRITE_ONLY, n * m * sizeof(float));
  }
  queue_.enqueueWriteBuffer(a_, CL_FALSE, 0, n * d * sizeof(float), a.data());
  queue_.enqueueWriteBuffer(b_, CL_TRUE, 0, d * m * sizeof(float), b.data());
}

void OpenclManhattanDistance::run() {
  kernel_.setArg(0, a_);
  kernel_.setArg(1, b_);
  kernel_.setArg(2, c_);
  kernel_.setArg(3, n_);
  kernel_.setArg(4, d_);
  kernel_.setArg(5, m_);
  const cl::NDRange global((m_ + 15) / 16 * 16, (n_ + 15) / 16 * 16);
  queue_.enqueueNDRangeKernel(kernel_, cl::NullRange, global, cl::NDRange(16, 16));
  queue_.finish();
}

void OpenclManhattanDistance::download(std::vector<float>& c) {
  c.resize(size_t(n_) * m_);
  queue_.enqueueReadBuffer(c_, CL_TRUE, 0, c.size() * sizeof(float), c.data());
}
// -- plain OpenCL Manhattan distance: end

}  // namespace lift::skelcl
