// The schema's starts of a reduction of a map (see SplitReductionStarts.h).
#include "rewrite/explore/SplitReductionStarts.h"

#include <algorithm>
#include <optional>
#include <string>

#include "rewrite/Match.h"

namespace lift::explore {

namespace {

using ir::PatternKind;
using rewrite::RewriteStep;
using rewrite::TypedProgram;

// The numbers of work-groups a chunk size is chosen for, preferred first: an H100's 132 cores
// take a few work-groups of 256 work-items each, and every work-item then reads many elements.
const std::vector<int64_t> kGroups = {1024, 512, 2048, 256, 4096, 128};
// Chunks are multiples of the smallest tree's work-items (OpenCLMapping's 32).
constexpr int64_t kChunkMultiple = 32;

// The length of the reduced array when the root's body is reduce(f, z) o map(g) $ data with a
// constant length (the searched sizes).
std::optional<int64_t> reducedMapLength(const TypedProgram& p) {
  auto r = rewrite::m::reduceCall(p.main()->body(), PatternKind::Reduce);
  if (!r || !rewrite::m::mapCall(r->input, PatternKind::Map)) return std::nullopt;
  Type t = p.types->typeOf(r->input);
  if (!t || !t.isArray() || !t.length().isCst()) return std::nullopt;
  return t.length().value();
}

// Chunk sizes (in elements of `width` lanes) for the preferred numbers of work-groups.
std::vector<int64_t> chunkValues(int64_t length, int64_t width) {
  std::vector<int64_t> out;
  for (int64_t groups : kGroups)
    if (length % (groups * width * kChunkMultiple) == 0) out.push_back(length / (groups * width));
  return out;
}

// Applies `rule` at the first location (pre-order) where it applies, with `params`, whose
// values "$name" are recorded as they are and applied as `values` gives them; false when the rule
// applies nowhere or not with these values.
bool applyFirst(StartDerivation& d, const char* rule, const rewrite::ParamValues& params,
                const Assignment& values) {
  return applySelectedStep(d, rule, {.params = params, .values = values}) == StepResult::Applied;
}

// The root split into chunks of "$chunk" elements (vectors of "$width" lanes when width > 1),
// each chunk's reduction with the map fused: nullopt when a step does not apply.
std::optional<StartDerivation> splitReduction(const TypedProgram& root, const std::vector<RewriteStep>& steps,
                                              const Assignment& values, bool vectors) {
  StartDerivation d{std::make_shared<const TypedProgram>(root), steps};
  if (!applyFirst(d, "reduce-partial", {{"m", "$chunk"}}, values)) return std::nullopt;
  if (vectors) {
    // reduce o asScalar o partRed(vf) o asVector o map(g): the map on vectors, asVector o
    // asScalar cancelled.
    rewrite::ParamValues width{{"n", "$width"}};
    if (!applyFirst(d, "partial-reduce-vectorize", width, values)) return std::nullopt;
    if (!applyFirst(d, "vectorize-map-zip", width, values) && !applyFirst(d, "vectorize-map", width, values))
      return std::nullopt;
    if (!applyFirst(d, "asvector-asscalar-id", {}, values)) return std::nullopt;
  }
  // reduce o join o map(reduce) o split(C) o map(g), the map moved into the chunks and fused.
  for (const char* rule : {"partred-map-reduce", "split-map", "map-fusion"})
    if (!applyFirst(d, rule, {}, values)) return std::nullopt;
  return d;
}

}  // namespace

std::vector<SplitReductionStart> splitReductionStarts(const TypedProgram& root,
                                                      const std::vector<RewriteStep>& steps,
                                                      int preferredWidth) {
  std::vector<SplitReductionStart> out;
  std::optional<int64_t> length = reducedMapLength(root);
  if (!length) return out;
  std::vector<int64_t> widths = {4, 8, 2};
  if (auto it = std::find(widths.begin(), widths.end(), preferredWidth); it != widths.end())
    std::rotate(widths.begin(), it, it + 1);
  for (int64_t width : {int64_t{1}, widths.front()}) {
    std::vector<int64_t> chunks = chunkValues(*length, width);
    if (chunks.empty()) continue;
    std::optional<StartDerivation> d =
        splitReduction(root, steps, {{"chunk", chunks.front()}, {"width", width}}, width > 1);
    if (!d) continue;
    SplitReductionStart s{std::move(*d), {}};
    s.tunables.push_back(
        {"chunk", "elements of a work-group's chunk (reduce-partial m)", chunks, false, false, 1});
    if (width > 1)
      s.tunables.push_back({"width", "vector width of the chunks' elements", widths, false, false, 1});
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace lift::explore
