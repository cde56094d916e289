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
    std::optional<RewriteStep> step;
    for (const RewriteStep& s : mdHomRewrites(*start.program))
      if (s.rule->name == rule) {
        step = s;
        break;
      }
    if (!step) return true;
    rewrite::RewriteResult r = rewrite::applyRewrite(*start.program, *step);
    if (!r) return false;
    start.program = std::make_shared<const TypedProgram>(std::move(*r.program));
    start.steps.push_back(*step);
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
std::optional<MdHomStart> stridedChunks(const MdHomStart& start) {
  std::optional<RewriteStep> best;
  for (const RewriteStep& s : mdHomRewrites(*start.program)) {
    if (s.rule->name != "mdhom-split-strided") continue;
    if (best && !(best->loc == s.loc && best->params.integer("dim") < s.params.integer("dim"))) continue;
    best = s;
  }
  if (!best) return std::nullopt;
  rewrite::RewriteResult r = rewrite::applyRewrite(*start.program, *best);
  if (!r) return std::nullopt;
  MdHomStart split{std::make_shared<const TypedProgram>(std::move(*r.program)), start.steps};
  split.steps.push_back(*best);
  return split;
}

// The rows' reductions of an expanded split start over work-groups: the outermost map whose
// function reduces the joined results of a map over chunks split in two (map-fission), its
// chunks' sums one map and their sum per row another, which the code generator runs as two
// kernels (codegen/KernelSplit.h: a split GEMV); nothing when no such map-fission applies.
std::optional<MdHomStart> partialSumsApart(const MdHomStart& start) {
  rewrite::EnumerateOptions eo;
  eo.includeMacros = false;
  eo.families = {rewrite::Family::Fission};
  std::optional<RewriteStep> outermost;
  for (const RewriteStep& s : rewrite::enumerateRewrites(*start.program, eo))
    if (s.rule->name == "map-fission" && (!outermost || s.loc.isPrefixOf(outermost->loc))) outermost = s;
  if (!outermost) return std::nullopt;
  rewrite::RewriteResult r = rewrite::applyRewrite(*start.program, *outermost);
  if (!r) return std::nullopt;
  MdHomStart apart{std::make_shared<const TypedProgram>(std::move(*r.program)), start.steps};
  apart.steps.push_back(*outermost);
  return apart;
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
