// The code generator's switches as tunables of the search (issue 14): on the GPU, templates whose
// mapping copies tiles (the "-local" and "-private" mappings of a K-tiled reduction) also try
// `unroll` (CompileOptions::innerLoopUnroll: 8, then 1), `vload`
// (CompileOptions::vectorLocalLoads: on, then off) and `dbuf` (CompileOptions::doubleBuffering:
// on, then off; a mapping without a loop that copies tiles compiles to the same kernel either
// way, which the search skips as a duplicate). On an H100 each is worth up to 15 % on the same
// program, all three together 12 % over unroll alone on session 7's best kernel, and which
// combination wins depends on the program (docs/PERFORMANCE.md). The three-phase strategy counts
// their second values twice, so that it reaches the rewrites' parameters around their preferred
// values first (a 4096³ search measures about 200 kernels).
#pragma once

#include <string>
#include <vector>

#include "codegen/CompileOptions.h"
#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

// The code generator's tunables for a device (none on a CPU).
std::vector<Tunable> codegenTunables(bool gpu);

// Whether a mapping gets them: it places copies of tiles.
bool takesCodegenTunables(const std::string& mapping);

// Sets the options the candidate's codegen tunables name.
void applyCodegenValues(const Candidate& c, codegen::CompileOptions& options);
// The same from a stored kernel's parameters ("k=8,unroll=8,vload=1,local=16x16"): what it was
// compiled with.
void applyCodegenParameters(const std::string& parameters, codegen::CompileOptions& options);

}  // namespace lift::explore
