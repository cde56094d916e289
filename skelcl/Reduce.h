// Reduce<T(T)>: SkelCL's reduce skeleton. Built from the source of an associative C function of
// two elements and its identity, e.g.
//   Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
//   float s = sum(x);
// it folds a vector (or every element of a matrix) to one value on the input's devices; over a
// block-distributed container each device reduces its part and the host combines the results.
#pragma once

#include <string>

#include "skelcl/Matrix.h"
#include "skelcl/ReduceSkeleton.h"
#include "skelcl/Vector.h"

namespace lift::skelcl {

template <class Signature>
class Reduce;

template <class T>
class Reduce<T(T)> {
 public:
  explicit Reduce(const std::string& source, const std::string& identity = "0")
      : skeleton_(std::string("Reduce<") + ElementTraits<T>::name + "(" + ElementTraits<T>::name + ")>",
                  source, ElementTraits<T>::scalar, identity) {}

  T operator()(const Vector<T>& in) const { return ElementTraits<T>::fromSlot(skeleton_.run(in)); }
  T operator()(const Matrix<T>& in) const { return ElementTraits<T>::fromSlot(skeleton_.run(in)); }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const ReduceSkeleton& skeleton() const { return skeleton_; }

 private:
  ReduceSkeleton skeleton_;
};

}  // namespace lift::skelcl
