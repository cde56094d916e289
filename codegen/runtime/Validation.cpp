// Element-wise comparison with per-type tolerances.
#include "codegen/runtime/Validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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

static std::string quoted(const std::string& name) { return name.empty() ? "output" : "output '" + name + "'"; }

static std::string num(double v) { return fmt::format("{:.9g}", v); }

static void describe(ValidationReport& r, uint64_t total) {
  if (r.ok) return;
  if (r.unwritten)
    r.message = fmt::format("{}: {} of {} elements wrong; element {} was never written (still poison), expected {}",
                            quoted(r.argName), r.mismatches, total, r.firstMismatch, num(r.expected));
  else
    r.message = fmt::format("{}: {} of {} elements wrong; first at index {}: got {}, expected {}; "
                            "max relative error {:.3g}",
                            quoted(r.argName), r.mismatches, total, r.firstMismatch, num(r.got), num(r.expected),
                            r.maxRelError);
}

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
  const bool isInt = got.type() == ScalarType::Int;
  const double rel = got.type() == ScalarType::Double ? tol.doubleRel : tol.floatRel;
  const double abs = got.type() == ScalarType::Double ? tol.doubleAbs : tol.floatAbs;
  for (size_t i = 0; i < got.size(); ++i) {
    bool bad;
    if (isInt) {
      int32_t g = got.ints()[i], e = expected.ints()[i];
      bad = g != e;
      if (bad) {
        double err = std::abs(double(g) - double(e)) / std::max(std::abs(double(e)), 1.0);
        r.maxRelError = std::max(r.maxRelError, err);
      }
    } else {
      double g = got.at(i), e = expected.at(i);
      if (std::isnan(g)) {
        bad = true;
      } else if (g == e) {  // also equal infinities
        bad = false;
      } else {
        double diff = std::abs(g - e);
        double err = diff / std::max(std::abs(e), abs / rel);
        if (std::isnan(err)) err = INFINITY;
        r.maxRelError = std::max(r.maxRelError, err);
        bad = !(diff <= std::max(rel * std::abs(e), abs));
      }
    }
    if (bad) {
      if (r.mismatches == 0) {
        r.firstMismatch = static_cast<int64_t>(i);
        r.got = got.at(i);
        r.expected = expected.at(i);
        r.unwritten = got.isPoison(i);
      }
      ++r.mismatches;
    }
  }
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
