// Random well-typed Lift programs for property tests and fuzzing of the rules: a chain of
// random stages (maps of user functions, zips, splits and joins, transpositions, reductions,
// reversals, stencils, vectorised maps, iterations, lambda applications, sequential forms)
// over inputs whose lengths are multiples of 8, so that split, vectorisation and partial
// reduction rules find places to apply. Reproducible from the seed.
#pragma once

#include <cstdint>
#include <string>

#include "core/ir/IR.h"

namespace lift::rewrite {

struct RandomProgramOptions {
  int minStages = 2;
  int maxStages = 6;
  bool lowLevel = true;  // also sequential (mapSeq, reduceSeq) forms
};

// The text of a random program (.lift syntax).
std::string randomProgramText(uint64_t seed, const RandomProgramOptions& opts = {});
// The parsed program (named random<seed>).
ir::Program randomProgram(uint64_t seed, const RandomProgramOptions& opts = {});

}  // namespace lift::rewrite
