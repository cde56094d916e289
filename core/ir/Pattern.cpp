// The pattern table: names, levels and the families the rewrite rules and the code generator
// ask about. Everything derives from the LIFT_PATTERNS X-macro in Pattern.h.
#include "core/ir/Pattern.h"

#include <array>

namespace lift::ir {

namespace {

struct PatternInfo {
  std::string_view name;
  PatternLevel level;
};

constexpr std::array kPatterns = {
#define LIFT_PATTERN_INFO(E, name, level) PatternInfo{name, PatternLevel::level},
    LIFT_PATTERNS(LIFT_PATTERN_INFO)
#undef LIFT_PATTERN_INFO
};

}  // namespace

std::string_view patternName(PatternKind k) { return kPatterns[static_cast<size_t>(k)].name; }

PatternLevel patternLevel(PatternKind k) { return kPatterns[static_cast<size_t>(k)].level; }

std::optional<PatternKind> patternByName(std::string_view name) {
  for (size_t i = 0; i < kPatterns.size(); ++i)
    if (kPatterns[i].name == name) return static_cast<PatternKind>(i);
  return std::nullopt;
}

bool isMapLike(PatternKind k) {
  switch (k) {
    case PatternKind::Map:
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapSeq:
    case PatternKind::MapSeqUnroll:
    case PatternKind::MapVec:
    case PatternKind::MapWarp:
    case PatternKind::MapLane:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
      return true;
    default:
      return false;
  }
}

bool hasMapDimension(PatternKind k) { return k == PatternKind::MapGlb || isWorkGroupMap(k) || isLocalMap(k); }

bool isWorkGroupMap(PatternKind k) { return k == PatternKind::MapWrg || k == PatternKind::MapAtomWrg; }

bool isLocalMap(PatternKind k) { return k == PatternKind::MapLcl || k == PatternKind::MapAtomLcl; }

bool isParallelMap(PatternKind k) {
  return hasMapDimension(k) || k == PatternKind::MapWarp || k == PatternKind::MapLane;
}

bool isReduceLike(PatternKind k) {
  switch (k) {
    case PatternKind::Reduce:
    case PatternKind::ReduceSeq:
    case PatternKind::ReduceSeqUnroll:
    case PatternKind::PartRed:
      return true;
    default:
      return false;
  }
}

bool isDataDependentSeq(PatternKind k) {
  switch (k) {
    case PatternKind::BSearch:
    case PatternKind::LSearch:
    case PatternKind::ReduceWhileSeq:
    case PatternKind::FilterSeq:
    case PatternKind::InsertionSort:
      return true;
    default:
      return false;
  }
}

bool isScanLike(PatternKind k) { return k == PatternKind::Scan || k == PatternKind::ScanSeq; }

bool isDataLayout(PatternKind k) {
  switch (k) {
    case PatternKind::Zip:
    case PatternKind::Unzip:
    case PatternKind::Split:
    case PatternKind::Join:
    case PatternKind::Transpose:
    case PatternKind::Gather:
    case PatternKind::Scatter:
    case PatternKind::Slide:
    case PatternKind::Pad:
    case PatternKind::Get:
    case PatternKind::Tuple:
    case PatternKind::AsVector:
    case PatternKind::AsScalar:
    case PatternKind::ReorderStride:
    case PatternKind::PairVV:
    case PatternKind::PairMV:
    case PatternKind::PairMM:
    case PatternKind::Head:
    case PatternKind::Tail:
      return true;
    default:
      return false;
  }
}

bool isMdHomView(PatternKind k) {
  return k == PatternKind::PairVV || k == PatternKind::PairMV || k == PatternKind::PairMM;
}

bool isAddressSpace(PatternKind k) {
  return k == PatternKind::ToGlobal || k == PatternKind::ToLocal || k == PatternKind::ToPrivate;
}

// ----- issue 16: the array generators -----
bool isArrayGenerator(PatternKind k) { return generatorDims(k) > 0; }

int generatorDims(PatternKind k) {
  switch (k) {
    case PatternKind::ArrayFromValue:
    case PatternKind::ArrayFromGenerator:
    case PatternKind::ArrayFromUserFun:
      return 1;
    case PatternKind::Array2DFromUserFun:
      return 2;
    case PatternKind::Array3DFromUserFun:
      return 3;
    default:
      return 0;
  }
}

}  // namespace lift::ir
