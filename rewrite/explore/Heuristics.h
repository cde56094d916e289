// The heuristics of the seeds' algorithmic exploration (002 matmul paper, section "Exploration";
// the Lift implementation's defaults): programs whose loops nest too deeply are dropped, as are
// programs in which the multiplication is far from the addition it feeds (the data then makes
// a detour through memory), and derivations that apply one rule more than twice.
#pragma once

#include <string>
#include <vector>

#include "core/ir/IR.h"
#include "rewrite/Engine.h"

namespace lift::explore {

struct HeuristicLimits {
  // Nesting depth of maps and reductions: 8 lets a tiled, K-blocked, register-blocked matmul
  // through (two maps over tiles, the loop over K tiles, two maps over a tile's blocks, the loop
  // over K within the tile, two maps over a block).
  int maxNesting = 8;
  int maxDistance = 1;  // patterns between a multiplication and the addition it feeds (-1: no limit)
  int maxRuleUses = 2;  // applications of one rule in a derivation
};

// The deepest nesting of maps and reductions (of any flavour).
int nestingDepth(const ir::Program& p);

// The largest, over reductions with an addition operator, of the number of computing patterns
// between the reduction and the nearest multiplication feeding it (0: the multiplication is in
// the reduction's operator or maps directly into it). -1 when the program has no such pair.
int mulAddDistance(const ir::Program& p);

// How often the most used rule is applied.
int maxRuleUses(const std::vector<rewrite::RewriteStep>& steps);

// How promising a derivation looks, for the order in which the exploration visits programs:
// distinct rewrites that restructure for performance count — register blocks in local-memory
// tiles (tile-reduction-blocked) most, then register blocking (reuse of loaded data), then
// vectorisation across iterations, vectorisation within them and user-function fusion (fused
// multiply-add), tiling, tile-reduction and the dot built-in, reduce fusion — and applying one
// rule again costs.
int derivationPromise(const std::vector<rewrite::RewriteStep>& steps);

// Whether `step`, applied to `before`, computes neighbouring iterations in vector lanes that lie
// next to each other in memory: vectorize-lanes of a computing map over the columns of a
// row-major matrix (its input a transpose, or a chunk of the rows of one, which the rule reads
// as rows of vectors). On a CPU these are plain
// vector loads, one row of B per step of a matrix product; lanes over the rows of a matrix are
// gathered from a column (docs/PERFORMANCE.md, "SGEMM on the CPU device").
bool vectorisesContiguousLanes(const ir::Program& before, const rewrite::RewriteStep& step);

// Why the heuristics drop a program or a derivation; "" when they keep it.
std::string heuristicRejection(const ir::Program& p, const std::vector<rewrite::RewriteStep>& steps,
                               const HeuristicLimits& limits);

}  // namespace lift::explore
