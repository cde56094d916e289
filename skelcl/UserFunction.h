// UserFunction: a skeleton's customising function as SkelCL takes it, C source text such as
// "float func(float x, float y) { return x * y; }", checked against the skeleton's signature and
// turned into a user function of the .lift language (docs/LANGUAGE.md), whose body is the C
// subset of core/cfun.
#pragma once

#include <string>
#include <vector>

namespace lift::skelcl {

struct UserFunction {
  std::string name;
  std::string returnType;
  std::vector<std::string> paramTypes;
  std::vector<std::string> paramNames;
  std::string body;  // between the outer braces

  // `userfun NAME(T a, ...) -> R { body }`.
  std::string liftText() const;
};

// Parses `source` and checks that it takes `paramTypes` and returns `returnType` (OpenCL type
// names). `skeleton` names the skeleton in messages ("Map<float(float)>"). Throws LiftError.
UserFunction parseUserFunction(const std::string& source, const std::string& skeleton,
                               const std::string& returnType, const std::vector<std::string>& paramTypes);

}  // namespace lift::skelcl
