// Documentation generated from the rule registry: docs/RULES.md (`liftc rules --markdown`) and
// the one-line-per-rule listing of `liftc rules --all`.
#pragma once

#include <string>

#include "rewrite/RuleRegistry.h"

namespace lift::rewrite {

// The Markdown reference of every rule, grouped by family, with the location scheme.
std::string rulesMarkdown(const RuleRegistry& registry = RuleRegistry::instance());

// One line per rule: NAME  FAMILY  lhs => rhs (columns aligned).
std::string rulesListing(const RuleRegistry& registry = RuleRegistry::instance());

// "n (split factor (chunk length), default 4)" for each parameter, comma separated; "" if none.
std::string describeParams(const Rule& r);

}  // namespace lift::rewrite
