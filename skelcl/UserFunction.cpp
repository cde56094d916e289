// Reading SkelCL's function source text: "RET NAME(T1 a, T2 b) { BODY }".
#include "skelcl/UserFunction.h"

#include <fmt/format.h>

#include <cctype>
#include <sstream>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace

std::string UserFunction::liftText() const {
  std::string params;
  for (size_t i = 0; i < paramTypes.size(); ++i)
    params += fmt::format("{}{} {}", i ? ", " : "", paramTypes[i], paramNames[i]);
  return fmt::format("userfun {}({}) -> {} {{{}}}", name, params, returnType, body);
}

UserFunction parseUserFunction(const std::string& source, const std::string& skeleton,
                               const std::string& returnType, const std::vector<std::string>& paramTypes) {
  std::string expected;
  for (size_t i = 0; i < paramTypes.size(); ++i)
    expected += fmt::format("{}{} x{}", i ? ", " : "", paramTypes[i], i);
  auto fail = [&](const std::string& why) -> UserFunction {
    throw LiftError(fmt::format("{}: {} in the function \"{}\"; expected \"{} NAME({}) {{ ... }}\"", skeleton,
                                why, trim(source), returnType, expected));
  };
  const size_t open = source.find('('), close = source.find(')');
  const size_t lbrace = source.find('{'), rbrace = source.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return fail("no parameter list");
  if (lbrace == std::string::npos || rbrace == std::string::npos || lbrace < close || rbrace < lbrace)
    return fail("no body in braces");
  if (!trim(source.substr(rbrace + 1)).empty()) return fail("text after the body");
  if (!trim(source.substr(close + 1, lbrace - close - 1)).empty()) return fail("text before the body");

  UserFunction f;
  std::vector<std::string> head = words(source.substr(0, open));
  if (head.size() != 2) return fail("no return type and name");
  f.returnType = head[0];
  f.name = head[1];
  std::string params = trim(source.substr(open + 1, close - open - 1));
  if (!params.empty()) {
    std::istringstream in(params);
    for (std::string p; std::getline(in, p, ',');) {
      std::vector<std::string> w = words(p);
      if (w.size() != 2) return fail(fmt::format("the parameter \"{}\" is not TYPE NAME", trim(p)));
      f.paramTypes.push_back(w[0]);
      f.paramNames.push_back(w[1]);
    }
  }
  f.body = source.substr(lbrace + 1, rbrace - lbrace - 1);

  if (f.returnType != returnType)
    return fail(fmt::format("the return type is {}, the skeleton's is {}", f.returnType, returnType));
  if (f.paramTypes.size() != paramTypes.size())
    return fail(fmt::format("{} parameter{}, the skeleton passes {}", f.paramTypes.size(),
                            f.paramTypes.size() == 1 ? "" : "s", paramTypes.size()));
  for (size_t i = 0; i < paramTypes.size(); ++i)
    if (f.paramTypes[i] != paramTypes[i])
      return fail(fmt::format("parameter {} ({}) is {}, the skeleton passes {}", i + 1, f.paramNames[i],
                              f.paramTypes[i], paramTypes[i]));
  return f;
}

}  // namespace lift::skelcl
