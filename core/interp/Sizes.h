// Concrete values for a program's size variables: inferred from given inputs, checked against
// the constraints the types imply (split 128 needs a length divisible by 128, zip equal
// lengths, ...), or chosen small and valid for running the interpreter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"
#include "core/ir/IR.h"
#include "core/support/Diagnostic.h"

namespace lift::interp {

// The sizes the inputs' shapes imply for the size variables in the declared input types
// (`[[float]K]M` and a 16 x 8 input give M = 16, K = 8; `[float]N/4` and 8 elements give
// N = 32). Throws InterpError::Input when the inputs disagree (two values for one size, a
// shape no size fits). Sizes that no input type mentions are not in the result.
arith::Env inferSizes(const ir::Program& p, const std::vector<Value>& inputs);

// The program with every size variable replaced by its value in `sizes` (in input types,
// pattern parameters, literals and typed lambda parameters); node locations carry over.
ir::Program specialize(const ir::Program& p, const arith::Env& sizes);

// Why the program is not valid at these sizes (a located diagnostic: a size missing or below
// 1, or the type checker's error on the specialized program), or nullopt when it is valid.
std::optional<Diagnostic> sizeProblem(const ir::Program& p, const arith::Env& sizes);

struct SizeHint {
  arith::Env fixed;          // sizes to keep as they are
  bool useDefaults = false;  // take declared defaults (`size N = 1024;`) for sizes not fixed
  int64_t atLeast = 8;       // prefer each chosen size >= this (smaller only if nothing else fits)
  // With it, atLeast counts the elements of the input dimensions a size makes instead: a size
  // counting blocks of 128 (`[float]N*128`) may then be 1 (what `--small` wants).
  bool perInputElement = false;
  int64_t atMost = 1 << 16;  // never choose a size above this
};

// Small valid sizes for every size variable of the program: candidates are multiples of the
// constant factors that appear (split, asVector, slide, partRed, ...) and powers of two, tried
// smallest first and verified by type-checking the specialized program. Throws LiftError when
// the fixed sizes are invalid or no candidate fits.
arith::Env chooseSizes(const ir::Program& p, const SizeHint& hint = {});

}  // namespace lift::interp
