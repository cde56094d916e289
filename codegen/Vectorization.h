// Vectorised user functions (CASES 2016, section 5.2): vectorize(n, f) applies f to vectors of
// width n. When f's body is one arithmetic expression over its parameters (operators and
// built-ins that OpenCL defines lane-wise: ir::canVectorize, core/ir/Vectorizable.h), the kernel
// gets a vector version of f with the same body
// (`float4 mult_v4(float4 x, float4 y) { return x * y; }`); otherwise f is applied lane by lane.
#pragma once

#include <string>

#include "core/cfun/CFunPrinter.h"
#include "core/ir/IR.h"
#include "core/ir/Vectorizable.h"

namespace lift::codegen {

// Which user functions have a vector version: core's answer, the one the lane rules get.
using ir::canVectorize;

// The vector version of f named `name` for vectors of `width` lanes, its body printed with
// `options` like every user function's (fma).
std::string printVectorized(const ir::UserFunDef& f, const std::string& name, int width,
                            const cfun::PrintOptions& options = {});

}  // namespace lift::codegen
