// Stream-K scheduling of a K-tiled reduction (CompileOptions::streamK, issue 14). A kernel of the
// shape
//   mapWrg(..mapWrg( acc = 0; for (i = 0; i < KT; ++i) acc += f(tile i); out = acc ))
// runs one work-group per tile of the result, so its time goes by whole waves of work-groups and
// a partly filled last wave idles part of the device (docs/PERFORMANCE.md, session 20). With P
// work-groups (as many as the device runs at once), the whole waves stay as they are (work-groups
// 0 .. W - 1 take the first W = floor(tiles / P) * P tiles, one each) and the R tiles of the last
// wave are shared out evenly, as the "data-parallel + stream-K" schedule of Osama et al. does:
// work-group W + g takes steps [g T / P, (g + 1) T / P) of the T = R x KT steps, tile after tile.
// As R < P, such a run is a part of one tile or of two. A tile split between work-groups is
// summed in global memory: each part stores its accumulators (the work-items' private values,
// one slot per part), counts itself in the tile's counter (zeroed by the runtime before every
// launch), and the part that counts last adds the others' slots to its own and writes the tile.
// No work-group ever waits for another, so the schedule cannot hang, whatever order the device
// runs the work-groups in. Where the tiles fill whole waves (R = 0) the kernel is unchanged.
//
// Only where splitting the loop is exact: every write of the accumulators in the loop is
// `acc = F(acc, ...)` with a user function F whose body is `return acc + e;` (e not reading acc),
// they start at zero, the loop writes only local and private memory and reads only inputs, and
// the statements after the loop write only the result. Sums of parts are in another order than
// the loop's, as every split of a floating-point reduction is.
#pragma once

#include "codegen/KernelBuilder.h"

namespace lift::codegen {

// Rewrites the kernel for `groups` work-groups at once (P above); returns how many it is to be
// launched with, in dimension 0, W + min(P, T) (0: the kernel has not the shape, or its tiles fill
// whole waves; unchanged). Runs before scalarization
// and double buffering, after the barrier passes.
int scheduleStreamK(KernelModel& model, int groups);

}  // namespace lift::codegen
