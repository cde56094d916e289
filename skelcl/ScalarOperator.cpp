// The identity and host application of Reduce's and Scan's user function (ScalarOperator.h).
#include "skelcl/ScalarOperator.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <span>

#include "core/cfun/CFunEval.h"
#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

ScalarOperator::ScalarOperator(const std::string& what, runtime::ScalarType type, const std::string& identity)
    : type_(type) {
  std::string t = trimmed(identity);
  auto bad = [&] {
    throw LiftError(fmt::format("{}: the identity \"{}\" is not a finite {} literal", what, identity,
                                runtime::toString(type)));
  };
  if (type == runtime::ScalarType::Int) {
    int32_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) bad();
    identity_.i = v;
    identityLiteral_ = std::to_string(v);
    return;
  }
  if (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) bad();
  if (type == runtime::ScalarType::Float) {
    identity_.f = static_cast<float>(v);
    if (!std::isfinite(identity_.f)) bad();
    identityLiteral_ = fmt::format("{:.9e}f", identity_.f);
    return;
  }
  identity_.d = v;
  identityLiteral_ = fmt::format("{:.17e}", v);
}

cfun::Scalar ScalarOperator::combine(cfun::Scalar a, cfun::Scalar b) const {
  LIFT_ASSERT(function_, "ScalarOperator: no function");
  cfun::Scalar args[2] = {a, b};
  cfun::Scalar result{};
  cfun::evaluate(*function_->body, args, std::span<cfun::Scalar>(&result, 1));
  return result;
}

void ScalarOperator::fillWithIdentity(const cl::CommandQueue& queue, const cl::Buffer& buffer, size_t from,
                                      size_t bytes) const {
  if (bytes == 0) return;
  cl::CommandQueue q = queue;
  switch (type_) {
    case runtime::ScalarType::Float:
      q.enqueueFillBuffer(buffer, identity_.f, from, bytes);
      break;
    case runtime::ScalarType::Double:
      q.enqueueFillBuffer(buffer, identity_.d, from, bytes);
      break;
    case runtime::ScalarType::Int:
      q.enqueueFillBuffer(buffer, identity_.i, from, bytes);
      break;
  }
}

}  // namespace lift::skelcl
