// The OpenCL C built-in functions that user-function bodies may call: how each is typed and
// how it is computed. Float functions compute in the precision of their type (float in
// float, double in double), lane by lane for vectors, as the OpenCL device would.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cfun/CFunAst.h"

namespace lift::cfun {

// clang-format off
enum class BuiltinFn : uint8_t {
  // genfloat f(genfloat)
  Sqrt, Rsqrt, Cbrt, Exp, Exp2, Exp10, Expm1, Log, Log2, Log10, Log1p, Fabs, Sin, Cos, Tan,
  Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Erf, Erfc, Tgamma, Lgamma, Floor,
  Ceil, Round, Trunc, Rint, Sign, Radians, Degrees, Recip,
  // genfloat f(genfloat, genfloat)
  Pow, Powr, Fmin, Fmax, Fmod, Atan2, Hypot, Copysign, Fdim, Step, Divide,
  // genfloat f(genfloat, genfloat, genfloat)
  Mad, Fma, Mix, Smoothstep,
  // genfloat f(genfloat, int)
  Pown, Ldexp, Rootn,
  // gentype (int or float)
  Abs, Min, Max, Clamp,
  // int / intN predicates
  Isnan, Isinf, Isfinite, Signbit,
  // geometric
  Dot, Length, Distance, Normalize, Cross,
};
// clang-format on

struct BuiltinFunction {
  enum class Sig : uint8_t { Float1, Float2, Float3, FloatInt, Gen1, Gen2, Gen3, Predicate, Geometric };
  std::string_view name;  // as written in OpenCL C ("native_sqrt" maps to Sqrt, keeping its name)
  BuiltinFn fn;
  Sig sig;
  int arity;
};

// The built-in called `name`, or null.
const BuiltinFunction* findBuiltin(std::string_view name);
// Every built-in name, sorted (for "did you mean" messages and documentation).
std::vector<std::string_view> builtinNames();

// Types a call: given the argument types, returns the parameter types the arguments must be
// converted to and the result type, or an error message.
struct BuiltinTyping {
  std::vector<Type> params;
  Type result;
  std::string error;  // non-empty when the call is ill-typed
};
BuiltinTyping typeBuiltin(const BuiltinFunction& b, std::span<const Type> argTypes);

// Computes a call whose arguments have already been converted to `paramTypes`.
void evalBuiltin(const BuiltinFunction& b, std::span<const Type> paramTypes, Type result,
                 std::span<const Scalar* const> args, Scalar* out);

}  // namespace lift::cfun
