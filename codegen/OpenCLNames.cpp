// The reserved names of OpenCL C 1.2 that can clash with names from a program.
#include "codegen/OpenCLNames.h"

#include <fmt/format.h>

#include <unordered_set>

namespace lift::codegen {

namespace {

// clang-format off
const char* const kReserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "bool", "true", "false", "half", "uchar", "ushort", "uint", "ulong", "size_t",
    "ptrdiff_t", "intptr_t", "uintptr_t", "kernel", "__kernel", "global", "__global", "local", "__local",
    "private", "__private", "constant", "__constant", "read_only", "write_only", "read_write", "image2d_t",
    "image3d_t", "sampler_t", "event_t", "complex", "imaginary", "attribute", "__attribute__",
    "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_local_id", "get_num_groups",
    "get_group_id", "get_global_offset", "barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "acos", "acosh", "acospi", "asin", "asinh", "asinpi",
    "atan", "atan2", "atanh", "atanpi", "atan2pi", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi",
    "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod",
    "fract", "frexp", "hypot", "ilogb", "ldexp", "lgamma", "log", "log2", "log10", "log1p", "logb", "mad",
    "maxmag", "minmag", "modf", "nan", "nextafter", "pow", "pown", "powr", "remainder", "remquo", "rint",
    "rootn", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma",
    "trunc", "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "mad_hi", "mad_sat", "max",
    "min", "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24", "degrees", "radians",
    "mix", "step", "smoothstep", "sign", "cross", "dot", "distance", "length", "normalize", "fast_distance",
    "fast_length", "fast_normalize", "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered",
    "signbit", "any", "all", "bitselect", "select", "shuffle", "shuffle2", "printf", "vec_step",
    "native_sin", "native_cos", "native_exp", "native_log", "native_sqrt", "native_rsqrt", "native_divide",
    "native_recip", "native_powr", "native_tan", "half_sin", "half_cos", "half_exp", "half_log",
    "half_sqrt", "vload2", "vload3", "vload4", "vload8", "vload16", "vstore2", "vstore3", "vstore4",
    "vstore8", "vstore16", "async_work_group_copy", "wait_group_events", "prefetch", "atomic_add",
    "atomic_sub", "atomic_xchg", "atomic_inc", "atomic_dec", "atomic_cmpxchg", "atomic_min", "atomic_max",
    "atomic_and", "atomic_or", "atomic_xor", "convert_int", "convert_float", "as_int", "as_float", "main",
};
// clang-format on

}  // namespace

bool isReservedOpenCLName(const std::string& name) {
  static const std::unordered_set<std::string> names = [] {
    std::unordered_set<std::string> s(std::begin(kReserved), std::end(kReserved));
    for (const char* t : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float",
                          "double", "half", "bool"})
      for (int w : {2, 3, 4, 8, 16}) s.insert(fmt::format("{}{}", t, w));
    return s;
  }();
  if (names.count(name)) return true;
  // Names the generator uses for its own structs and conversions.
  return name.rfind("Tuple", 0) == 0 || name.rfind("convert_", 0) == 0 || name.rfind("as_", 0) == 0;
}

}  // namespace lift::codegen
