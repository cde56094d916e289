// The rule registry: every rule of the library, by name and by family. Rules live in
// rewrite/rules/<Family>Rules.cpp; each file contributes one registration function that the
// registry calls once (static libraries drop self-registering objects, so the list is explicit).
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rewrite/Rule.h"

namespace lift::rewrite {

class RuleRegistry {
 public:
  // The library: every built-in rule, registered on first use (thread-safe).
  static const RuleRegistry& instance();

  RuleRegistry() = default;
  RuleRegistry(const RuleRegistry&) = delete;
  RuleRegistry& operator=(const RuleRegistry&) = delete;

  // Adds a rule; the name must be new and kebab-case. Returns the stored rule (its address is
  // stable for the registry's lifetime).
  const Rule& add(Rule r);

  const Rule* find(std::string_view name) const;
  // The stored rule with that name; asserts that it exists (for rules that build on others).
  const Rule& get(std::string_view name) const;
  // Names close to `name` (edit distance), best first, for "did you mean".
  std::vector<std::string> suggestions(std::string_view name, size_t max = 3) const;
  // Every rule, in registration order (grouped by family).
  std::vector<const Rule*> rules() const;
  std::vector<const Rule*> family(Family f) const;
  size_t size() const { return rules_.size(); }

 private:
  std::deque<Rule> rules_;
  std::unordered_map<std::string, const Rule*> byName_;
};

// Registration functions, one per rules file (one file per family, registered in the order of
// LIFT_RULE_FAMILIES).
void registerFusionRules(RuleRegistry& r);
void registerFissionRules(RuleRegistry& r);
void registerSplitJoinRules(RuleRegistry& r);
void registerReduceRules(RuleRegistry& r);
void registerIterateRules(RuleRegistry& r);
void registerInterchangeRules(RuleRegistry& r);
void registerTransposeRules(RuleRegistry& r);
void registerSimplificationRules(RuleRegistry& r);
void registerCopyRules(RuleRegistry& r);
void registerOpenCLRules(RuleRegistry& r);
void registerWarpAndAtomicRules(RuleRegistry& r);  // issue 17 (lift17w)
void registerVectorisationRules(RuleRegistry& r);
void registerBuiltinRules(RuleRegistry& r);
void registerCoalescingRules(RuleRegistry& r);
void registerStencilRules(RuleRegistry& r);
void registerSizeRules(RuleRegistry& r);
void registerMdHomRules(RuleRegistry& r);
void registerScanRules(RuleRegistry& r);
void registerMacroRules(RuleRegistry& r);

// Levenshtein distance (for suggestions).
size_t editDistance(std::string_view a, std::string_view b);

}  // namespace lift::rewrite
