// Stencil<R(T)>: SkelCL's stencil skeleton over a Vector (1-D) or a Matrix (2-D). Built from the
// source of a C function whose parameter stands for the element's neighbourhood, read with
// get(in, dx) (vectors) or get(in, dx, dy) (matrices; dx the column, dy the row offset), the
// halo (the largest offset) and the out-of-bound mode:
//   Stencil<float(float)> blur("float func(float in) { return (get(in, -1, 0) + get(in, 0, 0)"
//                              " + get(in, 1, 0)) / 3.0f; }", 1, OutOfBound::Neutral, 0.0f);
//   Matrix<float> out = blur(image);
// The input is overlap(halo)-distributed over its devices (a block input is redistributed), the
// output block-distributed; single and copy inputs keep their distribution. See StencilSkeleton.h.
#pragma once

#include <fmt/format.h>

#include <string>

#include "skelcl/Matrix.h"
#include "skelcl/StencilSkeleton.h"
#include "skelcl/Vector.h"

namespace lift::skelcl {

// The .lift literal of a neutral value.
inline std::string neutralLiteral(float v) { return fmt::format("{:.9e}f", v); }
inline std::string neutralLiteral(double v) { return fmt::format("{:.17e}", v); }
inline std::string neutralLiteral(int32_t v) { return std::to_string(v); }

template <class Signature>
class Stencil;

template <class R, class T>
class Stencil<R(T)> {
 public:
  // `neutral` is read outside the container with OutOfBound::Neutral (ignored for Nearest).
  Stencil(const std::string& source, size_t halo, OutOfBound mode, T neutral = T{})
      : skeleton_(std::string("Stencil<") + ElementTraits<R>::name + "(" + ElementTraits<T>::name + ")>",
                  source, ElementTraits<R>::name, ElementTraits<T>::name, halo, mode,
                  neutralLiteral(neutral)) {}

  Vector<R> operator()(const Vector<T>& in) const {
    Vector<R> out(DeviceOutput{}, in.devices(), in.size());
    skeleton_.run(in, out, 1);
    return out;
  }
  Matrix<R> operator()(const Matrix<T>& in) const {
    Matrix<R> out(DeviceOutput{}, in.devices(), in.rows(), in.columns());
    skeleton_.run(in, out, 2);
    return out;
  }

  const StencilSkeleton& skeleton() const { return skeleton_; }

 private:
  StencilSkeleton skeleton_;
};

}  // namespace lift::skelcl
