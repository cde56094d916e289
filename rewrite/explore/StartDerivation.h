// StartDerivation: where a search starts besides the searched program — a program and the rewrite
// steps that reach it from the searched one — built one rule at a time: applySelectedStep
// enumerates one rule's rewrites of the program, applies the one that a selection picks and
// records it. The starts of md_homs (MdHomStarts.h) and of reductions of maps
// (SplitReductionStarts.h) are such derivations.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

struct StartDerivation {
  std::shared_ptr<const rewrite::TypedProgram> program;
  std::vector<rewrite::RewriteStep> steps;  // from the searched program
};

// Which of a rule's rewrites applySelectedStep applies, and with which parameters.
struct StepSelection {
  // One rewrite per applicable parameter choice (EnumerateOptions::allParameterChoices).
  bool allParameterChoices = false;
  // Whether `candidate`, a later rewrite (locations in pre-order), replaces `chosen`, the one
  // chosen so far; null: the first rewrite is chosen.
  std::function<bool(const rewrite::RewriteStep& candidate, const rewrite::RewriteStep& chosen)> prefer;
  // When set, the chosen rewrite's parameters are these instead: a value "$name" is recorded as
  // it is and applied as `values` gives it (as it is when `values` has no `name`).
  std::optional<rewrite::ParamValues> params;
  Assignment values;
};

enum class StepResult { Applied, NoRewrite, Failed };

// Applies the rewrite of `rule` (a rule of the registry; no macros) that `how` selects among
// those of d's program, and records it: Applied; NoRewrite when the rule applies nowhere (d
// unchanged), Failed when the chosen rewrite does not apply with the chosen parameters (d
// unchanged).
StepResult applySelectedStep(StartDerivation& d, std::string_view rule, const StepSelection& how = {});

}  // namespace lift::explore
