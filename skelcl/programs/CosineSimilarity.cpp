// Cosine similarity with the SkelCL library: the user functions and the row function in the .lift
// language.
#include "skelcl/programs/CosineSimilarity.h"

namespace lift::skelcl {

// -- SkelCL cosine similarity: begin
CosineSimilarity::CosineSimilarity()
    : cosine_(
          "userfun mult(float x, float y) -> float { return x * y; }\n"
          "userfun add(float a, float x) -> float { return a + x; }\n"
          "userfun sq(float x) -> float { return x * x; }\n"
          "userfun cosine(float ab, float aa, float bb) -> float { return ab / sqrt(aa * bb); }",
          "fun((a, b) => map(cosine) $ zip(reduce(add, 0.0f) o map(mult) $ zip(a, b),\n"
          "                                reduce(add, 0.0f) o map(sq) $ a, reduce(add, 0.0f) o map(sq) $ "
          "b))") {}
// -- SkelCL cosine similarity: end

}  // namespace lift::skelcl
