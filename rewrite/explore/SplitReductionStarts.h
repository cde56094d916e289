// Where a search of a program that is a reduction of a map (dot, asum) starts besides the program
// itself: the algorithmic form of seed 001's schema (section 3, Fig. 4), so that the OpenCL
// mapping of a work-group tree with a combining kernel (OpenCLMapping.h,
// "wrg-0-lcl-0-tree-combine") lowers it to two kernels that run at copy bandwidth on a GPU:
//
//   reduce(add, 0) o join o map(chunk => reduce(add, 0) o map(f) $ chunk) o split(C) $ data
//
// Each chunk of C elements is one work-group's: reduce-to-tree gives it to the group's work-items,
// each reducing every L-th element of the chunk (consecutive work-items read consecutive
// elements, coalesced) with the map fused into its sequential loop, then a tree in local memory;
// the top-level reduction adds the work-groups' partial sums in a second kernel of one
// work-group. A second start reads vectors: the chunks hold vectors of `width` elements
// (partial-reduce-vectorize, the map vectorised), the vectors' lanes added by the top-level
// reduction. The chunk size C (tunable "chunk") is chosen from the numbers of work-groups a GPU
// needs (a few hundred to a few thousand), the vector width is the tunable "width".
//
// The steps are ordinary rewrite steps (reduce-partial, partial-reduce-vectorize,
// partred-map-reduce, vectorize-map-zip or vectorize-map, asvector-asscalar-id, split-map,
// map-fusion): every derivation the search stores replays from the high-level program.
#pragma once

#include <memory>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/DerivationTemplate.h"
#include "rewrite/explore/StartDerivation.h"

namespace lift::explore {

// The program with the tunables' first values; the steps after the root's, with "$chunk" and
// "$width" for the tunables' values.
struct SplitReductionStart : StartDerivation {
  std::vector<Tunable> tunables;                     // "chunk" (and "width")
  std::string mapping = "wrg-0-lcl-0-tree-combine";  // the schema's OpenCL mapping
};

// What the template of such a start with the schema's mapping adds to derivationPromise: more
// than any derivation scores, so that the three-phase strategy measures it first and the
// evolution in its initial population (a known schema, not a guess).
constexpr int kSchemaPromise = 20;

// The starts of `root` (reached from the searched program by `steps`), scalar first then with
// vectors (`preferredWidth` first among the widths 4, 8, 2); none when the root's body is not a
// reduction of a map, or its length has no chunks for a hundred or more work-groups.
std::vector<SplitReductionStart> splitReductionStarts(const rewrite::TypedProgram& root,
                                                      const std::vector<rewrite::RewriteStep>& steps,
                                                      int preferredWidth = 0);

}  // namespace lift::explore
