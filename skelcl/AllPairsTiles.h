// AllPairsTiles: SkelCL's zip-reduce specialisation of allpairs on GPUs — C in 16 x 16 tiles, one
// work-group a tile and one work-item an element, the reduction over D a loop of the work-group
// over pairs of 16 x 16 tiles of A and B copied to local memory (seed 000, Part I: the
// zip-reduce form lets allpairs share the rows and columns a work-group reads). The kernel is
// derived by rewriting from the skeleton's high-level program, the derivation of
// resources/derivations/matmul_tiled_local.derivation with B's tile copied along its rows (one
// coalesced row of B a row of work-items) and the local tiles padded by one element a row
// against bank conflicts. Its sizes count tiles: N, M and D must be multiples of kTile, and the
// kernel is launched with N / kTile, M / kTile and D / kTile.
#pragma once

#include <optional>

#include "codegen/CompiledKernel.h"
#include "core/ir/IR.h"

namespace lift::skelcl {

struct AllPairsTiledKernel {
  static constexpr int kTile = 16;
  ir::Program program;  // lowered
  codegen::CompiledKernel compiled;
};

// The tiled kernel of an AllPairs high-level program (AllPairsProgram::searchText, parsed) whose
// row function is a zip-reduce, reduce(r, z) o map(f) $ zip(a, b); none for other row functions
// (the derivation does not apply to them).
std::optional<AllPairsTiledKernel> tiledZipReduceKernel(const ir::Program& searchProgram);

}  // namespace lift::skelcl
