// The types of the program's values as the code generator meets them. The type checker has
// already accepted the program; code generation re-derives types per use because the same
// function is generated under different argument types (iterate's body sees an array whose
// length is a loop variable), and because views carry the types of what they describe. Each
// pattern is typed by its rule in core/ir/PatternTypeRules, the type checker's.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

// The type of a free parameter (a binder outside the expression being typed).
using ParamTypes = std::function<Type(const ir::ParamNode*)>;

Type typeOf(const ir::Expr& e, const ParamTypes& params);

// t with every array length substituted (loop variables by their bounds, say).
Type substituteLengths(Type t, const std::map<arith::Expr, arith::Expr, std::less<>>& replacement);
Type typeOfApply(const ir::Fun& f, const std::vector<Type>& args, const ParamTypes& params);

}  // namespace lift::codegen
