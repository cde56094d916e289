// Vector reads of local memory (CompileOptions::vectorLocalLoads): within one block of
// statements, reads of a scalar local array at b, b+1, ..., b+3, with b a multiple of 4 for every
// value of its variables, become one read of a vector `((local float4*)tmp)[b/4]` into a variable
// declared before the first statement that uses it, and the reads its lanes. A K-blocked
// matmul's work-item reads its columns of a B tile row this way: one 128-bit load instead of
// four. Only reads outside guards, of arrays the block neither writes nor separates from their
// use by a barrier; the array is then declared 16-byte aligned.
#pragma once

#include "codegen/CAst.h"
#include "codegen/MemoryAllocator.h"

namespace lift::codegen {

constexpr int kLocalVectorWidth = 4;

// Rewrites the kernel body; returns how many vector reads it introduced.
int vectorizeLocalLoads(c::Block& body, MemoryAllocator& memories);

}  // namespace lift::codegen
