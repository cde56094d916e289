// The closed list of Lift patterns, declared once: name, family and arity of static parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace lift::ir {

// X-macro: (Enum, "name in the language", level) with level Algo(rithmic) or OpenCL. MapWarp,
// MapLane, MapAtomWrg, MapAtomLcl (issue 17, lift17w): warp maps and atomic work distribution.
#define LIFT_PATTERNS(X)                                                   \
  X(Map, "map", Algo)                                                      \
  X(Reduce, "reduce", Algo)                                                \
  X(PartRed, "partRed", Algo)                                              \
  X(Zip, "zip", Algo)                                                      \
  X(Unzip, "unzip", Algo)                                                  \
  X(Split, "split", Algo)                                                  \
  X(Join, "join", Algo)                                                    \
  X(Transpose, "transpose", Algo)                                          \
  X(Gather, "gather", Algo)                                                \
  X(Scatter, "scatter", Algo)                                              \
  X(Slide, "slide", Algo)                                                  \
  X(Pad, "pad", Algo)                                                      \
  X(Iterate, "iterate", Algo)                                              \
  X(Get, "get", Algo)                                                      \
  X(Tuple, "tuple", Algo)                                                  \
  X(Id, "id", Algo)                                                        \
  X(AsVector, "asVector", Algo)                                            \
  X(AsScalar, "asScalar", Algo)                                            \
  X(Vectorize, "vectorize", Algo)                                          \
  X(MdHom, "md_hom", Algo)                                                 \
  X(PairVV, "pair_vv", Algo)                                               \
  X(PairMV, "pair_mv", Algo)                                               \
  X(PairMM, "pair_mm", Algo)                                               \
  X(MapGlb, "mapGlb", OpenCL)                                              \
  X(MapWrg, "mapWrg", OpenCL)                                              \
  X(MapLcl, "mapLcl", OpenCL)                                              \
  X(MapSeq, "mapSeq", OpenCL)                                              \
  X(MapSeqUnroll, "mapSeqUnroll", OpenCL)                                  \
  X(MapVec, "mapVec", OpenCL)                                              \
  X(ReduceSeq, "reduceSeq", OpenCL)                                        \
  X(ReduceSeqUnroll, "reduceSeqUnroll", OpenCL)                            \
  X(ToGlobal, "toGlobal", OpenCL)                                          \
  X(ToLocal, "toLocal", OpenCL)                                            \
  X(ToPrivate, "toPrivate", OpenCL)                                        \
  X(Dot, "dot", OpenCL)                                                    \
  X(ReorderStride, "reorderStride", OpenCL)                                \
  X(Scan, "scan", Algo)                                                    \
  X(ScanSeq, "scanSeq", OpenCL)                                            \
  X(At, "at", Algo)                                                        \
  X(CheckedAt, "checkedAt", Algo)                                          \
  X(Head, "head", Algo)                                                    \
  X(Tail, "tail", Algo)                                                    \
  X(Filter, "filter", Algo)                                                \
  X(Let, "let", Algo)                                                      \
  X(Fma, "fma", Algo)                                                      \
  X(TransposeW, "transposeW", Algo)                                        \
  X(MapWarp, "mapWarp", OpenCL)                                            \
  X(MapLane, "mapLane", OpenCL)                                            \
  X(MapAtomWrg, "mapAtomWrg", OpenCL)                                      \
  X(MapAtomLcl, "mapAtomLcl", OpenCL)                                      \
  /* ----- issue 16: MapSeqSlide, the array generators ----- */            \
  X(MapSeqSlide, "mapSeqSlide", OpenCL)                                    \
  X(ArrayFromValue, "arrayFromValue", Algo)                                \
  X(ArrayFromGenerator, "arrayFromGenerator", Algo)                        \
  X(ArrayFromUserFun, "arrayFromUserFun", Algo)                            \
  X(Array2DFromUserFun, "array2DFromUserFun", Algo)                        \
  X(Array3DFromUserFun, "array3DFromUserFun", Algo)                        \
  /* ----- issue 17 (lift17p): searches, early exit, filter, sort ----- */ \
  X(BSearch, "bSearch", OpenCL)                                            \
  X(LSearch, "lSearch", OpenCL)                                            \
  X(ReduceWhileSeq, "reduceWhileSeq", OpenCL)                              \
  X(FilterSeq, "filterSeq", OpenCL)                                        \
  X(InsertionSort, "insertionSortSeq", OpenCL)

enum class PatternKind : uint8_t {
#define LIFT_PATTERN_ENUM(E, name, level) E,
  LIFT_PATTERNS(LIFT_PATTERN_ENUM)
#undef LIFT_PATTERN_ENUM
};

enum class PatternLevel : uint8_t { Algo, OpenCL };

std::string_view patternName(PatternKind k);
PatternLevel patternLevel(PatternKind k);
std::optional<PatternKind> patternByName(std::string_view name);

// Maps of every flavour (map, mapGlb, mapWrg, mapLcl, mapSeq, mapSeqUnroll, mapVec, mapWarp,
// mapLane, mapAtomWrg, mapAtomLcl).
bool isMapLike(PatternKind k);
// Maps that take a dimension 0..2 (mapGlb, mapWrg, mapLcl, mapAtomWrg, mapAtomLcl).
bool hasMapDimension(PatternKind k);
// Maps over the work-groups (mapWrg; mapAtomWrg, which hands out the indices through an atomic
// counter in global memory).
bool isWorkGroupMap(PatternKind k);
// Maps over the work-items of a work-group (mapLcl; mapAtomLcl, which hands out the indices
// through an atomic counter in local memory).
bool isLocalMap(PatternKind k);
// Maps that run in parallel: over all work-items, work-groups, work-items of a work-group, the
// warps of a work-group or the lanes of a warp.
bool isParallelMap(PatternKind k);
// Reductions of every flavour (reduce, reduceSeq, reduceSeqUnroll, partRed).
bool isReduceLike(PatternKind k);
// Scans of every flavour (scan, scanSeq): exclusive prefix scans with an initial value.
bool isScanLike(PatternKind k);
// Patterns that only reorganise data and generate no code by themselves (split, join, zip, ...).
bool isDataLayout(PatternKind k);
// The views of seed 001 (pair_vv, pair_mv, pair_mm): several arrays fused into the one
// multi-dimensional array of pairs an md_hom takes.
bool isMdHomView(PatternKind k);
// The sequential patterns whose loops may stop early or whose result depends on the data
// (bSearch, lSearch, reduceWhileSeq, filterSeq, insertionSortSeq): their functions run in order
// in one work-item.
bool isDataDependentSeq(PatternKind k);
// Address-space wrappers (toGlobal, toLocal, toPrivate).
bool isAddressSpace(PatternKind k);

// ----- issue 16: the array generators -----
// Arrays computed from their indices, never stored (Lift's ArrayFromValue, ArrayFromGenerator,
// ArrayFrom(2D|3D)UserFunGenerator; SkelCL's IndexVector/IndexMatrix): arrayFromValue(v, N)
// (one argument, v), and the others, called with no argument.
bool isArrayGenerator(PatternKind k);
// The number of dimensions a generator makes (1 for arrayFromValue and arrayFromGenerator).
int generatorDims(PatternKind k);

}  // namespace lift::ir
