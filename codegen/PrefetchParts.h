// The register prefetch in parts (CompileOptions::prefetchParts, issue 14): a double-buffered step
// whose next tiles go through registers (RegisterPrefetch.h) loads all of them before it computes
// and stores all of them after —
//   pf1 = A[..]; pf2 = A[..]; pf3 = B[..]; pf4 = B[..];  for (j = 0; j < 16; ++j) ..;  tmp[..] = pf1; ..
// — so every staged value is live across the whole computation. In P parts, the computation's
// loop along k is cut into P loops of equal length, and each part loads its share of the next
// tiles before its loop and stores it after:
//   pf1 = A[..]; pf3 = B[..];  for (j = 0; j < 8; ++j) ..;   tmp[..] = pf1; tmp[..] = pf3;
//   pf2 = A[..]; pf4 = B[..];  for (j = 8; j < 16; ++j) ..;  tmp[..] = pf2; tmp[..] = pf4;
// Each part holds a P-th of the staged values, which leaves the compiler registers to schedule
// the loop with. Storing into the other buffers before the step ends is safe: their last readers
// ran before the barrier that ended the previous step. On an H200 two parts made the best SGEMM
// kernel 2-6 % faster at every shape measured (docs/PERFORMANCE.md, session 26).
#pragma once

#include <optional>

#include "codegen/CAst.h"
#include "codegen/RegisterPrefetch.h"

namespace lift::codegen {

// The step's statements in `parts` parts: the staged copy's loads and stores (each tile's values
// dealt out over the parts in order) around the computation cut along its loop. Nullopt (and
// nothing moved) where the computation is not one sequential loop of a constant trip count that
// `parts` divides, under scopes that only declare ids, or where the loads and stores do not pair.
std::optional<c::Block> interleaveInParts(const StagedCopy& staged, const c::Block& compute, int parts);

}  // namespace lift::codegen
