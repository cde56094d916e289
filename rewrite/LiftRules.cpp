// Lift's named rules and why some are left out (see LiftRules.h). Enumerated from lift-project/lift
// at commit 5e8a18df (src/main/rewriting/rules/*.scala, macrorules/*.scala).
#include "rewrite/LiftRules.h"

#include <algorithm>

namespace lift::rewrite {

namespace {

constexpr std::string_view kEnabling =
    "EnablingRules' form fissions the map first to expose the pattern; map-fission followed by the rule "
    "in a strategy does the same";
constexpr std::string_view kSlideSeq =
    "the 2-D and 3-D forms of map-seq-slide (MapSeqSlideRewrite's macros) are not ported yet: map-seq-slide "
    "applies to one dimension";
constexpr std::string_view kSearch =
    "these lower Lift's abstract Search pattern, which is not here: programs use bSearch and lSearch "
    "directly";

const std::vector<LiftRule> kRules = {
    // rules/CopyRules.scala
    {"CopyRules", "implementOneLevelOfId", ""},
    {"CopyRules", "implementIdAsDeepCopy", ""},
    {"CopyRules", "addId", ""},
    {"CopyRules", "addIdRed", ""},
    {"CopyRules", "addIdAfterReduce", ""},
    {"CopyRules", "addIdValue",
     "scalar literals are written into the kernel where they are used, so there is nothing to copy"},
    {"CopyRules", "addIdForMapWrgParam", ""},
    {"CopyRules", "addIdForMapParam", "add-id at the element inside the map's function gives map(f o id)"},
    {"CopyRules", "addIdBeforeMapLcl", ""},
    {"CopyRules", "addIdBeforeMapSeq", "add-id at the input of the mapSeq gives mapSeq(f) o id"},
    {"CopyRules", "addIdForCurrentValueInReduce", ""},
    {"CopyRules", "addCopy", "add-id followed by implement-id-deep gives the same deep copy"},
    {"CopyRules", "tupleToStruct",
     "tuples of scalars are OpenCL structs already; the code generator copies them without a rule"},
    // macrorules/EnablingRules.scala
    // A private val of EnablingRules, the rule transposeMapMap applies after its fission.
    {"EnablingRules", "transposeMapMapNoFission", ""},
    {"EnablingRules", "transposeMapMap", kEnabling},
    {"EnablingRules", "mapTransposeTransposeMapTranspose", kEnabling},
    {"EnablingRules", "transposeMapSplit", kEnabling},
    {"EnablingRules", "mapSplitTranspose", kEnabling},
    {"EnablingRules", "movingJoin", ""},
    {"EnablingRules", "movingSplit", ""},
    // rules/FissionRules.scala
    {"FissionRules", "extractFromMap", ""},
    {"FissionRules", "mapFission", ""},
    {"FissionRules", "mapFissionCreateZip", ""},
    {"FissionRules", "mapFissionWithZipInside", ""},
    {"FissionRules", "mapFissionWithZipOutside", ""},
    {"FissionRules", "tupleFission", ""},
    // rules/FusionRules.scala
    {"FusionRules", "reduceSeqMapSeqFusion", ""},
    {"FusionRules", "mapFusion", ""},
    {"FusionRules", "mapFusionWithZip", ""},
    {"FusionRules", "fuseZipTuple", ""},
    {"FusionRules", "reduceFusionInZip", ""},
    {"FusionRules", "tupleMap", ""},
    {"FusionRules", "mapFusionInZip", ""},
    // rules/InterchangeRules.scala
    {"InterchangeRules", "mapMapTransposeZipOutside", ""},
    {"InterchangeRules", "transposeBothSides", ""},
    {"InterchangeRules", "mapMapTransposeZipInside", ""},
    {"InterchangeRules", "mapMapInterchange", ""},
    {"InterchangeRules", "mapReduceInterchange", ""},
    {"InterchangeRules", "mapReduceInterchangeWithZipOutside", ""},
    {"InterchangeRules", "mapReducePartialReduce", ""},
    // rules/IterateRules.scala
    {"IterateRules", "iterate1", ""},
    {"IterateRules", "iterateId", ""},
    // macrorules/MacroRules.scala
    {"MacroRules", "userFunCompositionToPrivate", ""},
    {"MacroRules", "mapComposedWithReduceAsSequential", ""},
    {"MacroRules", "mapFissionAtPosition",
     "a helper of Lift's macros (fission at the n-th call of a chain): map-fission at a location in a "
     "strategy"},
    {"MacroRules", "reshapeMapMap", ""},
    {"MacroRules", "vectorizeReduce", ""},
    {"MacroRules", "partialReduceWithReorder",
     "a macro of reduce-partial, partred-reorder, partred-split-join and reorder-both-sides; a strategy "
     "of those does the same"},
    {"MacroRules", "splitJoinId",
     "moves a split through maps to the join it cancels: split-map, map-join and split-join-id in a "
     "strategy"},
    {"MacroRules", "reduceMapFusion", ""},
    {"MacroRules", "moveReduceOutOneLevel",
     "the interchange macro here covers it: it fissions the map once and applies the map-reduce "
     "interchange that fits (Lift's fissions at any depth of the call chain)"},
    {"MacroRules", "mapMapInterchange",
     "the interchange macro here covers it: it fissions the map once and applies the map-map "
     "interchange that fits (Lift's fissions at any depth of the call chain)"},
    {"MacroRules", "interchange", ""},
    // macrorules/MapSeqSlideRewrite.scala
    {"MapSeqSlideRewrite", "mapSeqSlide2DSeq", kSlideSeq},
    {"MapSeqSlideRewrite", "mapSeqSlide2D", kSlideSeq},
    {"MapSeqSlideRewrite", "mapSeqSlide3DSlideNDSeq", kSlideSeq},
    {"MapSeqSlideRewrite", "mapSeqSlide3DSlideND", kSlideSeq},
    // rules/OpenCLRules.scala
    {"OpenCLRules", "mapSeq", ""},
    {"OpenCLRules", "mapGlb", ""},
    {"OpenCLRules", "mapWrg", ""},
    {"OpenCLRules", "mapAtomWrg", ""},
    {"OpenCLRules", "mapLcl", ""},
    {"OpenCLRules", "mapAtomLcl", ""},
    {"OpenCLRules", "mapWarp", ""},
    {"OpenCLRules", "mapLane", ""},
    {"OpenCLRules", "privateMemory", ""},
    {"OpenCLRules", "localMemory", ""},
    {"OpenCLRules", "globalMemory", ""},
    {"OpenCLRules", "dotBuiltin", ""},
    {"OpenCLRules", "dotBuiltinSeq", ""},
    {"OpenCLRules", "vectorize", ""},
    {"OpenCLRules", "vectorizeToAddressSpace", ""},
    {"OpenCLRules", "vectorizeMapZip", ""},
    {"OpenCLRules", "partialReduceVectorize", ""},
    {"OpenCLRules", "reduceSeq", ""},
    {"OpenCLRules", "reduceSeqUnroll", ""},
    // rules/ReduceRules.scala
    {"ReduceRules", "partialReduce", ""},
    {"ReduceRules", "partialReduceToReduce", ""},
    {"ReduceRules", "partialReduceReorder", ""},
    {"ReduceRules", "partialReduceSplitJoin", ""},
    // macrorules/ReuseRules.scala
    {"ReuseRules", "tileMapMap", ""},
    {"ReuseRules", "apply1DRegisterBlocking", ""},
    {"ReuseRules", "apply2DRegisterBlocking", ""},
    {"ReuseRules", "apply2DRegisterBlockingNoReorder", ""},
    {"ReuseRules", "tileTranspose", "tiling followed by move-transpose-inside-tiling in a strategy"},
    {"ReuseRules", "finishRectangularTiles",
     "a fixed sequence of map-hoist, map-fission, map-transpose-split and map-split-transpose after "
     "move-transpose-inside-tiling; a strategy of those does the same"},
    {"ReuseRules", "moveTransposeInsideTiling", ""},
    {"ReuseRules", "finishTiling", ""},
    {"ReuseRules", "introduceReuseFromMap",
     "split-join or reduce-partial with partred-split-join inside the map, then the interchange macro, "
     "in a strategy"},
    // rules/Rules.scala
    {"Rules", "slidePromotion", ""},
    {"Rules", "slideSwap", ""},
    {"Rules", "joinSwap", ""},
    {"Rules", "transposeSwap", ""},
    {"Rules", "slideTransposeSwap", ""},
    {"Rules", "slideTransposeReordering", ""},
    {"Rules", "transposeMapJoinReordering", ""},
    {"Rules", "idTransposeTranspose", ""},
    {"Rules", "gatherToScatter",
     "sound only for an index function that is its own inverse (reverse); map-gather-commute and "
     "map-scatter-commute move maps past gather and scatter instead"},
    {"Rules", "scatterToGather",
     "sound only for an index function that is its own inverse (reverse); scatter-map-commute and "
     "gather-map-commute move maps past scatter and gather instead"},
    {"Rules", "slideTiling", ""},
    {"Rules", "mapSeqSlide", ""},
    {"Rules", "mapSeqSlideSeq", ""},
    {"Rules", "splitJoin", ""},
    {"Rules", "splitJoinMapSeq", ""},
    {"Rules", "joinSplit", ""},
    {"Rules", "splitJoinReduce", ""},
    {"Rules", "reorderBothSidesWithStride", ""},
    {"Rules", "mapSplitTranspose", ""},
    {"Rules", "mapTransposeSplit", ""},
    {"Rules", "transposeMapSplit", ""},
    {"Rules", "splitTranspose", ""},
    {"Rules", "mapTransposeTransposeMapTranspose", ""},
    {"Rules", "splitIntoZip", ""},
    {"Rules", "joinFromZip", ""},
    {"Rules", "transposeMapTransposeReorder", ""},
    {"Rules", "reorderTranspose", ""},
    {"Rules", "bSearch", kSearch},
    {"Rules", "lSearch", kSearch},
    {"Rules", "absSearchB", kSearch},
    {"Rules", "absSearchL", kSearch},
    // rules/SimplificationRules.scala
    {"SimplificationRules", "asScalarAsVectorId", ""},
    {"SimplificationRules", "asVectorAsScalarId", ""},
    {"SimplificationRules", "transposeTransposeId", ""},
    {"SimplificationRules", "transposeTransposeId2", ""},
    {"SimplificationRules", "joinSplitId", ""},
    {"SimplificationRules", "splitJoinId", ""},
    {"SimplificationRules", "scatterGatherId", ""},
    {"SimplificationRules", "gatherScatterId", ""},
    {"SimplificationRules", "removeDuplicateZipArg", ""},
    {"SimplificationRules", "flattenZips", ""},
    {"SimplificationRules", "removeEmptyMap", ""},
    {"SimplificationRules", "lambdaInline", ""},
    {"SimplificationRules", "lambdaInlineParam", ""},
    {"SimplificationRules", "tupleInline", ""},
    {"SimplificationRules", "dropId", ""},
    // macrorules/SlideTiling.scala
    {"SlideTiling", "tileStencils", ""},
    {"SlideTiling", "tileSlide2D", ""},
    {"SlideTiling", "tile2DStencils", ""},
    {"SlideTiling", "tile2DStencilsZip",
     "2-D tiling of stencils over two zipped grids, one pattern match in Lift; tile-2d-stencils tiles "
     "the stencils of one grid"},
    {"SlideTiling", "tile2DStencilsZip6",
     "2-D tiling of stencils over six zipped grids, one pattern match in Lift; tile-2d-stencils tiles "
     "the stencils of one grid"},
};

bool nameIsShared(std::string_view name) {
  return std::count_if(kRules.begin(), kRules.end(), [&](const LiftRule& l) { return l.name == name; }) > 1;
}

}  // namespace

std::string LiftRule::qualifiedName() const {
  return nameIsShared(name) ? std::string(file) + "." + std::string(name) : std::string(name);
}

const std::vector<LiftRule>& liftRules() { return kRules; }

std::vector<std::string> liftNamesOf(const Rule& r) {
  std::vector<std::string> out;
  if (r.lift == "new") return out;
  size_t start = 0;
  while (start <= r.lift.size()) {
    size_t comma = r.lift.find(", ", start);
    out.push_back(r.lift.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return out;
}

const LiftRule* findLiftRule(std::string_view name) {
  for (const LiftRule& l : kRules)
    if (l.qualifiedName() == name) return &l;
  return nullptr;
}

std::vector<const Rule*> rulesCorrespondingTo(const LiftRule& l, const RuleRegistry& registry) {
  std::vector<const Rule*> out;
  std::string q = l.qualifiedName();
  for (const Rule* r : registry.rules()) {
    auto names = liftNamesOf(*r);
    if (std::find(names.begin(), names.end(), q) != names.end()) out.push_back(r);
  }
  return out;
}

}  // namespace lift::rewrite
