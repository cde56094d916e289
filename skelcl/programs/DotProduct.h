// The seed's dot product written directly against OpenCL (one device), for the lines-of-code and
// speed comparison with the library's ZipReduce (tests/tst_skelcl.cpp holds the library's five
// lines; skelcl/README.md counts both, bench/skelcl times both): work-groups striding over the
// vectors, each multiplying and summing into a tree in local memory, the host summing the
// groups' partial results. Set up once (platform,
// context, program), then uploaded and run, so that the bench can time the phases apart.
#pragma once

#include <CL/opencl.hpp>

#include <vector>

namespace lift::skelcl {

// -- plain OpenCL dot product (declaration): begin
class OpenclDotProduct {
 public:
  OpenclDotProduct();  // on the first device of the first platform
  void upload(const std::vector<float>& a, const std::vector<float>& b);
  float run();  // the dot product of the vectors uploaded last
  float operator()(const std::vector<float>& a, const std::vector<float>& b) { return upload(a, b), run(); }

 private:
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer a_, b_;
  int n_ = 0;
};
// -- plain OpenCL dot product (declaration): end

}  // namespace lift::skelcl
