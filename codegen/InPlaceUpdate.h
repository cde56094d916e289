// Whether an iteration of a sequential loop (a reduction's or a scan's) may update its
// accumulator in place: no read of the old accumulator (its accesses tagged `tag`) can see a value
// this iteration already wrote. When it may not, the emitters double-buffer the accumulator.
#pragma once

#include "codegen/CAst.h"

namespace lift::codegen {

bool inPlaceSafe(const c::Block& iteration, int tag);

}  // namespace lift::codegen
