// Semantic equivalence through the interpreter (see Equivalence.h).
#include "rewrite/Equivalence.h"

#include <fmt/format.h>

#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"

namespace lift::rewrite {

std::string formatSizes(const arith::Env& env) {
  std::string s;
  for (auto& [k, v] : env) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
  return s.empty() ? "no sizes" : s;
}

std::vector<arith::Env> chooseSizeSets(const ir::Program& p, int count,
                                       const std::vector<int64_t>& atLeastList) {
  std::vector<arith::Env> out;
  for (int64_t atLeast : atLeastList) {
    if (static_cast<int>(out.size()) >= count) break;
    interp::SizeHint hint;
    hint.atLeast = atLeast;
    hint.atMost = 4096;
    try {
      arith::Env env = interp::chooseSizes(p, hint);
      bool seen = false;
      for (auto& e : out) seen = seen || e == env;
      if (!seen) out.push_back(std::move(env));
    } catch (const LiftError&) {
    }
  }
  return out;
}

namespace {

int64_t inputScalars(const ir::Program& p, const arith::Env& env) {
  int64_t total = 0;
  for (auto& in : p.main->params()) {
    Type t = in->declaredType();
    if (!t) continue;
    try {
      total += arith::evaluate(t.scalarCount(), env);
    } catch (const LiftError&) {
      return -1;
    }
  }
  return total;
}

}  // namespace

EquivalenceReport checkEquivalence(const ir::Program& before, const ir::Program& after,
                                   const EquivalenceOptions& opts) {
  EquivalenceReport rep;
  std::vector<arith::Env> candidates;
  for (auto& e : opts.sizes)
    if (!interp::sizeProblem(after, e)) candidates.push_back(e);
  if (static_cast<int>(candidates.size()) < opts.sizeSets)
    for (auto& e : chooseSizeSets(after, opts.sizeSets + 1, opts.atLeast)) {
      bool seen = false;
      for (auto& c : candidates) seen = seen || c == e;
      if (!seen) candidates.push_back(e);
    }
  std::string skipped;
  uint64_t seed = opts.seed;
  for (const arith::Env& env : candidates) {
    if (rep.runs >= opts.sizeSets) break;
    int64_t scalars = inputScalars(after, env);
    if (scalars < 0 || scalars > opts.maxInputScalars) continue;
    std::vector<interp::Value> inputs;
    arith::Env beforeSizes;
    try {
      inputs = interp::randomInputs(after, env, seed++);
    } catch (const LiftError& e) {
      skipped = fmt::format("at {}: {}", formatSizes(env), e.diagnostic().message);
      continue;
    }
    beforeSizes = env;
    try {
      // The original's sizes as its input types read them (they differ after size-multiple).
      for (auto& [k, v] : interp::inferSizes(before, inputs)) beforeSizes[k] = v;
    } catch (const LiftError&) {
      // Lengths such as N*M cannot be inferred; the same sizes are used.
    }
    if (auto problem = interp::sizeProblem(before, beforeSizes)) {
      skipped = fmt::format("the original program is not valid at {}: {}", formatSizes(beforeSizes),
                            problem->message);
      continue;
    }
    interp::Value expected, actual;
    try {
      expected = interp::interpret(before, inputs, beforeSizes);
    } catch (const LiftError& e) {
      skipped = fmt::format("the original program fails at {}: {}", formatSizes(beforeSizes),
                            e.diagnostic().message);
      continue;
    }
    try {
      actual = interp::interpret(after, inputs, env);
    } catch (const LiftError& e) {
      rep.equal = false;
      rep.message = fmt::format("the rewritten program fails at {} where the original runs: {}",
                                formatSizes(env), e.diagnostic().message);
      rep.sizes.push_back(env);
      return rep;
    }
    // A result of one value and an array of that one value are the same program result: a kernel
    // writes either to a buffer of one element (mdhom-to-map-reduce makes md_dot's value so).
    if (!expected.isArray() && actual.isArray() && actual.size() == 1) actual = actual.at(0);
    if (!actual.isArray() && expected.isArray() && expected.size() == 1) expected = expected.at(0);
    interp::Comparison cmp = interp::approxEqual(actual, expected, opts.relTol, opts.absTol);
    rep.sizes.push_back(env);
    ++rep.runs;
    if (!cmp) {
      rep.equal = false;
      rep.message = fmt::format("results differ at {}: {}", formatSizes(env), cmp.report());
      return rep;
    }
  }
  if (rep.runs == 0)
    rep.message =
        skipped.empty() ? "found no sizes at which both programs can run" : "nothing compared: " + skipped;
  else
    rep.message = fmt::format("equal on {} size set{} ({})", rep.runs, rep.runs == 1 ? "" : "s", [&] {
      std::string s;
      for (auto& e : rep.sizes) s += (s.empty() ? "" : "; ") + formatSizes(e);
      return s;
    }());
  return rep;
}

}  // namespace lift::rewrite
