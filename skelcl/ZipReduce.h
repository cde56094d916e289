// ZipReduce<R(A, B)>: a Reduce applied to a Zip's result as one skeleton, made from the two as
// AllPairs is (SkelCL's zip-reduce specialisation, here of two vectors):
//   Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
//   Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
//   ZipReduce<float(float, float)> dot(sum, mult);
//   float d = dot(x, y);   // sum(mult(x, y)) in one fused kernel per device
// The zip's results are never stored: `sum(mult(x, y))` launches Zip's kernel, writes the
// products to a vector and launches Reduce's two kernels; `dot(x, y)` launches one kernel that
// multiplies and adds, and folds its partial results on the device (ZipReduceSkeleton.h).
#pragma once

#include <string>

#include "skelcl/Matrix.h"
#include "skelcl/Reduce.h"
#include "skelcl/Vector.h"
#include "skelcl/Zip.h"
#include "skelcl/ZipReduceSkeleton.h"

namespace lift::skelcl {

template <class Signature>
class ZipReduce;

template <class R, class A, class B>
class ZipReduce<R(A, B)> {
 public:
  ZipReduce(const Reduce<R(R)>& reduce, const Zip<R(A, B)>& zip)
      : skeleton_(std::string("ZipReduce<") + ElementTraits<R>::name + "(" + ElementTraits<A>::name + ", " +
                      ElementTraits<B>::name + ")>",
                  zip.skeleton().userFunction(), reduce.skeleton().userFunction(), ElementTraits<R>::scalar,
                  reduce.skeleton().identityLiteral()) {}

  R operator()(const Vector<A>& left, const Vector<B>& right) const {
    return ElementTraits<R>::fromSlot(skeleton_.run(left, right));
  }
  R operator()(const Matrix<A>& left, const Matrix<B>& right) const {
    return ElementTraits<R>::fromSlot(skeleton_.run(left, right));
  }

  // Coalesced reads or contiguous chunks (Auto by default: coalesced on GPUs).
  void setForm(ZipReduceForm f) { skeleton_.setForm(f); }
  const ZipReduceSkeleton& skeleton() const { return skeleton_; }

 private:
  ZipReduceSkeleton skeleton_;
};

}  // namespace lift::skelcl
