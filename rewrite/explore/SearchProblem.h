// What a search explores: a high-level program at concrete sizes. The program is specialised to
// the sizes before any rewrite (every length a constant), as the seeds' exploration generated
// kernels for one input size: split factors then only need to divide constants, and the code
// generator simplifies every index completely. Derivations are stored relative to the
// specialised program (the store records the sizes, so a derivation can be replayed).
#pragma once

#include <memory>
#include <string>

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "rewrite/Engine.h"

namespace lift::explore {

struct SearchProblem {
  ir::Program original;  // as given, with its size variables
  arith::Env sizes;      // the sizes searched at (every size variable of `original`)
  std::shared_ptr<const rewrite::TypedProgram> start;  // `original` specialised to `sizes`
  std::string name;                                    // the program's name ("matmul")
  std::string sizesText;                               // "K=256,M=256,N=256"
  std::string startHash;                               // structural hash of `start`, hex

  // Throws LiftError when a size is missing or invalid for the program.
  static SearchProblem make(const ir::Program& program, const arith::Env& sizes);
};

// "K=256,M=256,N=256": sorted by name.
std::string formatSizes(const arith::Env& sizes);

// The hash of a program as the store writes it (hex): of its printed text, so that it is the same
// in every process (ir::structuralHash, which the search uses to recognise programs within a
// process, is not); printed with allPairs as its nest (lang::PrintOptions), so that a store keeps
// its hashes when the printer learns a name.
std::string programHash(const ir::Program& p);

}  // namespace lift::explore
