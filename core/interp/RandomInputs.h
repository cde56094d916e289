// Random inputs for running programs: reproducible from a seed, never zero (so that a rewrite
// that drops or duplicates an element shows up in the result), floats in [-1, 1), ints small.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"
#include "core/ir/IR.h"

namespace lift::interp {

// One value per program input, of its declared type at `sizes`. Throws LiftError when a
// length cannot be evaluated (a size variable without a value, a negative length).
std::vector<Value> randomInputs(const ir::Program& p, const arith::Env& sizes, uint64_t seed = 1);

// A random value of a type whose lengths are constants (see concreteType):
// float and double uniform in [-1, 1) with |x| >= 1/64, int in [-9, 9] without 0, bool either.
Value randomValue(Type concrete, std::mt19937_64& rng);

}  // namespace lift::interp
