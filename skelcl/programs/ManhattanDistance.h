// The seed's pairwise Manhattan distance (SkelCL's second allpairs example: `dist A B =
// allpairs(sum, absDiff) A B`), twice: with the library (AllPairs in zip-reduce form, A
// block-distributed, B copied to every device) and written directly against OpenCL (one device),
// for the lines-of-code and speed comparison of skelcl/README.md and bench/skelcl. Row i of A (n
// x d) and column j of B (d x m) are points of d coordinates; C(i, j) is the sum of |A(i, k) -
// B(k, j)| over k. The plain version has the shape of the tiled matrix multiplication
// (MatrixMultiplication.h): a work-group computes a 16 x 16 tile of C through 16 x 16 tiles of A
// and B in local memory; past the edges both read zeros, whose distance adds nothing.
#pragma once

#include <cstddef>
#include <vector>

#include <CL/opencl.hpp>

#include "skelcl/AllPairs.h"

namespace lift::skelcl {

// The distances as a SkelCL skeleton, compiled once.
class ManhattanDistance {
 public:
  ManhattanDistance();
  Matrix<float> operator()(const Matrix<float>& a, const Matrix<float>& b) const { return distance_(a, b); }
  const AllPairs<float(float, float)>& allPairs() const { return distance_; }

 private:
  AllPairs<float(float, float)> distance_;
};

// -- plain OpenCL Manhattan distance (declaration): begin
class OpenclManhattanDistance {
 public:
  OpenclManhattanDistance();  // on the first device of the first platform
  void upload(const std::vector<float>& a, const std::vector<float>& b, size_t n, size_t d, size_t m);
  void run();                            // the distances of the matrices uploaded last, left on the device
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
// -- plain OpenCL Manhattan distance (declaration): end

}  // namespace lift::skelcl
