// Validation of kernel outputs against expected arrays: a relative-error tolerance per element
// type, the first mismatching index and the largest relative error. A wrong result is a report,
// not an exception.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/runtime/HostArray.h"

namespace lift::runtime {

// An element passes when |got - expected| <= max(rel * |expected|, abs). The absolute floor keeps
// values near zero (where a relative error is meaningless) from failing on rounding noise.
struct Tolerance {
  double floatRel = 1e-3;
  double floatAbs = 1e-4;
  double doubleRel = 1e-9;
  double doubleAbs = 1e-12;
  // Ints compare exactly.
};

struct ValidationReport {
  bool checked = false;  // false when nothing was compared
  bool ok = true;
  std::string argName;         // the (first) output that failed
  int64_t firstMismatch = -1;  // scalar index into that output
  double got = 0;              // its value and the expected one
  double expected = 0;
  bool unwritten = false;   // the first mismatch still held the poison
  uint64_t mismatches = 0;  // in that output
  double maxRelError = 0;   // over every compared output, NaN elements excluded
  std::string message;      // one line for the user; empty when ok

  // Folds the report of another output into this one; the first failure is kept.
  void merge(const ValidationReport& other);
};

// Compares `got` with `expected` element by element. NaN in `got` is always a mismatch (it is
// how an unwritten float element shows).
ValidationReport compareArrays(const HostArray& got, const HostArray& expected, const Tolerance& tol = {},
                               const std::string& argName = "");

// Without an expected array: fails when an element still holds the poison pattern bit for bit,
// i.e. the kernel never wrote it.
ValidationReport checkWritten(const HostArray& got, const std::string& argName = "");

}  // namespace lift::runtime
