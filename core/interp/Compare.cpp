// Comparison of values with a floating-point tolerance (see Compare.h).
#include "core/interp/Compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace lift::interp {

std::string Comparison::report() const {
  std::string err = fmt::format("max relative error {:.3g}", maxRelError);
  if (equal) return fmt::format("equal ({} value{}, {})", compared, compared == 1 ? "" : "s", err);
  if (mismatches == 0) return "different shapes: " + firstDifference;
  return fmt::format("{} of {} values differ; first at {}; {}", mismatches, compared, firstDifference, err);
}

namespace {

class Comparer {
 public:
  Comparer(double relTol, double absTol) : relTol_(relTol), absTol_(absTol) {}

  void compare(const Value& a, const Value& b, std::string& path) {
    if (a.kind() != b.kind()) return shape(path, a, b);
    switch (a.kind()) {
      case Value::Kind::Scalar:
        if (a.scalarKind() != b.scalarKind()) return shape(path, a, b);
        return scalar(a.scalarKind(), a.bits(), b.bits(), path, -1);
      case Value::Kind::Vector:
        if (a.scalarKind() != b.scalarKind() || a.width() != b.width()) return shape(path, a, b);
        for (int i = 0; i < a.width(); ++i) scalar(a.scalarKind(), a.lane(i), b.lane(i), path, i);
        return;
      case Value::Kind::Tuple:
        if (a.size() != b.size()) return shape(path, a, b);
        for (size_t i = 0; i < a.size(); ++i) {
          size_t len = path.size();
          path += fmt::format("._{}", i);
          compare(a.at(i), b.at(i), path);
          path.resize(len);
          if (stop()) return;
        }
        return;
      case Value::Kind::Array:
        break;
    }
    if (a.size() != b.size()) return shape(path, a, b);
    if (a.isFlat() && b.isFlat() && a.flatKind() == b.flatKind() && a.flatWidth() == b.flatWidth() &&
        std::equal(a.dims().begin(), a.dims().end(), b.dims().begin(), b.dims().end())) {
      flat(a, b, path);
      return;
    }
    for (size_t i = 0; i < a.size(); ++i) {
      size_t len = path.size();
      path += fmt::format("[{}]", i);
      compare(a.at(i), b.at(i), path);
      path.resize(len);
      if (stop()) return;
    }
  }

  Comparison result;

 private:
  bool stop() const { return !result.equal && result.mismatches == 0; }  // after a shape difference

  void shape(const std::string& path, const Value& a, const Value& b) {
    result.equal = false;
    result.firstDifference =
        fmt::format("{}{} vs {}", path.empty() ? "" : path + ": ", a.type().toString(), b.type().toString());
  }

  // Compares flat arrays of the same shape without building element values.
  void flat(const Value& a, const Value& b, const std::string& path) {
    auto da = a.flatData(), db = b.flatData();
    auto dims = a.dims();
    int width = a.flatWidth();
    for (size_t i = 0; i < da.size(); ++i) {
      if (check(a.flatKind(), da[i], db[i]) || !result.firstDifference.empty()) continue;
      // Spell out the position of scalar i.
      std::string where;
      size_t rest = i / static_cast<size_t>(width);
      std::vector<size_t> idx(dims.size());
      for (size_t d = dims.size(); d-- > 0;) {
        idx[d] = rest % static_cast<size_t>(dims[d]);
        rest /= static_cast<size_t>(dims[d]);
      }
      for (size_t x : idx) where += fmt::format("[{}]", x);
      if (width > 1) where += fmt::format(".s{:x}", i % static_cast<size_t>(width));
      describe(path + where, a.flatKind(), da[i], db[i]);
    }
  }

  void scalar(ScalarKind k, Scalar x, Scalar y, const std::string& path, int lane) {
    if (check(k, x, y) || !result.firstDifference.empty()) return;
    describe(lane < 0 ? path : path + fmt::format(".s{:x}", lane), k, x, y);
  }

  void describe(const std::string& where, ScalarKind k, Scalar x, Scalar y) {
    double a = scalarToDouble(k, x), b = scalarToDouble(k, y);
    std::string what = fmt::format("{} vs {}", fmtScalar(k, x), fmtScalar(k, y));
    if (k == ScalarKind::Float || k == ScalarKind::Double)
      what += fmt::format(" (relative error {:.3g})", relError(a, b));
    result.firstDifference = (where.empty() ? "the value" : where) + ": " + what;
  }

  static std::string fmtScalar(ScalarKind k, Scalar s) {
    switch (k) {
      case ScalarKind::Float:
        return fmt::format("{}", s.f);
      case ScalarKind::Double:
        return fmt::format("{}", s.d);
      case ScalarKind::Int:
        return std::to_string(s.i);
      case ScalarKind::Bool:
        return s.b ? "true" : "false";
    }
    return "?";
  }

  static double relError(double a, double b) {
    double scale = std::max(std::abs(a), std::abs(b));
    return scale == 0 ? 0 : std::abs(a - b) / scale;
  }

  // Counts the scalar; returns whether it agrees.
  bool check(ScalarKind k, Scalar x, Scalar y) {
    ++result.compared;
    bool ok;
    if (k == ScalarKind::Float || k == ScalarKind::Double) {
      double a = scalarToDouble(k, x), b = scalarToDouble(k, y);
      if (std::isnan(a) || std::isnan(b)) {
        ok = std::isnan(a) && std::isnan(b);
      } else if (std::isinf(a) || std::isinf(b)) {
        ok = a == b;
      } else {
        double diff = std::abs(a - b);
        double rel = relError(a, b);
        result.maxAbsError = std::max(result.maxAbsError, diff);
        result.maxRelError = std::max(result.maxRelError, rel);
        ok = diff <= std::max(relTol_ * std::max(std::abs(a), std::abs(b)), absTol_);
      }
    } else if (k == ScalarKind::Int) {
      ok = x.i == y.i;
    } else {
      ok = x.b == y.b;
    }
    if (!ok) {
      result.equal = false;
      ++result.mismatches;
    }
    return ok;
  }

  double relTol_, absTol_;
};

}  // namespace

Comparison approxEqual(const Value& actual, const Value& expected, double relTol, double absTol) {
  Comparer c(relTol, absTol);
  std::string path;
  c.compare(actual, expected, path);
  return c.result;
}

}  // namespace lift::interp
