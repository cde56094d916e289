// `#pragma unroll N` on the innermost sequential loops (CompileOptions::innerLoopUnroll): a loop
// with a constant trip count and neither a loop nor a barrier inside — one that Unrolling.h left
// a loop, such as a K tile's loop over a register block — is unrolled N times by the OpenCL
// compiler, not fully: unrolled fully, NVIDIA's compiler hoists the loads of the whole K tile and
// runs out of registers (docs/PERFORMANCE.md).
#pragma once

#include "codegen/CAst.h"

namespace lift::codegen {

// Marks the loops (c::Stmt::unroll = min(factor, trip count)); returns how many.
int addUnrollPragmas(c::Block& body, int factor);

}  // namespace lift::codegen
