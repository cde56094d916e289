// The order of promise in which the strategies visit templates (see TemplateOrder.h).
#include "rewrite/explore/TemplateOrder.h"

#include <algorithm>
#include <numeric>

#include "rewrite/explore/Heuristics.h"

namespace lift::explore {

int templatePromise(const DerivationTemplate& t) {
  return derivationPromise(
             std::vector<rewrite::RewriteStep>(t.steps.begin(), t.steps.begin() + t.algorithmicSteps)) +
         t.promiseBonus;
}

int mappingRank(const std::string& m) {
  if (m.ends_with("-local-result")) return -1;
  if (m.ends_with("-local")) return 0;
  if (m.ends_with("-private")) return 1;
  if (m.rfind("glb-1-0", 0) == 0) return 2;
  if (m.rfind("glb-0-1", 0) == 0) return 3;
  if (m.rfind("glb", 0) == 0) return 4;
  return 5;
}

std::vector<size_t> mostPromisingOrder(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& templates) {
  // Higher promise first, then lower mapping rank: one key a template, compared as (-promise, rank).
  std::vector<std::pair<int, int>> key;
  key.reserve(templates.size());
  for (const auto& t : templates) key.emplace_back(-templatePromise(*t), mappingRank(t->mapping));
  std::vector<size_t> order(templates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
  return order;
}

AssignmentEnumerator::AssignmentEnumerator(std::shared_ptr<const DerivationTemplate> t) : t_(std::move(t)) {
  for (auto& tu : t_->tunables)
    maxRank_ += std::max<int>(0, static_cast<int>(tu.values.size()) - 1) * std::max(1, tu.rankCost);
}

std::optional<Assignment> AssignmentEnumerator::next() {
  while (layerPos_ >= layer_.size()) {
    if (sum_ > maxRank_) return std::nullopt;
    layer_.clear();
    layerPos_ = 0;
    std::vector<int> ranks(t_->tunables.size(), 0);
    fill(0, sum_, ranks);
    ++sum_;
  }
  return layer_[layerPos_++];
}

void AssignmentEnumerator::fill(size_t i, int left, std::vector<int>& ranks) {
  if (layer_.size() > 100000) return;
  if (i == ranks.size()) {
    if (left != 0) return;
    Assignment a;
    for (size_t k = 0; k < ranks.size(); ++k) a[t_->tunables[k].name] = t_->tunables[k].values[ranks[k]];
    layer_.push_back(std::move(a));
    return;
  }
  int cost = std::max(1, t_->tunables[i].rankCost);
  int maxHere = std::min<int>(left / cost, static_cast<int>(t_->tunables[i].values.size()) - 1);
  for (int r = 0; r <= maxHere; ++r) {
    ranks[i] = r;
    fill(i + 1, left - r * cost, ranks);
  }
}

}  // namespace lift::explore
