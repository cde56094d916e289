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
  void run();  // the scan of the vector uploaded last, left on the device
  std::vector<float> download();
  std::vector<float> operator()(const std::vector<float>& a) { return upload(a), run(), download(); }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel sums_, scans_;
  cl::Buffer a_, out_;
  int n_ = 0, local_ = 0;
};
// -- plain OpenCL prefix sum (declaration): end

}  // namespace lift::skelcl
