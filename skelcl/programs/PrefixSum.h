// The seed's prefix sum (the exclusive scan of floats) written directly against OpenCL (one
// device), for the lines-of-code and speed comparison with the library's Scan (tests/tst_skelcl.cpp
// holds the library's two lines; skelcl/README.md counts both, bench/skelcl times both): the usual
// GPU scan in work-groups — each work-group sums its tile of the input in local memory, the host
// scans the tiles' sums, and each work-group scans its tile from its offset in local memory, 256
// elements at a time (Hillis and Steele). Set up once (platform, context, program), then
// uploaded, run and downloaded, so that the bench can time the phases apart.
#pragma once

#include <CL/opencl.hpp>

#include <vector>

namespace lift::skelcl {

// -- plain OpenCL prefix sum (declaration): begin
class OpenclPrefixSum {
 public:
  OpenclPrefixSum();  // on the first device of the first platform
  void upload(const std::vector<float>& a);
  void run();                              // the scan of the vector uploaded last, left on the device
  void download(std::vector<float>& out);  // into out, resized (no new host memory for the same size)
  std::vector<float> operator()(const std::vector<float>& a) {
    std::vector<float> out;
    return upload(a), run(), download(out), out;
  }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel tileSums_, tileScans_;
  cl::Buffer a_, out_, sums_;
  int n_ = 0, local_ = 0, groups_ = 0;
};
// -- plain OpenCL prefix sum (declaration): end

}  // namespace lift::skelcl
