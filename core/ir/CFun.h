// The bodies of user functions: a small C subset (declarations, assignments, arithmetic,
// comparisons, ?:, if/else, for loops, OpenCL math built-ins, vector components, return),
// parsed once, executed by the interpreter and emitted by the code generator.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/support/Diagnostic.h"
#include "core/types/Type.h"

namespace lift::cfun {

struct Body;  // defined in core/ir/CFunAst.h

// Parses `text` (what stands between the braces of a user function). `line`/`col` give the
// position of the text's first character in `file`, so that errors point into the .lift
// file. Checks names and types against the parameters and return type. Throws LiftError.
std::shared_ptr<const Body> parseBody(const std::string& text,
                                      const std::vector<std::pair<std::string, Type>>& params,
                                      Type returnType, const std::string& file, int line, int col);

}  // namespace lift::cfun
