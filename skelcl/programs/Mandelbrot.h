// The seed's Mandelbrot set (SkelCL, section 3.4: a map over an index matrix), twice: with the
// library (Map<int(IndexPoint)> over an IndexMatrix, distributed over the devices) and written
// directly against OpenCL (one device), for the lines-of-code and speed comparison of
// skelcl/README.md. Pixel (row, column) of a width x height image is the point
// c = (-2 + 3 column / width) + (-1.5 + 3 row / height) i of the complex plane; its value is the
// number of iterations of z -> z^2 + c from 0 (at most kMandelbrotIterations) before |z| > 2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <CL/opencl.hpp>

#include "skelcl/IndexMap.h"

namespace lift::skelcl {

constexpr int kMandelbrotIterations = 100;

// The Mandelbrot set of a width x height image as a SkelCL skeleton, compiled once.
class Mandelbrot {
 public:
  Mandelbrot(size_t width, size_t height);
  // The image (height rows of width), block-distributed over `devices`.
  Matrix<int32_t> operator()(const std::shared_ptr<DeviceSet>& devices) const {
    return mandelbrot_(IndexMatrix(devices, height_, width_));
  }
  const Map<int32_t(IndexPoint)>& map() const { return mandelbrot_; }

 private:
  size_t width_, height_;
  Map<int32_t(IndexPoint)> mandelbrot_;
};

// The image written against the OpenCL C++ bindings, on the first device of the first platform:
// the program built once, then any image computed (left on the device) and downloaded, so that
// the bench can time the phases apart.
// -- plain OpenCL Mandelbrot (declaration): begin
class OpenCLMandelbrot {
 public:
  OpenCLMandelbrot();
  void run(size_t width, size_t height);        // the image, left on the device
  void download(std::vector<int32_t>& result);  // into result, resized (no new host memory for the same size)
  std::vector<int32_t> operator()(size_t width, size_t height) {
    std::vector<int32_t> result;
    return run(width, height), download(result), result;
  }

 private:
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Kernel kernel_;
  cl::Buffer out_;
  size_t width_ = 0, height_ = 0;
};
// -- plain OpenCL Mandelbrot (declaration): end

}  // namespace lift::skelcl
