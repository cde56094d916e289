// Random search over derivations and parameters (000: "Performance evolution for randomised
// search"): each candidate is a random walk of algorithmic rewrites (macro rules included) of
// random length up to the depth limit, a random OpenCL mapping of the result, and random values
// for every numeric parameter and work-group size. No heuristics: random search is the
// baseline the others are compared with.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "rewrite/explore/SearchStrategy.h"

namespace lift::explore {

namespace {

class RandomStrategy : public SearchStrategy {
 public:
  explicit RandomStrategy(StrategyOptions o) : options_(std::move(o)), rng_(options_.seed) {}
  std::string name() const override { return "random"; }

  std::optional<Candidate> next(StrategyContext& ctx) override {
    if (!announced_ && ctx.activity) {
      ctx.activity("random derivations and parameters");
      announced_ = true;
    }
    for (int attempt = 0; attempt < 200 && !ctx.cancelled(); ++attempt) {
      std::optional<Candidate> c = sample(ctx);
      if (c) return c;
      ++rejected_;
    }
    return std::nullopt;
  }

 private:
  const std::vector<rewrite::RewriteStep>& rewritesOf(const rewrite::TypedProgram& p,
                                                      const std::string& hash) {
    auto it = rewrites_.find(hash);
    if (it != rewrites_.end()) return it->second;
    if (rewrites_.size() > 5000) rewrites_.clear();
    rewrite::EnumerateOptions eo;
    eo.includeMacros = true;
    eo.families = options_.algorithmic.families;
    std::vector<rewrite::RewriteStep> all;
    try {
      all = rewrite::enumerateRewrites(p, eo);
    } catch (const LiftError&) {
    }
    std::vector<rewrite::RewriteStep> kept;
    for (auto& s : all)
      if (std::find(options_.algorithmic.excluded.begin(), options_.algorithmic.excluded.end(),
                    s.rule->name) == options_.algorithmic.excluded.end())
        kept.push_back(s);
    return rewrites_[hash] = std::move(kept);
  }

  std::optional<Candidate> sample(StrategyContext& ctx) {
    const SearchProblem& problem = *ctx.problem;
    int depth = std::uniform_int_distribution<int>(0, std::max(0, options_.algorithmic.maxDepth))(rng_);
    std::shared_ptr<const rewrite::TypedProgram> p = problem.start;
    std::string hash = problem.startHash;
    auto t = std::make_shared<DerivationTemplate>();
    Assignment values;
    for (int i = 0; i < depth && !ctx.cancelled(); ++i) {
      const auto& rs = rewritesOf(*p, hash);
      if (rs.empty()) break;
      rewrite::RewriteStep step = rs[std::uniform_int_distribution<size_t>(0, rs.size() - 1)(rng_)];
      // A random value for each numeric parameter (the template records them as tunables).
      rewrite::RewriteStep templ = step;
      size_t before = t->tunables.size();
      makeTunable(templ, t->tunables);
      Assignment stepValues;
      for (size_t k = before; k < t->tunables.size(); ++k) {
        const Tunable& tu = t->tunables[k];
        stepValues[tu.name] = tu.values[std::uniform_int_distribution<size_t>(0, tu.values.size() - 1)(rng_)];
      }
      DerivationTemplate one;
      one.steps = {templ};
      one.tunables = t->tunables;
      rewrite::RewriteResult r;
      try {
        r = rewrite::applyRewrite(*p, substitute(one, stepValues).front());
        if (!r)
          r = rewrite::applyRewrite(*p, step);  // the value did not fit: the one found
        else
          for (auto& [n, v] : stepValues) values[n] = v;
      } catch (const LiftError&) {
        r = {};
      }
      if (!r) {
        t->tunables.resize(before);
        continue;
      }
      if (r.program && values.size() < t->tunables.size())
        for (size_t k = before; k < t->tunables.size(); ++k)
          if (!values.count(t->tunables[k].name)) values[t->tunables[k].name] = t->tunables[k].values.front();
      t->steps.push_back(templ);
      p = std::make_shared<const rewrite::TypedProgram>(std::move(*r.program));
      hash = programHash(p->program);
    }
    t->algorithmicSteps = t->steps.size();
    std::vector<OpenCLMapping> maps;
    try {
      maps = openclMappings(*p, options_.mapping);
    } catch (const LiftError&) {
    }
    if (maps.empty()) return std::nullopt;
    const OpenCLMapping& m = maps[std::uniform_int_distribution<size_t>(0, maps.size() - 1)(rng_)];
    t->steps.insert(t->steps.end(), m.steps.begin(), m.steps.end());
    t->mapping = m.name;
    t->launchDims = launchDims(m);
    for (int d : m.globalDims) {
      Tunable tu{fmt::format("local{}", d), fmt::format("work-group size in dimension {}", d),
                 options_.localSizes, true};
      values[tu.name] = tu.values[std::uniform_int_distribution<size_t>(0, tu.values.size() - 1)(rng_)];
      t->tunables.push_back(tu);
    }
    std::string why;
    std::optional<Candidate> c = instantiate(problem, t, values, &why);
    if (c) c->phase = "random";
    return c;
  }

  StrategyOptions options_;
  std::mt19937_64 rng_;
  bool announced_ = false;
  std::unordered_map<std::string, std::vector<rewrite::RewriteStep>> rewrites_;
};

}  // namespace

std::unique_ptr<SearchStrategy> makeRandomStrategy(const StrategyOptions& options) {
  return std::make_unique<RandomStrategy>(options);
}

}  // namespace lift::explore
