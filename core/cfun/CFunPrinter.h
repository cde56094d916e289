// Emits user functions as OpenCL C: `float add(float acc, float x) { return acc + x; }`.
// Implicit conversions stay implicit and literals keep their spelling, so the output reads
// like the input; tuple types become Lift's structs (`Tuple2_float_int` with fields `_0`, `_1`).
#pragma once

#include <string>
#include <vector>

#include "core/cfun/CFunAst.h"

namespace lift::cfun {

struct PrintOptions {
  // `a + b * c` on floating-point values printed as `fma(b, c, a)`: one rounding, and the
  // multiply-add instruction whatever the OpenCL compiler's contraction rules (CompileOptions).
  bool fusedMultiplyAdd = false;
};

// The whole function definition. A body that is a single return statement stays on one line.
std::string printFunction(const std::string& name, const Body& body, const PrintOptions& options = {});
// The function's signature: "float add(float acc, float x)".
std::string printSignature(const std::string& name, const Body& body);
// The statements between the braces, each line indented by `indent` spaces, lines separated
// by '\n' (no trailing newline).
std::string printStatements(const Body& body, int indent = 2, const PrintOptions& options = {});
// One expression in C syntax with minimal parentheses.
std::string printExpr(const Body& body, const Expr& e);

// `typedef struct { float _0; int _1; } Tuple2_float_int;`
std::string tupleStructDefinition(Type tuple);
// Every tuple type in the signature and body, components before the tuples containing them
// (the order their struct definitions must appear in).
std::vector<Type> tupleTypesUsed(const Body& body);

}  // namespace lift::cfun
