// The bodies of user functions: a small C subset (declarations, assignments, arithmetic,
// comparisons, ?:, if/else, for loops, OpenCL math built-ins, vector components, return),
// parsed once, executed by the interpreter and emitted by the code generator.
//
// The subset, as OpenCL C defines it:
//   types        int, float, double, bool; vectors float2/3/4/8/16, double.., int..; tuples,
//                spelled as Lift's structs Tuple2_float_int (nested: Tuple2_float_Tuple2_int_int),
//                or `Tuple` for the one tuple type of the signature
//   statements   declarations with optional initialisers (`float t = x * y, u;`, `const`),
//                assignments = += -= *= /= %= <<= >>= &= |= ^=, ++ and --, if/else, for,
//                while, break, continue, return, blocks, calls as statements
//   expressions  + - * / % << >> & | ^ ~ ! && || < <= > >= == != ?: casts `(float)i`,
//                literals 1, 0x1F, 1.5f (float), 1.5 (double), true; parentheses
//   vectors      components v.x .. v.w, v.s0 .. v.sF, swizzles v.xy / v.s01 (also assignable),
//                v.lo .hi .even .odd; literals (float4)(a, b, c, d), (float4)(v2, a, b),
//                (float4)(x); arithmetic lane by lane with scalars broadcast; comparisons
//                give intN with -1 for true; convert_int4(v)
//   tuples       fields t._0, t._1 (also assignable); (Tuple2_float_int){a, i}; `= {a, i}`
//   built-ins    see core/cfun/CFunBuiltins.h: sqrt rsqrt exp log pow fabs fmin fmax mad fma
//                clamp min max floor ceil round sin cos tan erf dot length normalize cross ...
// Semantics: float computes in 32 bits, double in 64; int is 32-bit and wraps; shifts use
// the count modulo 32; C's implicit conversions apply (they are explicit nodes in the AST).
// Errors are LiftErrors at their position in the .lift file: syntax, unknown names (with a
// suggestion), type mismatches, a path without return; at run time, integer division by zero
// and loops exceeding a step limit (cfun::EvalLimits).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/support/Diagnostic.h"
#include "core/types/Type.h"

namespace lift::cfun {

struct Body;  // defined in core/cfun/CFunAst.h

// Parses `text` (what stands between the braces of a user function). `line`/`col` give the
// position of the text's first character in `file`, so that errors point into the .lift
// file. Checks names and types against the parameters and return type. Throws LiftError.
std::shared_ptr<const Body> parseBody(const std::string& text,
                                      const std::vector<std::pair<std::string, Type>>& params,
                                      Type returnType, const std::string& file, int line, int col);

}  // namespace lift::cfun
