// OpenCL address spaces of the values a kernel stores (CGO 2017, section 3: toGlobal, toLocal,
// toPrivate decide where a function's output lives).
#pragma once

#include <cstdint>

namespace lift::codegen {

enum class AddressSpace : uint8_t { Private, Local, Global };

// "private", "local", "global" — also the OpenCL qualifier (private memory needs none).
const char* toString(AddressSpace s);
// The qualifier as written before a type in OpenCL C ("" for private).
const char* qualifier(AddressSpace s);

}  // namespace lift::codegen
