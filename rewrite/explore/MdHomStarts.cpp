// The starts of a search of an md_hom program (see MdHomStarts.h).
#include "rewrite/explore/MdHomStarts.h"

#include <optional>
#include <string_view>

#include "core/ir/IR.h"

namespace lift::explore {

namespace {

using rewrite::RewriteStep;
using rewrite::TypedProgram;

std::vector<RewriteStep> mdHomRewrites(const TypedProgram& p) {
  rewrite::EnumerateOptions eo;
  eo.includeMacros = false;
  eo.allParameterChoices = true;
  eo.families = {rewrite::Family::MdHom};
  return rewrite::enumerateRewrites(p, eo);
}

bool hasMdHomNodes(const TypedProgram& p) {
  for (const RewriteStep& s : mdHomRewrites(p))
    if (s.rule->name == "mdhom-to-map-reduce" || s.rule->name == "mdhom-view-to-zip") return true;
  return false;
}

// Applies `rule` wherever it applies, one location at a time, until it applies nowhere.
bool applyEverywhere(MdHomStart& start, std::string_view rule) {
  for (;;) {
    StepResult r = applySelectedStep(start, rule, {.allParameterChoices = true});
    if (r != StepResult::Applied) return r == StepResult::NoRewrite;
  }
}

// The md_homs as nests, the views as zips; nothing if an md_hom is left.
std::optional<MdHomStart> expanded(MdHomStart start) {
  if (!applyEverywhere(start, "mdhom-to-map-reduce") || !applyEverywhere(start, "mdhom-view-to-zip"))
    return std::nullopt;
  if (ir::containsPattern(start.program->main()->body(), {ir::PatternKind::MdHom})) return std::nullopt;
  return start;
}

// The first md_hom's innermost reduced dimension split into strided chunks: the offered split
// of the highest dimension, with its first chunk size (the search tunes it).
std::optional<MdHomStart> stridedChunks(MdHomStart start) {
  StepSelection highestDim{.allParameterChoices = true,
                           .prefer = [](const RewriteStep& s, const RewriteStep& best) {
                             return best.loc == s.loc && best.params.integer("dim") < s.params.integer("dim");
                           }};
  if (applySelectedStep(start, "mdhom-split-strided", highestDim) != StepResult::Applied) return std::nullopt;
  return start;
}

// The rows' reductions of an expanded split start over work-groups: the outermost map whose
// function reduces the joined results of a map over chunks split in two (map-fission), its
// chunks' sums one map and their sum per row another, which the code generator runs as two
// kernels (codegen/KernelSplit.h: a split GEMV); nothing when no such map-fission applies.
std::optional<MdHomStart> partialSumsApart(MdHomStart start) {
  StepSelection outermost{
      .prefer = [](const RewriteStep& s, const RewriteStep& chosen) { return s.loc.isPrefixOf(chosen.loc); }};
  if (applySelectedStep(start, "map-fission", outermost) != StepResult::Applied) return std::nullopt;
  return start;
}

}  // namespace

std::vector<MdHomStart> mdHomStarts(const TypedProgram& program) {
  std::vector<MdHomStart> out;
  if (!hasMdHomNodes(program)) return out;
  MdHomStart original{std::make_shared<const TypedProgram>(program), {}};
  if (auto e = expanded(original)) out.push_back(std::move(*e));
  if (auto split = stridedChunks(original))
    if (auto e = expanded(std::move(*split))) {
      std::optional<MdHomStart> apart = partialSumsApart(*e);
      out.push_back(std::move(*e));
      if (apart) out.push_back(std::move(*apart));
    }
  return out;
}

}  // namespace lift::explore
