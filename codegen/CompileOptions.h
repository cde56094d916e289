// The switches of code generation. Each optimisation can be turned off to show what it does
// (the GUI toggles them; `liftc compile --no-...`); all are on by default.
#pragma once

#include <vector>

#include "core/arith/ArithExpr.h"

namespace lift::codegen {

struct CompileOptions {
  bool simplifyIndices = true;     // print simplified indices (else as views build them)
  bool barrierElimination = true;  // drop barriers proven unneeded (BarrierElimination.h)
  bool cfgSimplification = true;   // no loop / an if where the NDRange allows (ControlFlow.h)
  bool unrolling = true;           // unroll small loops over private arrays (Unrolling.h)
  bool fusedMultiplyAdd = true;    // a user function's float `a + b * c` as fma(b, c, a)
  // Off by default (the explorer tunes them on the GPU; docs/PERFORMANCE.md):
  bool vectorLocalLoads = false;  // a block's reads of local b..b+3 as one float4 (LocalVectorLoads.h)
  int innerLoopUnroll = 1;        // `#pragma unroll N` on innermost sequential loops (UnrollPragmas.h)
  int tileLoopUnroll = 1;         // `#pragma unroll N` on the loops over K tiles (UnrollPragmas.h)
  bool doubleBuffering = false;  // two buffers per tile a loop copies, one barrier a step (DoubleBuffering.h)
  bool registerPrefetch = false;    // double buffering, the next tiles through registers (RegisterPrefetch.h)
  int prefetchParts = 1;            // with it, the step cut into N parts along k (PrefetchParts.h)
  bool vectorGlobalStores = false;  // four writes of global b..b+3 as one float4 (GlobalVectorStores.h)
  int localPadding = 0;             // unused elements after each row of a local tile (LocalPadding.h)
  bool indexCse = false;            // repeated index subexpressions as const int temporaries (IndexCse.h)
  int streamK = 0;  // work-groups that share a K-tiled reduction's tiles and steps (StreamK.h); 0: one a tile
  // At most this many registers a work-item, where the device's compiler takes a cap (NVIDIA:
  // `.maxnreg` in the kernel's PTX, runtime/RegisterCap.h); 0: the compiler chooses.
  int maxRegisters = 0;

  // The NDRange to generate for, in the program's size variables (1 to 3 dimensions); empty:
  // derived from the program (NDRange.h).
  std::vector<arith::Expr> globalSize;
  std::vector<arith::Expr> localSize;
};

}  // namespace lift::codegen
