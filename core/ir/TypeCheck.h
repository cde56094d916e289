// The type checker: infers the type of every expression of a program from the declared types
// of its inputs, each pattern by its rule in PatternTypeRules.h (docs/LANGUAGE.md lists them),
// and checks the side conditions (divisibility for split and asVector, the OpenCL nesting of
// mapWrg and mapLcl, ...). Lambda parameters take the types of the arguments at their (single) use. Errors
// are LiftErrors located at the offending node.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/IR.h"

namespace lift::ir {

// The type of a function declaration where it is used: argument types and result.
struct FunType {
  std::vector<Type> inputs;
  Type output;
};

struct TypeInfo {
  // Every expression node reached: parameters (binders), literals, calls.
  std::unordered_map<const ExprNode*, Type> exprTypes;
  // Every function declaration reached, at its first application.
  std::unordered_map<const FunNode*, FunType> funTypes;
  // For calls of iterate with a constant count n: the n+1 types flowing between the iterations
  // (the input, after one iteration, ..., the result). The nodes of the iterated function are
  // typed (exprTypes) for the first iteration.
  std::unordered_map<const ExprNode*, std::vector<Type>> iterations;
  std::vector<Type> paramTypes;  // the program's inputs (or the checked function's arguments)
  Type resultType;

  // The null Type where the node was not reached.
  Type typeOf(const Expr& e) const { return typeOf(e.get()); }
  Type typeOf(const ExprNode* e) const;
  const FunType* funTypeOf(const Fun& f) const;
  // "([[float]K]M, [[float]N]K) -> [[float]N]M"
  std::string signature() const;
};

struct TypeCheckOptions {
  // Enforce the OpenCL nesting rules (mapLcl inside mapWrg, no mapWrg inside mapWrg of the same
  // dimension, ...). Turn off to check a fragment taken out of its context.
  bool checkParallelNesting = true;
};

// Type-checks a whole program. Throws LiftError at the first error.
TypeInfo typeCheck(const Program& p, const TypeCheckOptions& opts = {});
// Type-checks function f applied to arguments of the given types. `context`, if given, supplies
// source locations for the error messages.
TypeInfo typeCheck(const Fun& f, const std::vector<Type>& argTypes, const TypeCheckOptions& opts = {},
                   const Program* context = nullptr);

// Where parameter i of a lambda or user function takes its value from: argument `arg`, or, when
// `component` >= 0, that component of the tuple passed as argument `arg`.
struct ArgSource {
  int arg = 0;
  int component = -1;
  friend bool operator==(const ArgSource&, const ArgSource&) = default;
};
// Binds the arguments of a call to the parameters of a lambda or user function. Normally one
// argument per parameter; a call with fewer arguments than parameters flattens its tuple
// arguments by one level, so mult(x, y) can be mapped over zip(a, b) and multAndSumUp(acc, x, y)
// can reduce an array of pairs: f(acc, (x, y)) binds as f(acc, x, y). nullopt when it does not fit.
std::optional<std::vector<ArgSource>> bindArguments(std::span<const Type> argTypes, size_t paramCount);

// The type of a literal's text on its own ("1.5f" float, "2.0" double, "3" int, "true" bool),
// or the null type if the text is not a scalar literal.
Type scalarLiteralType(const std::string& text);

}  // namespace lift::ir
