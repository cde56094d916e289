// Macro rules: placeholder.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {
void registerMacroRules(RuleRegistry&) {}
}  // namespace lift::rewrite
