// Option values shared by liftc's subcommands: integers, and the sizes of `--size N=16,M=8`
// (repeatable) as `liftc eval` and `liftc run` take them. A bad value throws
// std::invalid_argument with a message naming the option; liftc prints it and exits with 2.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::liftc {

// The largest size accepted: lengths are 32-bit in the generated kernels.
constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();

[[noreturn]] void badArgument(const std::string& message);

// A non-negative decimal integer of at most 18 digits; nullopt for anything else.
std::optional<int64_t> parseInteger(const std::string& s);

// "--size N=16,M=8" (repeatable) -> {N: 16, M: 8}: names the program declares, values from 1
// to kMaxSize, a name given twice only with the same value. `example` is the value the
// message for a malformed item suggests ("16" -> "e.g. --size N=16").
arith::Env parseSizeOptions(const std::vector<std::string>& specs, const ir::Program& p,
                            const std::string& example = "16");

}  // namespace lift::liftc
