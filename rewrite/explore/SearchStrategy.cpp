// The strategy factory and the template space shared by the strategies (see SearchStrategy.h).
#include "rewrite/explore/SearchStrategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>

#include "rewrite/explore/CodegenTunables.h"
#include "rewrite/explore/SplitReductionStarts.h"

namespace lift::explore {

std::unique_ptr<SearchStrategy> makeThreePhaseStrategy(const StrategyOptions& options);
std::unique_ptr<SearchStrategy> makeRandomStrategy(const StrategyOptions& options);
std::unique_ptr<SearchStrategy> makeEvolutionStrategy(const StrategyOptions& options);

std::vector<std::string> strategyNames() { return {"three-phase", "random", "evolution"}; }

std::unique_ptr<SearchStrategy> makeStrategy(const std::string& name, const StrategyOptions& options) {
  if (name == "three-phase") return makeThreePhaseStrategy(options);
  if (name == "random") return makeRandomStrategy(options);
  if (name == "evolution") return makeEvolutionStrategy(options);
  std::string names;
  for (auto& n : strategyNames()) names += (names.empty() ? "" : ", ") + n;
  throw LiftError(fmt::format("unknown strategy '{}' (the strategies are: {})", name, names));
}

std::optional<std::pair<size_t, Assignment>> matchHint(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& templates, const Hint& hint) {
  std::vector<rewrite::RewriteStep> steps;
  try {
    std::istringstream in(hint.derivation);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) steps.push_back(rewrite::RewriteStep::parse(line));
  } catch (const LiftError&) {
    return std::nullopt;  // a rule that no longer exists
  }
  // The work-group size ("local=2x4"): one value per dimension.
  std::vector<int64_t> local;
  std::istringstream ps(hint.parameters);
  for (std::string item; std::getline(ps, item, ',');) {
    if (item.rfind("local=", 0) != 0) continue;
    std::istringstream ls(item.substr(6));
    for (std::string v; std::getline(ls, v, 'x');) {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;  // a damaged hint
      local.push_back(n);
    }
  }
  for (size_t t = 0; t < templates.size(); ++t) {
    const DerivationTemplate& tm = *templates[t];
    if (tm.steps.size() != steps.size()) continue;
    Assignment a;
    bool same = true;
    for (size_t i = 0; i < steps.size() && same; ++i) {
      const rewrite::RewriteStep& ts = tm.steps[i];
      const rewrite::RewriteStep& hs = steps[i];
      same = ts.rule == hs.rule && ts.loc == hs.loc && ts.params.values().size() == hs.params.values().size();
      for (auto& [name, value] : ts.params.values()) {
        if (!same) break;
        const std::string* hv = hs.params.find(name);
        if (!hv) {
          same = false;
        } else if (value.size() > 1 && value[0] == '$') {
          char* end = nullptr;
          long long v = std::strtoll(hv->c_str(), &end, 10);
          same = end && *end == 0 && !hv->empty();
          if (same) a[value.substr(1)] = v;
        } else {
          same = value == *hv;
        }
      }
    }
    if (!same) continue;
    for (int d : tm.launchDims)
      if (static_cast<size_t>(d) < local.size()) a[fmt::format("local{}", d)] = local[static_cast<size_t>(d)];
    // The code generator's switches the hint was measured with ("unroll=8").
    std::istringstream cs(hint.parameters);
    for (std::string item; std::getline(cs, item, ',');) {
      size_t eq = item.find('=');
      const Tunable* tu = eq == std::string::npos ? nullptr : tm.tunable(item.substr(0, eq));
      int64_t n = 0;
      if (tu && tu->codegen &&
          std::from_chars(item.data() + eq + 1, item.data() + item.size(), n).ec == std::errc())
        a[tu->name] = n;
    }
    return std::make_pair(t, a);
  }
  return std::nullopt;
}

std::shared_ptr<const DerivationTemplate> withMapping(const DerivationTemplate& algorithm,
                                                      const OpenCLMapping& m,
                                                      const StrategyOptions& options) {
  auto t = std::make_shared<DerivationTemplate>(algorithm);
  t->steps.insert(t->steps.end(), m.steps.begin(), m.steps.end());
  t->mapping = m.name;
  t->launchDims = launchDims(m);
  if (!t->schemaMapping.empty() && t->schemaMapping == m.name) t->promiseBonus += kSchemaPromise;
  t->tunables.insert(t->tunables.end(), m.tunables.begin(), m.tunables.end());
  for (int d : m.globalDims) {
    Tunable tu;
    tu.name = fmt::format("local{}", d);
    tu.what = fmt::format("work-group size in dimension {}", d);
    tu.values = options.localSizes;
    // Prefer 1 on the outer and small groups first; the constraints drop what does not divide.
    tu.launch = true;
    t->tunables.push_back(tu);
  }
  if (takesCodegenTunables(m.name))
    t->tunables.insert(t->tunables.end(), options.codegenTunables.begin(), options.codegenTunables.end());
  return t;
}

TemplateSpace buildTemplateSpace(StrategyContext& ctx, const StrategyOptions& options) {
  TemplateSpace space;
  if (ctx.activity) ctx.activity("phase 1: algorithmic exploration");
  std::vector<AlgorithmicVariant> variants = exploreAlgorithmic(
      *ctx.problem, options.algorithmic, ctx.cancel, &space.algorithmic, [&](const AlgorithmicStats& s) {
        if (ctx.activity)
          ctx.activity(
              fmt::format("phase 1: algorithmic exploration ({} rewrites, {} programs kept, "
                          "{} duplicates, {} dropped by heuristics, {} beyond the beam)",
                          s.tried, s.kept, s.duplicates, s.rejected, s.pruned));
      });
  space.variants = variants.size();
  if (ctx.activity) ctx.activity(fmt::format("phase 2: OpenCL mapping of {} programs", variants.size()));
  for (const AlgorithmicVariant& v : variants) {
    if (ctx.cancelled()) break;
    std::vector<OpenCLMapping> maps;
    try {
      maps = openclMappings(*v.program, options.mapping);
    } catch (const LiftError&) {
      continue;
    }
    for (const OpenCLMapping& m : maps) {
      space.templates.push_back(withMapping(*v.tmpl, m, options));
    }
  }
  space.mappings = space.templates.size();
  if (ctx.activity)
    ctx.activity(fmt::format("phase 2: {} templates ({} programs x their mappings)", space.templates.size(),
                             variants.size()));
  return space;
}

}  // namespace lift::explore
