// The names OpenCL C reserves (keywords, types, built-in functions) and the ones the generator
// uses for its own types, which the kernel must not use for variables, buffers and functions.
#pragma once

#include <string>

namespace lift::codegen {

bool isReservedOpenCLName(const std::string& name);

}  // namespace lift::codegen
