// The code generator's switches as tunables of the search (issue 14): on the GPU, templates whose
// mapping copies tiles (the "-local" and "-private" mappings of a K-tiled reduction) also try
// `unroll` (CompileOptions::innerLoopUnroll: 16, 8, then 1), `tunroll`
// (CompileOptions::tileLoopUnroll: none, then twice; session 25: 4 % at 8192x8192x2048 on an H200,
// a third lost at 4096³, UnrollPragmas.h), `vload`
// (CompileOptions::vectorLocalLoads: on, then off) and `dbuf` (2: CompileOptions::registerPrefetch,
// double buffering with the next tiles through registers; 1: CompileOptions::doubleBuffering; 0:
// neither; a mapping without a loop that copies tiles compiles to the same kernel either way,
// which the search skips as a duplicate), `pfparts` (CompileOptions::prefetchParts: two, then
// one; session 26: 2-6 % at every SGEMM shape on an H200, PrefetchParts.h), and `sk`
// (CompileOptions::streamK: 0, then one and two work-groups a compute unit; session 21: at 1024³ on an H100,
// 64 tiles of 256 x 64 for 132 SMs, it took the kernel from 18.2 to 29.8 TFLOP/s; at the large shapes its
// registers cost the kernel half its occupancy). On an H100 the register prefetch took session 7's best 4096³
// program from 37.2 to 43.4 TFLOP/s and, with unroll 16, 45.5; which combination wins depends on the program
// (docs/PERFORMANCE.md). The three-phase strategy counts values after the first twice, so that it reaches the
// rewrites' parameters around their preferred values first.
#pragma once

#include <string>
#include <vector>

#include "codegen/CompileOptions.h"
#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

// The code generator's tunables for a device (none on a CPU); with its compute units, `sk` too.
std::vector<Tunable> codegenTunables(bool gpu, int64_t computeUnits = 0);

// Whether a mapping gets them: it places copies of tiles.
bool takesCodegenTunables(const std::string& mapping);

// Sets the options the candidate's codegen tunables name.
void applyCodegenValues(const Candidate& c, codegen::CompileOptions& options);
// The same from a stored kernel's parameters ("k=8,unroll=8,vload=1,local=16x16"): what it was
// compiled with.
void applyCodegenParameters(const std::string& parameters, codegen::CompileOptions& options);

}  // namespace lift::explore
