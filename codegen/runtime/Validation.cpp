// Element-wise comparison with per-type tolerances.
#include "codegen/runtime/Validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace lift::runtime {

void ValidationReport::merge(const ValidationReport& other) {
  if (!other.checked) return;
  maxRelError = std::max(maxRelError, other.maxRelError);
  if (!checked || (ok && !other.ok)) {
    double keepMax = maxRelError;
    *this = other;
    maxRelError = keepMax;
  }
  checked = true;
}

static std::string quoted(const std::string& name) {
  return name.empty() ? "output" : "output '" + name + "'";
}

static std::string num(double v) { return fmt::format("{:.9g}", v); }

static void describe(ValidationReport& r, uint64_t total) {
  if (r.ok) return;
  if (r.unwritten)
    r.message =
        fmt::format("{}: {} of {} elements wrong; element {} was never written (still poison), expected {}",
                    quoted(r.argName), r.mismatches, total, r.firstMismatch, num(r.expected));
  else
    r.message = fmt::format(
        "{}: {} of {} elements wrong; first at index {}: got {}, expected {}; "
        "max relative error {:.3g}",
        quoted(r.argName), r.mismatches, total, r.firstMismatch, num(r.got), num(r.expected), r.maxRelError);
}

namespace {

// One typed pass over the arrays (outputs can have millions of elements).
template <class T>
void compareTyped(const std::vector<T>& got, const std::vector<T>& expected, double rel, double abs,
                  ValidationReport& r) {
  for (size_t i = 0; i < got.size(); ++i) {
    const T g = got[i], e = expected[i];
    if (g == e) continue;  // the common case; also equal infinities
    bool bad;
    if constexpr (std::is_integral_v<T>) {
      bad = true;
      double err = std::abs(double(g) - double(e)) / std::max(std::abs(double(e)), 1.0);
      r.maxRelError = std::max(r.maxRelError, err);
    } else if (std::isnan(g)) {
      bad = true;  // an unwritten element (the poison is a NaN), or a computed NaN
    } else {
      double diff = std::abs(double(g) - double(e));
      double err = diff / std::max(std::abs(double(e)), abs / rel);
      if (std::isnan(err)) err = INFINITY;
      r.maxRelError = std::max(r.maxRelError, err);
      bad = !(diff <= std::max(rel * std::abs(double(e)), abs));
    }
    if (bad) {
      if (r.mismatches == 0) {
        r.firstMismatch = static_cast<int64_t>(i);
        r.got = static_cast<double>(g);
        r.expected = static_cast<double>(e);
      }
      ++r.mismatches;
    }
  }
}

}  // namespace

ValidationReport compareArrays(const HostArray& got, const HostArray& expected, const Tolerance& tol,
                               const std::string& argName) {
  ValidationReport r;
  r.checked = true;
  r.argName = argName;
  if (got.type() != expected.type() || got.size() != expected.size()) {
    r.ok = false;
    r.message = fmt::format("{}: got {} {} values, expected {} {} values", quoted(argName), got.size(),
                            toString(got.type()), expected.size(), toString(expected.type()));
    return r;
  }
  switch (got.type()) {
    case ScalarType::Float:
      compareTyped(got.floats(), expected.floats(), tol.floatRel, tol.floatAbs, r);
      break;
    case ScalarType::Double:
      compareTyped(got.doubles(), expected.doubles(), tol.doubleRel, tol.doubleAbs, r);
      break;
    case ScalarType::Int:
      compareTyped(got.ints(), expected.ints(), 0, 0, r);
      break;
  }
  if (r.mismatches) r.unwritten = got.isPoison(static_cast<size_t>(r.firstMismatch));
  r.ok = r.mismatches == 0;
  describe(r, got.size());
  return r;
}

ValidationReport checkWritten(const HostArray& got, const std::string& argName) {
  ValidationReport r;
  r.checked = true;
  r.argName = argName;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!got.isPoison(i)) continue;
    if (r.mismatches == 0) {
      r.firstMismatch = static_cast<int64_t>(i);
      r.got = got.at(i);
      r.unwritten = true;
    }
    ++r.mismatches;
  }
  r.ok = r.mismatches == 0;
  if (!r.ok)
    r.message = fmt::format("{}: {} of {} elements were never written (still poison); the first at index {}",
                            quoted(argName), r.mismatches, got.size(), r.firstMismatch);
  return r;
}

}  // namespace lift::runtime
