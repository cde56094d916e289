// The order of promise in which the strategies visit templates: the derivation that restructures
// most for performance first (derivationPromise, Heuristics.h, plus the template's own bonus: a
// known schema, contiguous lanes on a CPU), and among equals the mapping that keeps tiles closest
// to the work-items; within a template, its parameter settings from the preferred values outwards.
// The three phases visit the whole space in this order; the evolution measures its first few
// templates, each at the first setting that instantiates, before its random initial population.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

// derivationPromise of the template's algorithmic steps plus its promiseBonus.
int templatePromise(const DerivationTemplate& t);

// How early a mapping comes among templates of equal promise (lower first): work-groups sharing
// tiles copied to local memory (on a CPU first with the result tile there too, one work-item
// each: OpenCLMapping.h), then kept in private memory, then global mappings (rows over the first
// dimension first), then the other work-group mappings.
int mappingRank(const std::string& mapping);

// The indices of the templates, most promising first (templatePromise, then mappingRank; each
// computed once a template); stable, so equals keep the order phase 2 built them in.
std::vector<size_t> mostPromisingOrder(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& templates);

// Enumerates the assignments of a template by increasing sum of value ranks (a tunable's values
// are ordered preferred first; a rank of a tunable with rankCost c counts c times), so the first
// is the template's preferred values.
class AssignmentEnumerator {
 public:
  explicit AssignmentEnumerator(std::shared_ptr<const DerivationTemplate> t);
  std::optional<Assignment> next();  // nullopt when every assignment was given

 private:
  void fill(size_t i, int left, std::vector<int>& ranks);

  std::shared_ptr<const DerivationTemplate> t_;
  int maxRank_ = 0;
  int sum_ = 0;
  std::vector<Assignment> layer_;
  size_t layerPos_ = 0;
};

}  // namespace lift::explore
