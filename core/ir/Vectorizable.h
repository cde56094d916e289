// Which user functions apply to OpenCL vectors as they are: a body that is one arithmetic
// expression over scalar parameters of the result's type, made of operators and built-ins that
// OpenCL defines lane by lane (`x * y + z`, `fmax(x, 0.0f)`). The rule that vectorises a map
// across its iterations (vectorize-lanes) and the code generator's vector versions of user
// functions (vectorize(n, f), codegen/Vectorization.h) ask this same question.
#pragma once

#include "core/ir/IR.h"

namespace lift::ir {

bool canVectorize(const UserFunDef& f);

}  // namespace lift::ir
