// Register prefetch of a double-buffered tile copy (CompileOptions::registerPrefetch, issue 14):
// the copy of the next tiles, `tmp[...] = global[...]` in the work-items' loops, is split into
// loads into private values before the computation and stores of those values into the local
// buffer after it —
//   r0 = A[..(i + 1)..]; r1 = A[..];  compute(tmp[i % 2]);  tmp[..] = r0; ..
// (DoubleBuffering.h says how the last step, which has no next tiles, goes without a branch)
// so the global loads are in flight while the current tile is computed instead of stalling the
// work-item before it (a store to local memory waits for its load). The loops of the copy are
// unrolled: each work-item's iterations become scopes that set the loop variable to a constant
// offset of its id, so every value has a register of its own.
#pragma once

#include "codegen/CAst.h"
#include "codegen/MemoryAllocator.h"

namespace lift::codegen {

// The copy statements split into declarations of the private values, their loads and their
// stores (each in the copy's scopes). False (and the outputs untouched) when the copy has a shape
// this does not handle: a loop whose trip count is not the same constant for every work-item,
// a write other than one element of a local array, statements other than scopes, loops, guards
// and those writes, or more than `maxScalars` private scalars.
struct StagedCopy {
  c::Block declarations, loads, stores;
};
bool stageThroughRegisters(const c::Block& copy, MemoryAllocator& memories, StagedCopy& out,
                           int maxScalars = 64);

}  // namespace lift::codegen
