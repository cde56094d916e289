// Double buffering of the tiles a sequential loop copies to local memory
// (CompileOptions::doubleBuffering, issue 14): a loop whose body copies tiles into local arrays,
// waits, computes from them and waits again —
//   for (i = 0; i < n; ++i) { copy(i) -> tmp; barrier; compute(tmp); barrier; }
// — becomes, with each array twice as large,
//   copy(0) -> tmp[0]; barrier;
//   for (i = 0; i < n; ++i) { if (i + 1 < n) copy(i + 1) -> tmp[(i + 1) % 2]; compute(tmp[i % 2]); barrier; }
// one barrier per step instead of two, and the next tile's loads in flight while the current one
// is computed. The barrier at the end of step i orders both the writes of tile i + 1 before its
// use and the reads of tile i before step i + 1 overwrites its buffer. Only loops of exactly that
// shape: the copies write local arrays used nowhere else and read no local memory, the
// computation writes no local memory. With the register prefetch (RegisterPrefetch.h) the step
// keeps no branch: a loop of constant length n runs n - 1 steps and its last step after it; one
// of unknown length loads tile min(i + 1, n - 1), its own again in the last step, and stores it
// into buffer (i + 1) % 2, which no step reads any more.
#pragma once

#include "codegen/CAst.h"
#include "codegen/MemoryAllocator.h"

namespace lift::codegen {

// Rewrites the kernel body. With registerPrefetch, the next tiles' copy goes through registers
// where it can (RegisterPrefetch.h), in `prefetchParts` parts of the step where it can
// (PrefetchParts.h).
struct DoubleBuffered {
  int loops = 0;    // loops double-buffered
  int inParts = 0;  // of those, loops whose step was cut into parts
};
DoubleBuffered doubleBufferTileCopies(c::Block& body, MemoryAllocator& memories,
                                      bool registerPrefetch = false, int prefetchParts = 1);

}  // namespace lift::codegen
