// Where a search of a program with md_homs (seed 001) starts: the Lift rules, the OpenCL mappings
// and the tuning know nests of map and reduce, not md_hom, so the search's first steps expand
// every md_hom into the nest it means (mdhom-to-map-reduce) and its views into zips
// (mdhom-view-to-zip). A second start is 001's schema (Fig. 4): the innermost reduced dimension
// first split into strided chunks (mdhom-split-strided; the chunk size becomes a tunable), so
// that consecutive work-items read consecutive elements. The steps are ordinary rewrite steps:
// every derivation the search stores replays from the md_hom program.
#pragma once

#include <memory>
#include <vector>

#include "rewrite/Engine.h"

namespace lift::explore {

struct MdHomStart {
  std::shared_ptr<const rewrite::TypedProgram> program;  // without md_hom and views
  std::vector<rewrite::RewriteStep> steps;               // from the searched program
};

// The starts of a program with md_homs (the plain expansion first); none for a program without
// md_hom, or whose md_homs do not expand (a reduced dimension outside a ++ one).
std::vector<MdHomStart> mdHomStarts(const rewrite::TypedProgram& program);

}  // namespace lift::explore
