// The seed's Gaussian blur (SkelCL, Figure 3.5: `gauss M = stencil f 1 0 M`), twice: with the
// library (a Stencil over a Matrix, distributed over the matrix's devices) and written directly
// against OpenCL (one device), for the lines-of-code and speed comparison of skelcl/README.md
// and bench/skelcl. Each pixel becomes 1/16 [1 2 1; 2 4 2; 1 2 1] applied to its 3 x 3
// neighbourhood; outside the image reads 0.
#pragma once

#include <cstddef>
#include <vector>

#include <CL/opencl.hpp>

#include "skelcl/Matrix.h"
#include "skelcl/Stencil.h"

namespace lift::skelcl {

// The blur as a SkelCL skeleton, compiled once, applied to any image.
class GaussianBlur {
 public:
  GaussianBlur();
  Matrix<float> operator()(const Matrix<float>& image) const { return gauss_(image); }
  const Stencil<float(float)>& stencil() const { return gauss_; }

 private:
  Stencil<float(float)> gauss_;
};

// The blur of a rows x columns row-major image written against the OpenCL C++ bindings, on the
// first device of the first platform: set up once (platform, context, program), then uploaded,
// run and downloaded, so that the bench can time the phases apart.
// -- plain OpenCL Gaussian blur (declaration): begin
class OpenclGaussianBlur {
 public:
  OpenclGaussianBlur();  // on the first device of the first platform
  void upload(const std::vector<float>& image, size_t rows, size_t columns);
  void run();                                 // the blur of the image uploaded last, left on the device
  void download(std::vector<float>& result);  // into result, resized (no new host memory for the same size)
  std::vector<float> operator()(const std::vector<float>& image, size_t rows, size_t columns) {
    std::vector<float> result;
    return upload(image, rows, columns), run(), download(result), result;
  }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer in_, out_;
  size_t rows_ = 0, columns_ = 0;
};
// -- plain OpenCL Gaussian blur (declaration): end

// The same, set up for one image.
std::vector<float> openclGaussianBlur(const std::vector<float>& image, size_t rows, size_t columns);

}  // namespace lift::skelcl
