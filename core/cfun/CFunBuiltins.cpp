// OpenCL C built-in functions for user-function bodies: the name table, typing and evaluation.
#include "core/cfun/CFunBuiltins.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace lift::cfun {

namespace {

using Sig = BuiltinFunction::Sig;
using Fn = BuiltinFn;

// (name, function, signature, arity). `native_` and `half_` spellings are added below.
const BuiltinFunction kTable[] = {
    {"sqrt", Fn::Sqrt, Sig::Float1, 1},
    {"rsqrt", Fn::Rsqrt, Sig::Float1, 1},
    {"cbrt", Fn::Cbrt, Sig::Float1, 1},
    {"exp", Fn::Exp, Sig::Float1, 1},
    {"exp2", Fn::Exp2, Sig::Float1, 1},
    {"exp10", Fn::Exp10, Sig::Float1, 1},
    {"expm1", Fn::Expm1, Sig::Float1, 1},
    {"log", Fn::Log, Sig::Float1, 1},
    {"log2", Fn::Log2, Sig::Float1, 1},
    {"log10", Fn::Log10, Sig::Float1, 1},
    {"log1p", Fn::Log1p, Sig::Float1, 1},
    {"fabs", Fn::Fabs, Sig::Float1, 1},
    {"sin", Fn::Sin, Sig::Float1, 1},
    {"cos", Fn::Cos, Sig::Float1, 1},
    {"tan", Fn::Tan, Sig::Float1, 1},
    {"asin", Fn::Asin, Sig::Float1, 1},
    {"acos", Fn::Acos, Sig::Float1, 1},
    {"atan", Fn::Atan, Sig::Float1, 1},
    {"sinh", Fn::Sinh, Sig::Float1, 1},
    {"cosh", Fn::Cosh, Sig::Float1, 1},
    {"tanh", Fn::Tanh, Sig::Float1, 1},
    {"asinh", Fn::Asinh, Sig::Float1, 1},
    {"acosh", Fn::Acosh, Sig::Float1, 1},
    {"atanh", Fn::Atanh, Sig::Float1, 1},
    {"erf", Fn::Erf, Sig::Float1, 1},
    {"erfc", Fn::Erfc, Sig::Float1, 1},
    {"tgamma", Fn::Tgamma, Sig::Float1, 1},
    {"lgamma", Fn::Lgamma, Sig::Float1, 1},
    {"floor", Fn::Floor, Sig::Float1, 1},
    {"ceil", Fn::Ceil, Sig::Float1, 1},
    {"round", Fn::Round, Sig::Float1, 1},
    {"trunc", Fn::Trunc, Sig::Float1, 1},
    {"rint", Fn::Rint, Sig::Float1, 1},
    {"sign", Fn::Sign, Sig::Float1, 1},
    {"radians", Fn::Radians, Sig::Float1, 1},
    {"degrees", Fn::Degrees, Sig::Float1, 1},
    {"pow", Fn::Pow, Sig::Float2, 2},
    {"powr", Fn::Powr, Sig::Float2, 2},
    {"fmin", Fn::Fmin, Sig::Float2, 2},
    {"fmax", Fn::Fmax, Sig::Float2, 2},
    {"fmod", Fn::Fmod, Sig::Float2, 2},
    {"atan2", Fn::Atan2, Sig::Float2, 2},
    {"hypot", Fn::Hypot, Sig::Float2, 2},
    {"copysign", Fn::Copysign, Sig::Float2, 2},
    {"fdim", Fn::Fdim, Sig::Float2, 2},
    {"step", Fn::Step, Sig::Float2, 2},
    {"mad", Fn::Mad, Sig::Float3, 3},
    {"fma", Fn::Fma, Sig::Float3, 3},
    {"mix", Fn::Mix, Sig::Float3, 3},
    {"smoothstep", Fn::Smoothstep, Sig::Float3, 3},
    {"pown", Fn::Pown, Sig::FloatInt, 2},
    {"ldexp", Fn::Ldexp, Sig::FloatInt, 2},
    {"rootn", Fn::Rootn, Sig::FloatInt, 2},
    {"abs", Fn::Abs, Sig::Gen1, 1},
    {"min", Fn::Min, Sig::Gen2, 2},
    {"max", Fn::Max, Sig::Gen2, 2},
    {"clamp", Fn::Clamp, Sig::Gen3, 3},
    {"isnan", Fn::Isnan, Sig::Predicate, 1},
    {"isinf", Fn::Isinf, Sig::Predicate, 1},
    {"isfinite", Fn::Isfinite, Sig::Predicate, 1},
    {"signbit", Fn::Signbit, Sig::Predicate, 1},
    {"dot", Fn::Dot, Sig::Geometric, 2},
    {"length", Fn::Length, Sig::Geometric, 1},
    {"distance", Fn::Distance, Sig::Geometric, 2},
    {"normalize", Fn::Normalize, Sig::Geometric, 1},
    {"cross", Fn::Cross, Sig::Geometric, 2},
};

// Functions with fast, less precise `native_` / `half_` variants; the interpreter computes
// them exactly (a result within the variants' error bounds).
const BuiltinFunction kNative[] = {
    {"native_sqrt", Fn::Sqrt, Sig::Float1, 1},     {"native_rsqrt", Fn::Rsqrt, Sig::Float1, 1},
    {"native_exp", Fn::Exp, Sig::Float1, 1},       {"native_exp2", Fn::Exp2, Sig::Float1, 1},
    {"native_exp10", Fn::Exp10, Sig::Float1, 1},   {"native_log", Fn::Log, Sig::Float1, 1},
    {"native_log2", Fn::Log2, Sig::Float1, 1},     {"native_log10", Fn::Log10, Sig::Float1, 1},
    {"native_sin", Fn::Sin, Sig::Float1, 1},       {"native_cos", Fn::Cos, Sig::Float1, 1},
    {"native_tan", Fn::Tan, Sig::Float1, 1},       {"native_recip", Fn::Recip, Sig::Float1, 1},
    {"native_divide", Fn::Divide, Sig::Float2, 2}, {"native_powr", Fn::Powr, Sig::Float2, 2},
    {"half_sqrt", Fn::Sqrt, Sig::Float1, 1},       {"half_rsqrt", Fn::Rsqrt, Sig::Float1, 1},
    {"half_exp", Fn::Exp, Sig::Float1, 1},         {"half_log", Fn::Log, Sig::Float1, 1},
    {"half_sin", Fn::Sin, Sig::Float1, 1},         {"half_cos", Fn::Cos, Sig::Float1, 1},
    {"half_recip", Fn::Recip, Sig::Float1, 1},     {"half_divide", Fn::Divide, Sig::Float2, 2},
};

const std::unordered_map<std::string_view, const BuiltinFunction*>& byName() {
  static const auto table = [] {
    std::unordered_map<std::string_view, const BuiltinFunction*> m;
    for (auto& b : kTable) m.emplace(b.name, &b);
    for (auto& b : kNative) m.emplace(b.name, &b);
    return m;
  }();
  return table;
}

bool isFloating(ScalarKind k) { return k == ScalarKind::Float || k == ScalarKind::Double; }

// Width of a scalar (1) or vector type; 0 for anything else.
int widthOf(Type t) {
  if (t.isScalar()) return 1;
  if (t.isVector()) return t.vectorWidth();
  return 0;
}

Type withWidth(ScalarKind k, int w) { return w == 1 ? Type::scalar(k) : Type::vector(k, w); }

// The common lane count of the arguments (scalars broadcast), or 0 if two vectors disagree or
// an argument is not a scalar or vector.
int commonWidth(std::span<const Type> args) {
  int w = 1;
  for (Type t : args) {
    int aw = widthOf(t);
    if (aw == 0) return 0;
    if (aw == 1) continue;
    if (w != 1 && w != aw) return 0;
    w = aw;
  }
  return w;
}

std::string listTypes(std::span<const Type> args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + cTypeName(args[i]);
  return s;
}

// ----- lane functions --------------------------------------------------------------------

template <class T>
T lane1(Fn fn, T x) {
  constexpr T pi = T(3.14159265358979323846);
  switch (fn) {
    case Fn::Sqrt:
      return std::sqrt(x);
    case Fn::Rsqrt:
      return T(1) / std::sqrt(x);
    case Fn::Cbrt:
      return std::cbrt(x);
    case Fn::Exp:
      return std::exp(x);
    case Fn::Exp2:
      return std::exp2(x);
    case Fn::Exp10:
      return std::pow(T(10), x);
    case Fn::Expm1:
      return std::expm1(x);
    case Fn::Log:
      return std::log(x);
    case Fn::Log2:
      return std::log2(x);
    case Fn::Log10:
      return std::log10(x);
    case Fn::Log1p:
      return std::log1p(x);
    case Fn::Fabs:
      return std::fabs(x);
    case Fn::Sin:
      return std::sin(x);
    case Fn::Cos:
      return std::cos(x);
    case Fn::Tan:
      return std::tan(x);
    case Fn::Asin:
      return std::asin(x);
    case Fn::Acos:
      return std::acos(x);
    case Fn::Atan:
      return std::atan(x);
    case Fn::Sinh:
      return std::sinh(x);
    case Fn::Cosh:
      return std::cosh(x);
    case Fn::Tanh:
      return std::tanh(x);
    case Fn::Asinh:
      return std::asinh(x);
    case Fn::Acosh:
      return std::acosh(x);
    case Fn::Atanh:
      return std::atanh(x);
    case Fn::Erf:
      return std::erf(x);
    case Fn::Erfc:
      return std::erfc(x);
    case Fn::Tgamma:
      return std::tgamma(x);
    case Fn::Lgamma:
      return std::lgamma(x);
    case Fn::Floor:
      return std::floor(x);
    case Fn::Ceil:
      return std::ceil(x);
    case Fn::Round:
      return std::round(x);
    case Fn::Trunc:
      return std::trunc(x);
    case Fn::Rint:
      return std::nearbyint(x);
    case Fn::Sign:
      if (std::isnan(x)) return T(0);
      return x > 0 ? T(1) : x < 0 ? T(-1) : x;  // keeps the sign of a zero
    case Fn::Radians:
      return x * (pi / T(180));
    case Fn::Degrees:
      return x * (T(180) / pi);
    case Fn::Recip:
      return T(1) / x;
    default:
      break;
  }
  LIFT_ASSERT(false, "not a unary float built-in");
}

template <class T>
T lane2(Fn fn, T x, T y) {
  switch (fn) {
    case Fn::Pow:
    case Fn::Powr:
      return std::pow(x, y);
    case Fn::Fmin:
      return std::fmin(x, y);
    case Fn::Fmax:
      return std::fmax(x, y);
    case Fn::Fmod:
      return std::fmod(x, y);
    case Fn::Atan2:
      return std::atan2(x, y);
    case Fn::Hypot:
      return std::hypot(x, y);
    case Fn::Copysign:
      return std::copysign(x, y);
    case Fn::Fdim:
      return x > y ? x - y : T(0);
    case Fn::Step:
      return y < x ? T(0) : T(1);
    case Fn::Divide:
      return x / y;
    case Fn::Min:
      return y < x ? y : x;  // OpenCL's definition of min for floats
    case Fn::Max:
      return x < y ? y : x;
    default:
      break;
  }
  LIFT_ASSERT(false, "not a binary float built-in");
}

template <class T>
T lane3(Fn fn, T a, T b, T c) {
  switch (fn) {
    case Fn::Mad:
      return a * b + c;
    case Fn::Fma:
      return std::fma(a, b, c);
    case Fn::Mix:
      return a + (b - a) * c;
    case Fn::Smoothstep: {
      T t = std::fmin(std::fmax((c - a) / (b - a), T(0)), T(1));
      return t * t * (T(3) - T(2) * t);
    }
    case Fn::Clamp:
      return std::fmin(std::fmax(a, b), c);
    default:
      break;
  }
  LIFT_ASSERT(false, "not a ternary float built-in");
}

template <class T>
T laneInt(Fn fn, T x, int32_t n) {
  switch (fn) {
    case Fn::Pown:
      return std::pow(x, T(n));
    case Fn::Ldexp:
      return std::ldexp(x, n);
    case Fn::Rootn:
      return std::pow(x, T(1) / T(n));
    default:
      break;
  }
  LIFT_ASSERT(false, "not a (float, int) built-in");
}

int32_t intLane(Fn fn, int32_t a, int32_t b, int32_t c) {
  switch (fn) {
    case Fn::Abs:
      return a < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a;
    case Fn::Min:
      return std::min(a, b);
    case Fn::Max:
      return std::max(a, b);
    case Fn::Clamp:
      return std::min(std::max(a, b), c);
    default:
      break;
  }
  LIFT_ASSERT(false, "not an integer built-in");
}

template <class T>
T get(const Scalar& s);
template <>
float get<float>(const Scalar& s) {
  return s.f;
}
template <>
double get<double>(const Scalar& s) {
  return s.d;
}
void put(Scalar& s, float v) { s.f = v; }
void put(Scalar& s, double v) { s.d = v; }

template <class T>
void evalFloat(const BuiltinFunction& b, std::span<const Type> params, Type result,
               std::span<const Scalar* const> args, Scalar* out) {
  int w = widthOf(params[0]);
  switch (b.sig) {
    case Sig::Float1:
      for (int j = 0; j < w; ++j) put(out[j], lane1<T>(b.fn, get<T>(args[0][j])));
      return;
    case Sig::Float2:
    case Sig::Gen2:
      for (int j = 0; j < w; ++j) put(out[j], lane2<T>(b.fn, get<T>(args[0][j]), get<T>(args[1][j])));
      return;
    case Sig::Float3:
    case Sig::Gen3:
      for (int j = 0; j < w; ++j)
        put(out[j], lane3<T>(b.fn, get<T>(args[0][j]), get<T>(args[1][j]), get<T>(args[2][j])));
      return;
    case Sig::Gen1:
      for (int j = 0; j < w; ++j) put(out[j], std::fabs(get<T>(args[0][j])));
      return;
    case Sig::FloatInt:
      for (int j = 0; j < w; ++j) put(out[j], laneInt<T>(b.fn, get<T>(args[0][j]), args[1][j].i));
      return;
    case Sig::Predicate: {
      for (int j = 0; j < w; ++j) {
        T x = get<T>(args[0][j]);
        bool r = b.fn == Fn::Isnan      ? std::isnan(x)
                 : b.fn == Fn::Isinf    ? std::isinf(x)
                 : b.fn == Fn::Isfinite ? std::isfinite(x)
                                        : std::signbit(x);
        out[j].i = r ? (w == 1 ? 1 : -1) : 0;  // vector relational results are -1 / 0
      }
      return;
    }
    case Sig::Geometric: {
      auto dot = [&](const Scalar* x, const Scalar* y) {
        T s = 0;
        for (int j = 0; j < w; ++j) s += get<T>(x[j]) * get<T>(y[j]);
        return s;
      };
      switch (b.fn) {
        case Fn::Dot:
          put(out[0], dot(args[0], args[1]));
          return;
        case Fn::Length:
          put(out[0], std::sqrt(dot(args[0], args[0])));
          return;
        case Fn::Distance: {
          T s = 0;
          for (int j = 0; j < w; ++j) {
            T d = get<T>(args[0][j]) - get<T>(args[1][j]);
            s += d * d;
          }
          put(out[0], std::sqrt(s));
          return;
        }
        case Fn::Normalize: {
          T len = std::sqrt(dot(args[0], args[0]));
          for (int j = 0; j < w; ++j)
            put(out[j], len == T(0) ? get<T>(args[0][j]) : get<T>(args[0][j]) / len);
          return;
        }
        case Fn::Cross: {
          auto c = [&](int v, int j) { return get<T>(args[v][j]); };
          put(out[0], c(0, 1) * c(1, 2) - c(0, 2) * c(1, 1));
          put(out[1], c(0, 2) * c(1, 0) - c(0, 0) * c(1, 2));
          put(out[2], c(0, 0) * c(1, 1) - c(0, 1) * c(1, 0));
          if (widthOf(result) == 4) put(out[3], T(0));
          return;
        }
        default:
          break;
      }
      break;
    }
  }
  LIFT_ASSERT(false, fmt::format("cannot evaluate built-in {}", b.name));
}

}  // namespace

const BuiltinFunction* findBuiltin(std::string_view name) {
  auto it = byName().find(name);
  return it == byName().end() ? nullptr : it->second;
}

std::vector<std::string_view> builtinNames() {
  std::vector<std::string_view> names;
  for (auto& [n, b] : byName()) names.push_back(n);
  std::sort(names.begin(), names.end());
  return names;
}

BuiltinTyping typeBuiltin(const BuiltinFunction& b, std::span<const Type> args) {
  BuiltinTyping r;
  if (static_cast<int>(args.size()) != b.arity) {
    r.error =
        fmt::format("{} takes {} argument{}, not {}", b.name, b.arity, b.arity == 1 ? "" : "s", args.size());
    return r;
  }
  int w = commonWidth(args);
  if (w == 0) {
    r.error = fmt::format("no version of {} takes ({})", b.name, listTypes(args));
    return r;
  }
  bool anyDouble = false, allIntegral = true;
  for (Type t : args) {
    anyDouble |= t.scalarKind() == ScalarKind::Double;
    allIntegral &= !isFloating(t.scalarKind());
  }
  ScalarKind fk = anyDouble ? ScalarKind::Double : ScalarKind::Float;
  Type floatT = withWidth(fk, w);
  // OpenCL C rejects these calls (no overload, or an ambiguous one): so does the checker, so
  // that what the interpreter accepts also compiles on the device.
  bool floatOnly = b.sig == Sig::Float1 || b.sig == Sig::Float2 || b.sig == Sig::Float3 ||
                   b.sig == Sig::Predicate || b.sig == Sig::Geometric || b.sig == Sig::FloatInt;
  if (floatOnly && !isFloating(args[0].scalarKind()) && (allIntegral || b.sig == Sig::FloatInt)) {
    r.error = fmt::format("{} needs a floating-point argument, not ({}); write e.g. 2.0f or (float)i", b.name,
                          listTypes(args));
    return r;
  }
  if (b.sig == Sig::Gen1 && !allIntegral) {
    r.error =
        fmt::format("abs takes integers, not ({}); use fabs for floating-point values", listTypes(args));
    return r;
  }
  switch (b.sig) {
    case Sig::Float1:
    case Sig::Float2:
    case Sig::Float3:
      r.params.assign(args.size(), floatT);
      r.result = floatT;
      return r;
    case Sig::FloatInt: {
      // The exponent is an int (intN for vector pown/rootn); ldexp also takes a scalar int.
      ScalarKind k0 = args[0].scalarKind();
      int w0 = widthOf(args[0]);
      if (isFloating(args[1].scalarKind())) {
        r.error = fmt::format("the second argument of {} must be an int, not {}", b.name, cTypeName(args[1]));
        return r;
      }
      r.params = {withWidth(k0, w0), withWidth(ScalarKind::Int, w0)};
      r.result = r.params[0];
      return r;
    }
    case Sig::Gen1:
    case Sig::Gen2:
    case Sig::Gen3: {
      Type t = allIntegral ? withWidth(ScalarKind::Int, w) : floatT;
      r.params.assign(args.size(), t);
      r.result = t;
      return r;
    }
    case Sig::Predicate:
      r.params = {floatT};
      r.result = withWidth(ScalarKind::Int, w);
      return r;
    case Sig::Geometric:
      if (b.fn == Fn::Cross && w != 3 && w != 4) {
        r.error = fmt::format("cross takes float3 or float4 vectors, not ({})", listTypes(args));
        return r;
      }
      r.params.assign(args.size(), floatT);
      r.result = (b.fn == Fn::Normalize || b.fn == Fn::Cross) ? floatT : Type::scalar(fk);
      return r;
  }
  r.error = "unknown built-in";
  return r;
}

void evalBuiltin(const BuiltinFunction& b, std::span<const Type> params, Type result,
                 std::span<const Scalar* const> args, Scalar* out) {
  ScalarKind k = params[0].scalarKind();
  if (k == ScalarKind::Int) {
    int w = widthOf(params[0]);
    for (int j = 0; j < w; ++j) {
      int32_t a = args[0][j].i;
      int32_t x = args.size() > 1 ? args[1][j].i : 0;
      int32_t y = args.size() > 2 ? args[2][j].i : 0;
      out[j].i = intLane(b.fn, a, x, y);
    }
    return;
  }
  if (k == ScalarKind::Double)
    evalFloat<double>(b, params, result, args, out);
  else
    evalFloat<float>(b, params, result, args, out);
}

}  // namespace lift::cfun
