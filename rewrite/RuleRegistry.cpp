// The rule registry (see RuleRegistry.h).
#include "rewrite/RuleRegistry.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

namespace lift::rewrite {

const RuleRegistry& RuleRegistry::instance() {
  static const RuleRegistry* registry = [] {
    auto* r = new RuleRegistry;  // never destroyed: rules are referenced until exit
    registerFusionRules(*r);
    registerFissionRules(*r);
    registerSplitJoinRules(*r);
    registerReduceRules(*r);
    registerIterateRules(*r);
    registerInterchangeRules(*r);
    registerTransposeRules(*r);
    registerSimplificationRules(*r);
    registerCopyRules(*r);
    registerOpenCLRules(*r);
    registerWarpAndAtomicRules(*r);  // issue 17 (lift17w)
    registerScanRules(*r);
    registerVectorisationRules(*r);
    registerBuiltinRules(*r);
    registerCoalescingRules(*r);
    registerStencilRules(*r);
    registerSizeRules(*r);
    registerMdHomRules(*r);
    registerMacroRules(*r);
    return r;
  }();
  return *registry;
}

namespace {
bool isKebab(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  char prev = 0;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    if (c == '-' && prev == '-') return false;
    prev = c;
  }
  return true;
}
}  // namespace

const Rule& RuleRegistry::add(Rule r) {
  LIFT_ASSERT(isKebab(r.name), fmt::format("rule name '{}' is not kebab-case", r.name));
  LIFT_ASSERT(!byName_.count(r.name), fmt::format("rule '{}' registered twice", r.name));
  LIFT_ASSERT(bool(r.apply), fmt::format("rule '{}' has no transformation", r.name));
  for (auto& p : r.params)
    LIFT_ASSERT(validateParamValue(p, p.defaultValue).empty(),
                fmt::format("rule '{}': bad default for parameter {}", r.name, p.name));
  rules_.push_back(std::move(r));
  const Rule& stored = rules_.back();
  byName_[stored.name] = &stored;
  return stored;
}

const Rule* RuleRegistry::find(std::string_view name) const {
  auto it = byName_.find(std::string(name));
  return it == byName_.end() ? nullptr : it->second;
}

const Rule& RuleRegistry::get(std::string_view name) const {
  const Rule* r = find(name);
  LIFT_ASSERT(r, fmt::format("rule '{}' is not registered", name));
  return *r;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> RuleRegistry::suggestions(std::string_view name, size_t max) const {
  std::vector<std::pair<size_t, std::string>> scored;
  for (auto& r : rules_) {
    size_t d = editDistance(name, r.name);
    // Substring matches ("fusion" for "map-fusion") count as close.
    if (r.name.find(name) != std::string::npos || name.find(r.name) != std::string_view::npos)
      d = std::min(d, size_t(2));
    if (d <= std::max<size_t>(3, name.size() / 3)) scored.emplace_back(d, r.name);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [d, n] : scored) {
    if (out.size() == max) break;
    out.push_back(n);
  }
  return out;
}

std::vector<const Rule*> RuleRegistry::rules() const {
  std::vector<const Rule*> out;
  for (auto& r : rules_) out.push_back(&r);
  return out;
}

std::vector<const Rule*> RuleRegistry::family(Family f) const {
  std::vector<const Rule*> out;
  for (auto& r : rules_)
    if (r.family == f) out.push_back(&r);
  return out;
}

}  // namespace lift::rewrite
