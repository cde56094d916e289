// AllPairs<R(A, B)>: SkelCL's allpairs skeleton in its zip-reduce form, made from a Zip and a
// Reduce as in SkelCL:
//   Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
//   Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
//   AllPairs<float(float, float)> mm(sum, mult);
//   Matrix<float> C = mm(A, B);   // A: n x d, B: d x m, C: n x m, the matrix product
// C(i, j) is the reduction of the zip of row i of A with column j of B. A's distribution (block
// by default) is C's; B is copied to every device.
#pragma once

#include <string>

#include "skelcl/AllPairsSkeleton.h"
#include "skelcl/Matrix.h"
#include "skelcl/Reduce.h"
#include "skelcl/Zip.h"

namespace lift::skelcl {

template <class Signature>
class AllPairs;

template <class R, class A, class B>
class AllPairs<R(A, B)> {
 public:
  AllPairs(const Reduce<R(R)>& reduce, const Zip<R(A, B)>& zip)
      : skeleton_(std::string("AllPairs<") + ElementTraits<R>::name + "(" + ElementTraits<A>::name + ", " +
                      ElementTraits<B>::name + ")>",
                  zip.skeleton().userFunction(), reduce.skeleton().userFunction(),
                  reduce.skeleton().identityLiteral()) {}

  Matrix<R> operator()(const Matrix<A>& left, const Matrix<B>& right) const {
    Matrix<R> out(DeviceOutput{}, left.devices(), left.rows(), right.columns());
    skeleton_.run(left, right, out);
    return out;
  }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const AllPairsSkeleton& skeleton() const { return skeleton_; }

 private:
  AllPairsSkeleton skeleton_;
};

}  // namespace lift::skelcl
