// Where a search of a map of row reductions (GEMV: each row of A reduced with x) starts on a CPU
// device besides the program itself: each work-item a contiguous block of rows, each row's
// reduction on vectors of contiguous lanes (docs/PERFORMANCE.md, "GEMV on the CPU device"):
//
//   join o map(rows => map(row => ... reduce(add, 0) o asScalar o reduce(vectorize(w, add_mult), 0)
//                                      $ zip(asVector(w) $ row, asVector(w) $ x)) $ rows)
//        o split(R) $ zip(A, y)
//
// mapped "glb-0": a mapGlb0 over the blocks (a few per core; work-groups of one work-item, the
// launch tunable's first value on a CPU), the block's rows and the row's vectors as loops from 0
// by 1, one vector accumulator a row updated by fused multiply-adds. On PoCL that streams at
// 0.9-1.2x OpenBLAS's sgemv; one work-item a row in work-groups of 128 (what the searches found
// before) ran at 0.6-1.0x in the same runs.
//
// A second start, measured first, reduces the block's rows in groups of "share" that one
// work-item computes together, each vector of x loaded once for the group (1-D register blocking
// of the rows: split-join; map-fission-zip-closure where an epilogue reads the row, as gemv's
// reads y; map-fission; map-reduce-interchange), "share" vector accumulators in private memory.
// Measured in turns with OpenBLAS's sgemv on PoCL it streamed at 0.9-1.4x where one row at a
// time ran at 0.86-0.89x at 4096 x 4096 and 1024 x 16384 (docs/PERFORMANCE.md, "GEMV on the CPU
// device, in turns").
//
// The steps are ordinary rewrite steps (split-join, vectorize-reduce, vectorize-map-zip or
// vectorize-map, asvector-asscalar-id, reduce-map-fusion, userfun-fusion-lanes), so every derivation the
// search stores replays from the high-level program. The block's rows (tunable "rows"), the vector width
// ("width") and the group ("share") are tunables.
#pragma once

#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/DerivationTemplate.h"
#include "rewrite/explore/StartDerivation.h"

namespace lift::explore {

struct RowBlockStart : StartDerivation {
  std::vector<Tunable> tunables;  // "rows", "width" (and "share")
  std::string mapping = "glb-0";  // the schema's OpenCL mapping
};

// The numbers of work-items the block size is chosen for, preferred first (the 2-core VM's PoCL
// device: a few work-items a core balance the cores, also when another process takes one for a
// moment, without many work-groups).
const std::vector<int64_t>& rowBlockWorkItems();

// The start of `root` (reached from the searched program by `steps`), or none: when the root's
// body is not a map (maybe under a join) whose function reduces a row, or the lengths are not
// constants that the blocks and `preferredWidth` (else 16, 8, 4) divide.
std::vector<RowBlockStart> rowBlockStarts(const rewrite::TypedProgram& root,
                                          const std::vector<rewrite::RewriteStep>& steps,
                                          int preferredWidth = 0);

}  // namespace lift::explore
