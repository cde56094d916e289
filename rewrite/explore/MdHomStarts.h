// Where a search of a program with md_homs (seed 001) starts: the Lift rules, the OpenCL mappings
// and the tuning know nests of map and reduce, not md_hom, so the search's first steps expand
// every md_hom into the nest it means (mdhom-to-map-reduce) and its views into zips
// (mdhom-view-to-zip). A second start is 001's schema (Fig. 4): the innermost reduced dimension
// first split into strided chunks (mdhom-split-strided; the chunk size becomes a tunable), so
// that consecutive work-items read consecutive elements. A third start is that one with each
// row's chunk sums apart from their sum (map-fission of the outermost map): the row's reduction
// split over work-groups, the chunk sums one kernel, their sum per row a second (a split GEMV,
// which a wide matrix needs: 1024 rows do not fill a GPU). The steps are ordinary rewrite steps:
// every derivation the search stores replays from the md_hom program.
#pragma once

#include <memory>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/StartDerivation.h"

namespace lift::explore {

// The program without md_hom and views, the steps from the searched program.
using MdHomStart = StartDerivation;

// The starts of a program with md_homs (the plain expansion first); none for a program without
// md_hom, or whose md_homs do not expand (a reduced dimension outside a ++ one).
std::vector<MdHomStart> mdHomStarts(const rewrite::TypedProgram& program);

}  // namespace lift::explore
