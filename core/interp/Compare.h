// Comparing results: the interpreter against a reference, a rewritten program against the
// original, a kernel's output against the interpreter. Floats compare with a tolerance
// (reductions in another order round differently); ints and bools compare exactly.
#pragma once

#include <cstddef>
#include <string>

#include "core/interp/Value.h"

namespace lift::interp {

struct Comparison {
  bool equal = true;
  size_t compared = 0;     // scalars compared
  size_t mismatches = 0;   // scalars outside the tolerance
  double maxRelError = 0;  // over all compared floats: |a - b| / max(|a|, |b|)
  double maxAbsError = 0;
  // The first difference: "[3][1]: 1.5 vs 1.25 (relative error 0.1667)", or how the shapes
  // differ. Empty when equal.
  std::string firstDifference;

  explicit operator bool() const { return equal; }
  // One line: "equal (1024 values, max relative error 3.1e-07)" or
  // "17 of 1024 values differ; first at [3][1]: ...; max relative error 0.5".
  std::string report() const;
};

// Floats a and b agree when |a - b| <= max(relTol * max(|a|, |b|), absTol); NaN agrees only
// with NaN, infinities with themselves.
Comparison approxEqual(const Value& actual, const Value& expected, double relTol = 1e-4,
                       double absTol = 1e-5);

}  // namespace lift::interp
