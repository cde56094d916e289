// AllPairs<R(A, B)>: SkelCL's allpairs skeleton, C(i, j) = f(row i of A, column j of B) for an
// n x d matrix A and a d x m matrix B (C: n x m). In its zip-reduce form it is made from a Zip and
// a Reduce as in SkelCL:
//   Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
//   Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
//   AllPairs<float(float, float)> mm(sum, mult);
//   Matrix<float> C = mm(A, B);   // the matrix product
// C(i, j) the reduction of the zip of row i of A with column j of B. In its general form f is a
// function of the two vectors in the .lift language, since the compiler's user functions take
// scalars, vectors and tuples, not arrays: user-function definitions, then a lambda of a row of
// A ([A]D) and a column of B ([B]D) giving R or [R]1 (what reduce gives):
//   AllPairs<float(float, float)> cosine(
//       "userfun mult(float x, float y) -> float { return x * y; }\n"
//       "userfun add(float a, float x) -> float { return a + x; }\n"
//       "userfun sq(float x) -> float { return x * x; }\n"
//       "userfun cosine(float ab, float aa, float bb) -> float { return ab / sqrt(aa * bb); }",
//       "fun((a, b) => map(cosine) $ zip(reduce(add, 0.0f) o map(mult) $ zip(a, b),\n"
//       "                                reduce(add, 0.0f) o map(sq) $ a, reduce(add, 0.0f) o map(sq) $
//       b))");
// (AllPairsProgram.h: the programs, the sizes N, M, D the types may name.) Both forms run the same
// way: A's distribution (block by default) is C's; B is copied to every device.
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
  // The zip-reduce form.
  AllPairs(const Reduce<R(R)>& reduce, const Zip<R(A, B)>& zip)
      : skeleton_(name(),
                  zipReduceRowFunction(zip.skeleton().userFunction(), reduce.skeleton().userFunction(),
                                       reduce.skeleton().identityLiteral()),
                  types()) {}

  // The general form: `definitions` the user functions (`userfun ...`, .lift), `rowFunction` a
  // lambda fun((a, b) => ...) of a row of A and a column of B giving R or [R]1. Throws LiftError,
  // located in the text given, when they do not parse, type-check or compile, or the row function
  // gives another type.
  AllPairs(const std::string& definitions, const std::string& rowFunction)
      : skeleton_(name(), AllPairsFunction{definitions, rowFunction}, types()) {}

  Matrix<R> operator()(const Matrix<A>& left, const Matrix<B>& right) const {
    Matrix<R> out(DeviceOutput{}, left.devices(), left.rows(), right.columns());
    skeleton_.run(left, right, out);
    return out;
  }

  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const AllPairsSkeleton& skeleton() const { return skeleton_; }
  // Where the zip-reduce form runs in local-memory tiles (AllPairsSkeleton.h; on GPUs by default).
  void setLocalTiles(LocalTiles where) { skeleton_.setLocalTiles(where); }

 private:
  static std::string name() {
    return std::string("AllPairs<") + ElementTraits<R>::name + "(" + ElementTraits<A>::name + ", " +
           ElementTraits<B>::name + ")>";
  }
  static AllPairsTypes types() {
    return {ElementTraits<R>::name, ElementTraits<A>::name, ElementTraits<B>::name};
  }

  AllPairsSkeleton skeleton_;
};

}  // namespace lift::skelcl
