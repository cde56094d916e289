// Random walks through the rewrite space: from a program, repeatedly apply a rewrite chosen at
// random among those that apply, optionally checking each step in the interpreter. The tests
// run walks from every example (any seed must keep programs well-typed and equal); the
// benchmark measures steps per second; exploration can use walks as a random search.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"

namespace lift::rewrite {

struct RandomWalkOptions {
  int steps = 20;
  uint64_t seed = 1;
  bool check = true;           // compare each step with the previous program in the interpreter
  bool includeMacros = false;  // macro rules are slow to try
  // Choose by sampling (location, rule) pairs instead of enumerating every applicable rewrite:
  // much faster on large programs; falls back to enumeration when sampling finds nothing.
  bool sample = true;
  size_t maxNodes = 3000;             // do not grow the program beyond this many nodes
  int64_t maxInputScalars = 1 << 14;  // with check: skip rewrites whose smallest inputs are larger
  std::vector<std::string> exclude;   // rule names never chosen
  double maxSeconds = 0;              // stop the walk after this long (0: no limit)
  EquivalenceOptions equivalence;
};

struct RandomWalkResult {
  TypedProgram start, final;
  std::vector<RewriteStep> steps;  // applied, in order (a derivation)
  int checked = 0;                 // steps compared in the interpreter
  bool ok = true;
  std::string failure;     // the first problem: an ill-typed result or a difference
  std::string stopReason;  // why the walk ended before `steps` (nothing applies, ...)
};

RandomWalkResult randomWalk(const TypedProgram& start, const RandomWalkOptions& opts);

}  // namespace lift::rewrite
