// StoredDerivation: a stored kernel (KernelRecord) made again from its search problem — its
// derivation replayed from the problem's start (the program specialised to its sizes) and the
// options it was compiled with (work-group size, code generator parameters), read from its
// parameters. What uses the best stored kernel of a program (skelcl/StoredKernel.h,
// bench/kernels) compiles `program` with `options`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/CompileOptions.h"
#include "core/ir/IR.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::explore {

struct StoredDerivation {
  ir::Program program;  // the derived (low-level) program, type-checked
  codegen::CompileOptions options;
  std::vector<int64_t> localSize;  // the search's work-group size ("local=4x1"); empty: none
};

// The kernel `k` of `problem` replayed; nullopt, and why in `why`, when its derivation names a
// rule that no longer exists or a step no longer applies.
std::optional<StoredDerivation> replayStored(const SearchProblem& problem, const KernelRecord& k,
                                             std::string* why = nullptr);

}  // namespace lift::explore
