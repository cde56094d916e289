// The CPU's start of a map of row reductions (see RowBlockStarts.h).
#include "rewrite/explore/RowBlockStarts.h"

#include <algorithm>
#include <optional>
#include <string>

#include "rewrite/Match.h"

namespace lift::explore {

namespace {

using ir::PatternKind;
using rewrite::RewriteStep;
using rewrite::TypedProgram;

// The number of rows when the root's body is map(f) $ rows or join o map(f) $ rows with a
// constant number of rows, a reduction in f, and one scalar a row (gemv's [float]1; matmul's rows
// of C, a map of reductions, are left to the tiled templates: one row at a time ran at 1 GFLOP/s
// at 1024³ and took the whole search budget).
std::optional<int64_t> reducedRows(const TypedProgram& p) {
  ir::Expr body = p.main()->body();
  if (rewrite::m::callOf(body, PatternKind::Join) && rewrite::m::argCount(body) == 1)
    body = rewrite::m::arg(body, 0);
  auto map = rewrite::m::mapCall(body, PatternKind::Map);
  if (!map || !ir::containsPattern(map->f, {PatternKind::Reduce})) return std::nullopt;
  Type t = p.types->typeOf(map->input);
  if (!t || !t.isArray() || !t.length().isCst()) return std::nullopt;
  Type out = p.types->typeOf(body);
  if (!out || !out.isArray()) return std::nullopt;
  Type row = out.elem();
  if (row.isArray()) {
    if (!row.length().isCst() || row.length().value() != 1) return std::nullopt;
    row = row.elem();
  }
  if (!row.isScalar()) return std::nullopt;
  return t.length().value();
}

// A later rewrite deeper in the program than the one chosen so far replaces it.
bool deeper(const RewriteStep& candidate, const RewriteStep& chosen) {
  return candidate.loc.steps().size() > chosen.loc.steps().size();
}

// Applies `rule` with `params` (a "$name" value as `values` gives it) where it first applies in
// pre-order or, with `prefer`, where `prefer` chooses.
bool applyStep(StartDerivation& d, const char* rule, const rewrite::ParamValues& params,
               const Assignment& values, const decltype(StepSelection::prefer)& prefer = nullptr) {
  return applySelectedStep(d, rule, {.prefer = prefer, .params = params, .values = values}) ==
         StepResult::Applied;
}

// The root's rows in blocks of "$rows", each row's reduction on vectors of "$width" lanes with
// the products fused into it: nullopt when a step does not apply.
std::optional<StartDerivation> rowBlocks(const TypedProgram& root, const std::vector<RewriteStep>& steps,
                                         const Assignment& values) {
  StartDerivation d{std::make_shared<const TypedProgram>(root), steps};
  if (!applyStep(d, "split-join", {{"n", "$rows"}}, values)) return std::nullopt;
  rewrite::ParamValues width{{"n", "$width"}};
  if (!applyStep(d, "vectorize-reduce", width, values)) return std::nullopt;
  if (!applyStep(d, "vectorize-map-zip", width, values) && !applyStep(d, "vectorize-map", width, values))
    return std::nullopt;
  if (!applyStep(d, "asvector-asscalar-id", {}, values)) return std::nullopt;
  if (!applyStep(d, "reduce-map-fusion", {}, values)) return std::nullopt;
  // add(acc, mult(p)) as one function, a fused multiply-add (mostly 1.4-1.6x faster on PoCL than the
  // multiplication and the addition as two statements).
  applyStep(d, "userfun-fusion-lanes", {}, values);
  return d;
}

// The rows of each block in groups of "$share" that one work-item reduces together, each vector
// of x loaded once for the group (1-D register blocking of the rows, as 003's matmul blocks the
// rows of A): the block's map split into groups, the group's reductions split off its epilogue
// (if any) and interchanged into one reduction over the group's columns with "$share" vector
// accumulators. Nullopt when a step does not apply.
std::optional<StartDerivation> sharedRows(StartDerivation d, const Assignment& values) {
  if (!applyStep(d, "split-join", {{"n", "$share"}}, values, deeper)) return std::nullopt;
  // Where an epilogue uses the row (gemv's y): map(row => post(row) o dot(row)) =>
  // map(q => post(q._0) $ q._1) $ zip(rows, map(dot) $ rows). Without one, the fissions below
  // apply to the group's map itself.
  applyStep(d, "map-fission-zip-closure", {}, values, deeper);
  // map(reduce(add) o asScalar o reduce(fma) o zip) => map(reduce(add)) o map(asScalar) o
  // map(reduce(fma)) o map(zip)
  for (int i = 0; i < 3; ++i)
    if (!applyStep(d, "map-fission", {}, values, deeper)) return std::nullopt;
  if (!applyStep(d, "map-reduce-interchange", {}, values, deeper)) return std::nullopt;
  return d;
}

}  // namespace

const std::vector<int64_t>& rowBlockWorkItems() {
  // At least 8: with 2 or 4 blocks a core taken by another process for a moment leaves half the
  // work waiting (PoCL schedules whole work-groups), and the searches' measurements favoured such
  // kernels by chance; 8 to 64 blocks ran alike on an idle VM.
  static const std::vector<int64_t> workItems = {8, 16, 32, 64};
  return workItems;
}

std::vector<RowBlockStart> rowBlockStarts(const TypedProgram& root, const std::vector<RewriteStep>& steps,
                                          int preferredWidth) {
  std::vector<RowBlockStart> out;
  std::optional<int64_t> rows = reducedRows(root);
  if (!rows) return out;
  std::vector<int64_t> blocks;
  for (int64_t workItems : rowBlockWorkItems())
    if (*rows % workItems == 0 && *rows / workItems > 1) blocks.push_back(*rows / workItems);
  std::vector<int64_t> widths = {16, 8, 4};
  if (auto it = std::find(widths.begin(), widths.end(), preferredWidth); it != widths.end())
    std::rotate(widths.begin(), it, it + 1);
  if (blocks.empty()) return out;
  // The first width with which the steps apply (the row's length a multiple of it).
  for (size_t w = 0; w < widths.size(); ++w) {
    std::optional<StartDerivation> d =
        rowBlocks(root, steps, {{"rows", blocks.front()}, {"width", widths[w]}});
    if (!d) continue;
    std::vector<int64_t> good(widths.begin() + static_cast<std::ptrdiff_t>(w), widths.end());
    Tunable rowsTunable{"rows", "rows of a work-item's block (split-join n)", blocks, false, false, 1};
    Tunable widthTunable{"width", "vector width along the rows", good, false, false, 1};
    // The same blocks with the rows reduced in groups sharing x (first: it streamed at 1.1-1.4x
    // OpenBLAS's sgemv on PoCL where one row at a time ran at 0.8-0.9x, measured in turns).
    std::vector<int64_t> shares;
    for (int64_t share : {4, 8, 2})
      if (blocks.front() % share == 0) shares.push_back(share);
    if (!shares.empty())
      if (std::optional<StartDerivation> shared =
              sharedRows(*d, {{"rows", blocks.front()}, {"width", widths[w]}, {"share", shares.front()}})) {
        RowBlockStart s{std::move(*shared), {rowsTunable, widthTunable}};
        s.tunables.push_back({"share",
                              "rows of a block reduced together, sharing each load of the vector "
                              "(split-join n)",
                              shares, false, false, 1});
        out.push_back(std::move(s));
      }
    out.push_back(RowBlockStart{std::move(*d), {rowsTunable, widthTunable}});
    break;
  }
  return out;
}

}  // namespace lift::explore
