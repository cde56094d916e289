// `#pragma unroll N` on the innermost sequential loops (CompileOptions::innerLoopUnroll): a loop
// with a constant trip count and neither a loop nor a barrier inside — one that Unrolling.h left
// a loop, such as a K tile's loop over a register block — is unrolled N times by the OpenCL
// compiler, not fully: unrolled fully, NVIDIA's compiler hoists the loads of the whole K tile and
// runs out of registers (docs/PERFORMANCE.md).
//
// `#pragma unroll N` on the loops over K tiles (CompileOptions::tileLoopUnroll): the outermost
// sequential loops with a barrier inside (not a parallel map's loop), a K-tiled reduction's loop
// whose steps copy tiles to local memory and use them. Unrolled twice, the two steps of a double-buffered
// loop read fixed buffers and the compiler schedules two steps at once: on an H200, 8192x8192x2048 ran 4 %
// faster, but 4096³ a third slower, its registers past the 128 that let two work-groups share an SM (session
// 25, docs/PERFORMANCE.md). So the search tunes it.
#pragma once

#include "codegen/CAst.h"

namespace lift::codegen {

// Marks the loops (c::Stmt::unroll = min(factor, trip count)); returns how many.
int addUnrollPragmas(c::Block& body, int factor);

// Marks the loops over K tiles (c::Stmt::unroll = factor, at most the trip count where it is
// known); returns how many.
int addTileLoopUnrollPragmas(c::Block& body, int factor);

}  // namespace lift::codegen
