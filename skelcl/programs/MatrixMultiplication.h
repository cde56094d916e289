// The seed's matrix multiplication (SkelCL: `mm A B = allpairs(sum, mult) A B`), twice: with the
// library (AllPairs in zip-reduce form, A block-distributed, B copied to every device) and written
// directly against OpenCL (one device), for the lines-of-code and speed comparison of
// skelcl/README.md and bench/skelcl. The plain version is the usual hand-written GPU kernel (the
// NVIDIA SDK's, the one SkelCL's paper compares with): a work-group computes a 16 x 16 tile of C,
// stepping along the shared dimension a 16 x 16 tile of A and of B at a time through local memory;
// tiles past the matrices' edges read zeros, so any sizes work. A is n x d, B is d x m (row-major).
#pragma once

#include <cstddef>
#include <vector>

#include <CL/opencl.hpp>

#include "skelcl/AllPairs.h"

namespace lift::skelcl {

// C = A x B as a SkelCL skeleton, compiled once.
class MatrixMultiplication {
 public:
  MatrixMultiplication();
  Matrix<float> operator()(const Matrix<float>& a, const Matrix<float>& b) const { return mm_(a, b); }
  const AllPairs<float(float, float)>& allPairs() const { return mm_; }

 private:
  AllPairs<float(float, float)> mm_;
};

// -- plain OpenCL matrix multiplication (declaration): begin
class OpenclMatrixMultiplication {
 public:
  OpenclMatrixMultiplication();  // on the first device of the first platform
  void upload(const std::vector<float>& a, const std::vector<float>& b, size_t n, size_t d, size_t m);
  void run();                            // C of the matrices uploaded last, left on the device
  void download(std::vector<float>& c);  // into c, resized (no new host memory for the same size)
  std::vector<float> operator()(const std::vector<float>& a, const std::vector<float>& b, size_t n, size_t d,
                                size_t m) {
    std::vector<float> c;
    return upload(a, b, n, d, m), run(), download(c), c;
  }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer a_, b_, c_;
  int n_ = 0, d_ = 0, m_ = 0;
};
// -- plain OpenCL matrix multiplication (declaration): end

}  // namespace lift::skelcl
