// The seeds' second phase: map an algorithmic program onto the OpenCL thread hierarchy. The
// maps that compute (call a user function) are numbered by nesting level; a mapping scheme
// says what each level becomes — the two outer levels mapGlb, or mapWrg with the next two
// mapLcl (002: "two outer maps -> mapWrg, next two -> mapLcl, rest sequential") — and every
// other map becomes mapSeq, every reduction reduceSeq. Maps inside a reduction's operator are
// sequential, except in a work-group scheme whose reduction sits right below the mapWrg levels
// (tile-reduction's loop over K tiles): its maps take the mapLcl levels, and the mapping gets two
// more variants (Lift's MemoryMappingRewrite): "<scheme>-private" with the result tile in private
// memory, written to global memory at the end, and "<scheme>-local" with each step's pair of
// tiles copied to local memory as well, in the orientation that reads global memory coalesced.
// A work-group scheme with one mapWrg level whose reductions sit directly in the mapWrg (a
// chunk's sum, a matrix row's dot product) has a variant "<scheme>-tree", where such a reduction
// is given to the work-group's work-items by reduce-to-tree; its number of work-items is the
// mapping's tunable "threads". A mapping whose program becomes two kernels, the second combining
// the first one's per-work-item or per-work-group results with the program's top-level
// reduction (codegen/KernelSplit.h), has a variant "<mapping>-combine" where that reduction is
// one work-group's tree instead of one work-item's loop (001 section 3's second kernel); its
// number of work-items is the tunable "combine". A program that is one scan has the mapping
// "scan-work-groups" (rule scan-work-groups: tiles of 256 work-items read and written coalesced,
// the work-items' sums scanned in local memory), its tunable "v" the vectors of 4 elements a
// work-item reads, next to the chunked scan's mappings. The result is a list of rewrite steps
// (map-to-glb@LOC:dim=1, ...) that lowers the program, so the lowering is part of the derivation.
#pragma once

#include <string>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

struct OpenCLMapping {
  std::string name;                         // "glb-1-0": level 0 -> mapGlb1, level 1 -> mapGlb0
  std::vector<rewrite::RewriteStep> steps;  // the lowering, in pre-order
  std::vector<int> globalDims;              // dimensions mapped with mapGlb (work-group size tunable)
  bool workGroups = false;                  // uses mapWrg/mapLcl
  // Dimensions launched with a work-group size of 1 (the mapLcl become loops of the one
  // work-item; "-local-result" mappings).
  std::vector<int> singleWorkItemDims;
  std::vector<Tunable>
      tunables;  // of the lowering ("threads", "combine" of reduce-to-tree; steps say "$threads")
};

struct MappingOptions {
  bool global = true;      // schemes with mapGlb
  bool workGroups = true;  // schemes with mapWrg/mapLcl
  // Also the "-local-result" variant of tiled reductions: the result tile in local memory and
  // work-groups of one work-item (for CPU devices, where a work-group's work-items run one after
  // another on one core anyway).
  bool localResultTile = false;
};

// The mappings of a program (each checked: every step applies, and the code generator's
// lowering check accepts the lowered program, or each kernel of it where a top-level reduction
// of a parallel map's results is finished by a second kernel: codegen/KernelSplit.h). Empty
// when the program has nothing to map (or only mappings that break the OpenCL rules or that no
// kernel can compute).
std::vector<OpenCLMapping> openclMappings(const rewrite::TypedProgram& p, const MappingOptions& options = {});

// The dimensions whose work-group size the launch sets: the mapGlb ones (tuned) and the
// single-work-item ones (1), sorted.
std::vector<int> launchDims(const OpenCLMapping& m);

// The levels of the program's computing maps (for tests and the heuristics): one entry per map
// in pre-order, -1 for maps that must stay sequential.
std::vector<int> computingMapLevels(const rewrite::TypedProgram& p);

}  // namespace lift::explore
