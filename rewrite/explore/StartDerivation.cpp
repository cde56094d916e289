// Applying one selected rewrite of a rule to a start's derivation (see StartDerivation.h).
#include "rewrite/explore/StartDerivation.h"

#include <string>
#include <utility>

namespace lift::explore {

StepResult applySelectedStep(StartDerivation& d, std::string_view rule, const StepSelection& how) {
  const rewrite::Rule& r = rewrite::RuleRegistry::instance().get(rule);
  rewrite::EnumerateOptions eo;
  eo.includeMacros = false;
  eo.allParameterChoices = how.allParameterChoices;
  eo.families = {r.family};
  std::optional<rewrite::RewriteStep> chosen;
  for (const rewrite::RewriteStep& s : rewrite::enumerateRewrites(*d.program, eo)) {
    if (s.rule != &r || (chosen && !(how.prefer && how.prefer(s, *chosen)))) continue;
    chosen = s;
    if (!how.prefer) break;
  }
  if (!chosen) return StepResult::NoRewrite;
  rewrite::RewriteStep recorded = *chosen, concrete = *chosen;
  if (how.params) {
    recorded.params = concrete.params = {};
    for (auto& [name, value] : how.params->values()) {
      recorded.params.set(name, value);
      auto v = value.size() > 1 && value[0] == '$' ? how.values.find(value.substr(1)) : how.values.end();
      concrete.params.set(name, v == how.values.end() ? value : std::to_string(v->second));
    }
  }
  rewrite::RewriteResult res = rewrite::applyRewrite(*d.program, concrete);
  if (!res) return StepResult::Failed;
  d.program = std::make_shared<const rewrite::TypedProgram>(std::move(*res.program));
  d.steps.push_back(std::move(recorded));
  return StepResult::Applied;
}

}  // namespace lift::explore
