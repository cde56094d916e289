// Cosine similarity of the rows of A (n x d) with the columns of B (d x m), AllPairs with a
// general row function (skelcl/AllPairsProgram.h): C(i, j) = a . b / (|a| |b|) for a row i of A
// and b column j of B, three fused loops over d and a user function of their sums per element of
// C (not a zip-reduce: SkelCL would need its general allpairs). A block-distributed, B copied to
// every device. No plain OpenCL version: tests/tst_skelcl_allpairs.cpp checks it against the
// host, and bench_skelcl's cosine case times it.
#pragma once

#include "skelcl/AllPairs.h"

namespace lift::skelcl {

class CosineSimilarity {
 public:
  CosineSimilarity();
  Matrix<float> operator()(const Matrix<float>& a, const Matrix<float>& b) const { return cosine_(a, b); }
  const AllPairs<float(float, float)>& allPairs() const { return cosine_; }

 private:
  AllPairs<float(float, float)> cosine_;
};

}  // namespace lift::skelcl
