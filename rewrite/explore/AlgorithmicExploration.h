// The seeds' first phase: algorithmic exploration. From the high-level program (for a program
// with md_homs: from the nests of map and reduce they mean, MdHomStarts.h; for a reduction of a
// map also from 001's schema of chunks per work-group, SplitReductionStarts.h), every
// algorithmic rewrite (macro rules such as register blocking and tiling included) is applied,
// breadth first, to a depth limit; programs are deduplicated by structural hash; the heuristics
// (Heuristics.h) drop derivations that repeat a rule and programs that nest too deeply or keep
// the multiplication far from its addition. The numeric parameters of the rewrites become
// tunables of the resulting templates, so that phase 3 tries other values.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <map>

#include "rewrite/Rule.h"
#include "rewrite/explore/DerivationTemplate.h"
#include "rewrite/explore/Heuristics.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::explore {

struct AlgorithmicOptions {
  int maxDepth = 5;          // rewrites per derivation (the Lift default exploration depth)
  size_t beamWidth = 48;     // programs expanded per level (the most promising first)
  size_t maxPrograms = 400;  // distinct programs kept in all
  double maxSeconds = 60;    // wall-clock limit of the phase
  HeuristicLimits heuristics;
  int preferredWidth = 0;  // vector width tried first (the device's preferred); 0: as found
  // Factors tried first, by "rule.parameter" (tile sizes for the device: preferredFactors), in
  // derivations that tile the reduction (tile-reduction*); others as found.
  std::map<std::string, int64_t> preferredFactors;
  // A CPU's vector units want lanes that are consecutive in memory: a derivation with such a
  // vectorize-lanes (vectorisesContiguousLanes) counts kContiguousLanesPromise more (templates:
  // where its tiles are in local memory) and its tiles take contiguousLaneFactors (blocks
  // counted in vectors; with the lanes before the tiling, its rows too) instead of
  // preferredFactors.
  bool preferContiguousLanes = false;
  // A map of row reductions (GEMV) also starts as contiguous blocks of rows per work-item, each
  // row on vectors of contiguous lanes, mapped "glb-0" (RowBlockStarts.h; for CPU devices).
  bool rowBlockStarts = false;
  std::map<std::string, int64_t> contiguousLaneFactors;
  // The rule families tried (the OpenCL, copy, size and stencil rules belong to later phases
  // or other programs).
  std::vector<rewrite::Family> families = {
      rewrite::Family::Fusion,    rewrite::Family::Fission,        rewrite::Family::SplitJoin,
      rewrite::Family::Reduce,    rewrite::Family::Scan,           rewrite::Family::Interchange,
      rewrite::Family::Transpose, rewrite::Family::Simplification, rewrite::Family::Vectorisation,
      rewrite::Family::Builtin,   rewrite::Family::Macro};
  // Rules never applied in this phase (they only make copies or undo others' work; the interchange
  // and reshape-map-map macros repeat rules the phase tries, or join-split; the other two macros
  // lower to OpenCL, a later phase).
  std::vector<std::string> excluded = {"add-id", "implement-id", "eta-expansion", "id-transpose-transpose",
                                       "split-join-id", "join-split", "interchange", "reshape-map-map",
                                       "map-composed-with-reduce-as-sequential",
                                       "userfun-composition-to-private",
                                       // applied by RowBlockStarts (CPU) only: the space of every
                                       // other derivation stays as it was on every device
                                       "userfun-fusion-lanes", "map-fission-zip-closure"};
};

struct AlgorithmicVariant {
  std::shared_ptr<const DerivationTemplate> tmpl;        // the phase-1 steps, with their tunables
  std::shared_ptr<const rewrite::TypedProgram> program;  // with the default values
  std::string hash;  // ir::structuralHash (programs are deduplicated up to renaming), hex
  int depth = 0;
};

struct AlgorithmicStats {
  size_t tried = 0;       // rewrites applied
  size_t duplicates = 0;  // programs seen before
  size_t rejected = 0;    // dropped by the heuristics
  size_t pruned = 0;      // not among the most promising of their level (the beam)
  size_t kept = 0;
  std::string stopReason;
};

// The variants, the start program first, then by depth. `progress` is called now and then.
std::vector<AlgorithmicVariant> exploreAlgorithmic(
    const SearchProblem& problem, const AlgorithmicOptions& options,
    const std::atomic<bool>* cancel = nullptr, AlgorithmicStats* stats = nullptr,
    const std::function<void(const AlgorithmicStats&)>& progress = {});

// Tunables for the numeric parameters of a rewrite step (factors and widths), named after the
// parameter (made unique against `taken`); the step's values become "$name" references.
// The value the step was applied with is tried first (for widths: `preferredWidth` if given,
// for factors: the one `preferredFactors` gives for "rule.parameter").
void makeTunable(rewrite::RewriteStep& step, std::vector<Tunable>& tunables, int preferredWidth = 0,
                 const std::map<std::string, int64_t>& preferredFactors = {});

// The tile and block sizes a search tries first on a GPU or a CPU: work-groups of 256 work-items
// (GPU: 64 x 64 tiles of 4 x 4 register blocks whose columns a work-item reads as one float4, K
// tiles of 16) or 64 (CPU: 32 x 32 tiles of 4 x 4 blocks, K tiles of 8), from which the tuning
// widens.
std::map<std::string, int64_t> preferredFactors(bool gpu);

// The factors tried first on a CPU for tiles whose elements are vectors of contiguous lanes.
std::map<std::string, int64_t> contiguousLaneFactors();

// What a vectorize-lanes of contiguous lanes adds to derivationPromise on a CPU: more than the
// rule's own score, so that such derivations come before those that leave the vectorisation of
// the block's columns to the OpenCL compiler.
constexpr int kContiguousLanesPromise = 6;

}  // namespace lift::explore
