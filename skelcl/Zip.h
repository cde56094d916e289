// Zip<R(A, B)>: SkelCL's zip skeleton. Built from the source of a C function of two elements,
// e.g.
//   Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
//   Vector<float> z = mult(x, y);
// it combines the elements of two vectors (or matrices) of the same size pairwise. The second
// input is redistributed to the first's distribution when they differ; sizes that differ are a
// LiftError.
#pragma once

#include <string>

#include "skelcl/ElementwiseSkeleton.h"
#include "skelcl/Matrix.h"
#include "skelcl/Vector.h"

namespace lift::skelcl {

template <class Signature>
class Zip;

template <class R, class A, class B>
class Zip<R(A, B)> {
 public:
  explicit Zip(const std::string& source)
      : skeleton_(std::string("Zip<") + ElementTraits<R>::name + "(" + ElementTraits<A>::name + ", " +
                      ElementTraits<B>::name + ")>",
                  source, ElementTraits<R>::name, {ElementTraits<A>::name, ElementTraits<B>::name}) {}

  Vector<R> operator()(const Vector<A>& left, const Vector<B>& right) const {
    Vector<R> out(DeviceOutput{}, left.devices(), left.size());
    skeleton_.run({&left, &right}, out);
    return out;
  }
  Matrix<R> operator()(const Matrix<A>& left, const Matrix<B>& right) const {
    Matrix<R> out(DeviceOutput{}, left.devices(), left.rows(), left.columns());
    skeleton_.run({&left, &right}, out);
    return out;
  }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const ElementwiseSkeleton& skeleton() const { return skeleton_; }

 private:
  ElementwiseSkeleton skeleton_;
};

}  // namespace lift::skelcl
