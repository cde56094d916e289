// Semantic equivalence of two programs, checked with the reference interpreter: both run on the
// same random inputs at several valid sizes and their results must agree (floats within a
// tolerance, since reassociated reductions round differently). This is the oracle every
// rewrite rule is tested against and what `liftc rewrite --check` runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::rewrite {

struct EquivalenceOptions {
  std::vector<arith::Env> sizes;  // size sets for `after` to use first (invalid ones are skipped)
  int sizeSets = 2;               // how many size sets to run
  uint64_t seed = 1;              // random inputs
  double relTol = 1e-3, absTol = 1e-4;
  int64_t maxInputScalars = 1 << 18;             // skip size sets with larger inputs
  std::vector<int64_t> atLeast = {2, 5, 9, 17};  // chosen size sets: each size at least this
};

struct EquivalenceReport {
  bool equal = true;
  int runs = 0;                   // size sets on which both programs ran and were compared
  std::vector<arith::Env> sizes;  // the sizes used (for `after`)
  std::string message;            // why not equal, or why nothing could be compared
  explicit operator bool() const { return equal && runs > 0; }
};

// Runs both programs on the same inputs. The inputs are generated for `after`; `before` gets the
// sizes its input types imply for them (so a rewrite may rename or re-express sizes, as
// size-multiple does). Not equal when results differ or `after` fails where `before` runs. A
// result of one value equals an array of that one value (the buffer a kernel writes either to).
EquivalenceReport checkEquivalence(const ir::Program& before, const ir::Program& after,
                                   const EquivalenceOptions& opts = {});

// Valid small sizes for a program, `count` different sets if possible (smallest first), each
// size at least atLeast[i] for the i-th set tried.
std::vector<arith::Env> chooseSizeSets(const ir::Program& p, int count,
                                       const std::vector<int64_t>& atLeast = {2, 5, 9, 17});

// "M=8, N=4"
std::string formatSizes(const arith::Env& env);

}  // namespace lift::rewrite
