// Random inputs for running programs: reproducible from a seed, never zero (so that a rewrite
// that drops or duplicates an element shows up in the result), floats in [-1, 1), ints small.
#pragma once

#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"
#include "core/ir/IR.h"

namespace lift::interp {

// One value per program input, of its declared type at `sizes`. Throws LiftError when a
// length cannot be evaluated (a size variable without a value, a negative length), or soon
// after `*cancel` turns true (the inputs of a large size take seconds: a search that ends
// stops its reference's thread with it).
std::vector<Value> randomInputs(const ir::Program& p, const arith::Env& sizes, uint64_t seed = 1,
                                const std::atomic<bool>* cancel = nullptr);

// A random value of a type whose lengths are constants (see concreteType):
// float and double uniform in [-1, 1) with |x| >= 1/64, int in [-9, 9] without 0, bool either.
// `cancel` as for randomInputs.
Value randomValue(Type concrete, std::mt19937_64& rng, const std::atomic<bool>* cancel = nullptr);

}  // namespace lift::interp
