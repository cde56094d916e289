// Random walks through the rewrite space (see RandomWalk.h).
#include "rewrite/RandomWalk.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "core/interp/Sizes.h"
#include "core/lang/Printer.h"

namespace lift::rewrite {

namespace {

bool excluded(const RandomWalkOptions& o, const Rule& r) {
  if (r.macro && !o.includeMacros) return true;
  return std::find(o.exclude.begin(), o.exclude.end(), r.name) != o.exclude.end();
}

bool rootMatches(const Rule& r, const ir::NodeRef& n) {
  if ((r.target == Target::Expr) != n.isExpr()) return false;
  if (r.roots.empty()) return true;
  auto* p = ir::calledPattern(n.expr());
  return p && std::find(r.roots.begin(), r.roots.end(), p->pattern()) != r.roots.end();
}

// Smallest inputs the program runs on, in scalars (-1 when no sizes fit).
int64_t smallestInputs(const ir::Program& p) {
  try {
    interp::SizeHint hint;
    hint.atLeast = 1;
    arith::Env env = interp::chooseSizes(p, hint);
    int64_t total = 0;
    for (auto& in : p.main->params())
      if (in->declaredType()) total += arith::evaluate(in->declaredType().scalarCount(), env);
    return total;
  } catch (const LiftError&) {
    return -1;
  }
}

}  // namespace

RandomWalkResult randomWalk(const TypedProgram& start, const RandomWalkOptions& opts) {
  RandomWalkResult res{start, start, {}, 0, true, "", ""};
  std::mt19937_64 rng(opts.seed);
  std::vector<const Rule*> rules;
  for (const Rule* r : RuleRegistry::instance().rules())
    if (!excluded(opts, *r)) rules.push_back(r);

  auto startTime = std::chrono::steady_clock::now();
  for (int stepNo = 0; stepNo < opts.steps; ++stepNo) {
    if (opts.maxSeconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - startTime).count() >
            opts.maxSeconds) {
      res.stopReason = fmt::format("time limit ({} s) reached after {} steps", opts.maxSeconds, stepNo);
      break;
    }
    const TypedProgram& cur = res.final;
    std::vector<LocatedNode> nodes = allLocations(cur.main());
    if (nodes.size() > opts.maxNodes) {
      res.stopReason = fmt::format("the program reached {} nodes", nodes.size());
      break;
    }
    // Candidates: sampled (location, rule, parameters) triples first, then every applicable rewrite.
    std::vector<RewriteStep> tried;
    auto pickSampled = [&]() -> std::optional<RewriteStep> {
      for (int attempt = 0; attempt < 400; ++attempt) {
        const LocatedNode& ln = nodes[std::uniform_int_distribution<size_t>(0, nodes.size() - 1)(rng)];
        const Rule* r = rules[std::uniform_int_distribution<size_t>(0, rules.size() - 1)(rng)];
        if (!rootMatches(*r, ln.node)) continue;
        Resolved resolved = resolve(cur.main(), ln.loc);
        Site site;
        site.program = &cur.program;
        site.types = cur.types.get();
        site.typed = &cur;
        site.loc = ln.loc;
        site.node = resolved.node;
        site.ancestors = std::move(resolved.ancestors);
        std::vector<ParamValues> choices = parameterChoices(*r, site);
        ParamValues& pv = choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
        RewriteStep step{r, ln.loc, r->params.empty() ? ParamValues{} : pv};
        if (std::find(tried.begin(), tried.end(), step) != tried.end()) continue;
        if (r->apply(site, pv)) return step;
        tried.push_back(step);
      }
      return std::nullopt;
    };
    std::vector<RewriteStep> all;
    bool enumerated = false;
    auto pickEnumerated = [&]() -> std::optional<RewriteStep> {
      if (!enumerated) {
        EnumerateOptions eo;
        eo.includeMacros = opts.includeMacros;
        eo.allParameterChoices = true;
        for (auto& s : enumerateRewrites(cur, eo))
          if (!excluded(opts, *s.rule) && std::find(tried.begin(), tried.end(), s) == tried.end())
            all.push_back(s);
        std::shuffle(all.begin(), all.end(), rng);
        enumerated = true;
      }
      if (all.empty()) return std::nullopt;
      RewriteStep s = all.back();
      all.pop_back();
      return s;
    };

    bool advanced = false;
    for (int attempt = 0; attempt < 50 && !advanced; ++attempt) {
      std::optional<RewriteStep> step = opts.sample && !enumerated ? pickSampled() : std::nullopt;
      if (!step) step = pickEnumerated();
      if (!step) break;
      RewriteResult r = applyRewrite(cur, *step);
      if (!r) {
        res.ok = false;
        res.failure = fmt::format("step {} ({}): {}\nprogram:\n{}", stepNo + 1, step->spec(), r.message,
                                  lang::printProgram(cur.program));
        return res;
      }
      if (opts.check) {
        int64_t scalars = smallestInputs(r.program->program);
        if (scalars < 0 || scalars > opts.maxInputScalars) {
          tried.push_back(*step);
          continue;  // the result only runs on inputs too large to check: choose another rewrite
        }
        EquivalenceReport eq = checkEquivalence(cur.program, r.program->program, opts.equivalence);
        if (!eq.equal) {
          res.ok = false;
          res.failure =
              fmt::format("step {} ({}): {}\nbefore:\n{}\nafter:\n{}", stepNo + 1, step->spec(), eq.message,
                          lang::printProgram(cur.program), lang::printProgram(r.program->program));
          return res;
        }
        if (eq.runs > 0) ++res.checked;
      }
      res.steps.push_back(*step);
      res.final = std::move(*r.program);
      advanced = true;
    }
    if (!advanced) {
      res.stopReason = fmt::format("no rewrite applies after {} steps", stepNo);
      break;
    }
  }
  return res;
}

}  // namespace lift::rewrite
