// Size rules: placeholder, filled in below.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {
void registerSizeRules(RuleRegistry&) {}
}  // namespace lift::rewrite
