// The named rules of the Lift implementation (lift-project/lift, src/main/rewriting/rules/*.scala
// and macrorules/*.scala: every `val x = Rule(...)`, private ones included, and macro rule), for
// the "Lift" column of docs/RULES.md and its list of Lift's rules that no rule here corresponds
// to, each with the reason it is left out. A rule names the Lift rules it corresponds to in Rule::lift.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rewrite/RuleRegistry.h"

namespace lift::rewrite {

struct LiftRule {
  std::string_view file;  // "FusionRules" (rules/) or "MacroRules" (macrorules/)
  std::string_view name;  // "mapFusion"
  // Why no rule here corresponds to it; empty when one does.
  std::string_view absentReason;
  // "FILE.name" where two of Lift's files use the name, else the name.
  std::string qualifiedName() const;
};

// Every named rule of Lift, file by file.
const std::vector<LiftRule>& liftRules();

// The Lift rule names of Rule::lift (empty for "new").
std::vector<std::string> liftNamesOf(const Rule& r);

// The Lift rule that a name of Rule::lift denotes (plain or "FILE.name"), or null.
const LiftRule* findLiftRule(std::string_view name);

// The rules of the registry that correspond to a Lift rule.
std::vector<const Rule*> rulesCorrespondingTo(const LiftRule& l,
                                              const RuleRegistry& registry = RuleRegistry::instance());

}  // namespace lift::rewrite
