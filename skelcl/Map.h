// Map<R(A)>: SkelCL's map skeleton. Built from the source of a C function from A to R, e.g.
//   Map<float(float)> neg("float func(float x) { return -x; }");
//   Vector<float> y = neg(x);
// it applies the function to every element of a vector or matrix on the input's devices, with
// the input's distribution; the result stays on the devices until it is read.
#pragma once

#include <string>

#include "skelcl/ElementwiseSkeleton.h"
#include "skelcl/Matrix.h"
#include "skelcl/Vector.h"

namespace lift::skelcl {

template <class Signature>
class Map;

template <class R, class A>
class Map<R(A)> {
 public:
  explicit Map(const std::string& source)
      : skeleton_(std::string("Map<") + ElementTraits<R>::name + "(" + ElementTraits<A>::name + ")>", source,
                  ElementTraits<R>::name, {ElementTraits<A>::name}) {}

  Vector<R> operator()(const Vector<A>& in) const {
    Vector<R> out(DeviceOutput{}, in.devices(), in.size());
    skeleton_.run({&in}, out);
    return out;
  }
  Matrix<R> operator()(const Matrix<A>& in) const {
    Matrix<R> out(DeviceOutput{}, in.devices(), in.rows(), in.columns());
    skeleton_.run({&in}, out);
    return out;
  }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const ElementwiseSkeleton& skeleton() const { return skeleton_; }

 private:
  ElementwiseSkeleton skeleton_;
};

}  // namespace lift::skelcl
