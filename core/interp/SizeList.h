// The one syntax of size arguments, "N=1024,M=64": what liftc's --size, lift-studio's --size and
// the search pane take. Items NAME=VALUE separated by commas; a name is an identifier, a value a
// decimal integer from 1 to kMaxSize (lengths are 32-bit in the generated kernels), and no name
// may be given twice.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "core/arith/ArithExpr.h"

namespace lift::interp {

// The largest size accepted.
constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();

// Adds the sizes of `text` to `into` (which may hold those of an earlier argument: a name already
// there is "given twice"). Throws LiftError whose message names the offending item; `example`
// is the value a malformed item's message suggests ("16": "e.g. N=16").
void parseSizeList(const std::string& text, arith::Env& into, const std::string& example = "16");

}  // namespace lift::interp
