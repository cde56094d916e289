// Common-subexpression elimination of index expressions (CompileOptions::indexCse, issue 17).
// A subexpression that the printed (simplified) indices of a kernel repeat — a whole index read
// and written, `2*gl_id*K` in the indices of several loads, `i/4` — becomes a `const int`
// temporary declared once, in the outermost scope where all of its variables are defined (a
// loop's body for its loop variable, the kernel's body for sizes), just before the statement
// that first uses it; the indices print the temporary instead. Only subexpressions worth a
// variable count (a division, remainder, min, max or other function, or at least two
// operations), and none that mentions a variable assigned after its declaration (iterate's
// sizes). Occurrences in sibling loops of the same variable are separate: each loop gets its
// own temporary.
#pragma once

#include "codegen/KernelBuilder.h"

namespace lift::codegen {

// Fills model.indexTemporaries (the index each access prints) and inserts the temporaries'
// declarations into model.body. Returns how many temporaries it made.
int eliminateCommonIndexSubexpressions(KernelModel& model);

}  // namespace lift::codegen
