// Phases 1 and 2 in two stages, and the first guesses (see StagedTemplateSpace.h).
#include "rewrite/explore/StagedTemplateSpace.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "rewrite/explore/MdHomStarts.h"
#include "rewrite/explore/SplitReductionStarts.h"
#include "rewrite/explore/TemplateOrder.h"

namespace lift::explore {

namespace {

bool isSchema(const DerivationTemplate& t) { return t.promiseBonus >= kSchemaPromise; }

}  // namespace

int firstGuessRank(const DerivationTemplate& t, bool gpu) {
  if (isSchema(t)) return -1;
  const std::string& m = t.mapping;
  bool global = m.rfind("glb", 0) == 0;
  bool tree = m.find("-tree") != std::string::npos;
  bool combine = m.ends_with("-combine");
  bool copies = m.ends_with("-local") || m.ends_with("-private") || m.ends_with("-local-result");
  int rank = 0;
  if (gpu)
    rank = tree ? 0 : global ? 4 : 2;
  else
    rank = global ? 0 : tree ? 4 : 2;
  // A second kernel to combine partial results, and tiles copied to other memories, cost more
  // than they give on the first try.
  return rank + (combine ? 1 : 0) + (copies ? 1 : 0);
}

std::vector<std::shared_ptr<const DerivationTemplate>> firstGuesses(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& roots, bool gpu, size_t count) {
  // Each algorithm's best-ranked mapping (the first of equals in the roots' order).
  std::map<std::string, size_t> bestOf;
  std::vector<size_t> order;
  for (size_t i = 0; i < roots.size(); ++i) {
    std::string algorithm = roots[i]->algorithmText();
    auto it = bestOf.find(algorithm);
    if (it == bestOf.end()) {
      bestOf.emplace(algorithm, i);
      order.push_back(i);
    } else if (firstGuessRank(*roots[i], gpu) < firstGuessRank(*roots[it->second], gpu)) {
      std::replace(order.begin(), order.end(), it->second, i);
      it->second = i;
    }
  }
  // Known schemas first, then by rank, then the more promising derivation, then the roots' order.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int ra = firstGuessRank(*roots[a], gpu), rb = firstGuessRank(*roots[b], gpu);
    if (ra != rb) return ra < rb;
    return templatePromise(*roots[a]) > templatePromise(*roots[b]);
  });
  std::vector<std::shared_ptr<const DerivationTemplate>> out;
  for (size_t i : order) {
    if (out.size() >= count) break;
    out.push_back(roots[i]);
  }
  return out;
}

StagedTemplateSpace::~StagedTemplateSpace() {
  stop_->store(true);
  if (full_.valid()) full_.wait();
}

void StagedTemplateSpace::start(StrategyContext& ctx, const StrategyOptions& options) {
  started_ = true;
  // Only a program with starts of a known schema (an md_hom's nests, a reduction's chunks) has
  // first guesses worth measuring before phase 1: elsewhere (matmul) the starts' templates are
  // the naive kernels, far from what phase 1 finds.
  bool schemaStarts =
      !mdHomStarts(*ctx.problem->start).empty() ||
      !splitReductionStarts(*ctx.problem->start, {}, options.algorithmic.preferredWidth).empty();
  if (options.firstGuesses == 0 || !schemaStarts) {
    built_ = buildTemplateSpace(ctx, options);
    return;
  }
  StrategyOptions first = options;
  first.algorithmic.maxDepth = std::min(options.algorithmic.maxDepth, options.firstStageDepth);
  if (ctx.activity) ctx.activity("phases 1 and 2 of the starts");
  StrategyContext quiet{ctx.problem, ctx.cancel, {}};
  bool whole = first.algorithmic.maxDepth >= options.algorithmic.maxDepth;
  if (whole) {
    // The first stage is the whole space: the first guesses are its best-ranked, nothing more
    // to build.
    built_ = buildTemplateSpace(ctx, options);
    roots_ = built_->templates;
  } else {
    roots_ = buildTemplateSpace(quiet, first).templates;
  }
  guesses_ = firstGuesses(roots_, options.gpu, options.firstGuesses);
  if (ctx.activity)
    ctx.activity(
        fmt::format("first guesses: {} of {} templates of the starts", guesses_.size(), roots_.size()));
  if (whole) return;
  if (!options.backgroundPhases) {
    built_ = buildTemplateSpace(ctx, options);
    return;
  }
  // The thread's own context: no events from it (the runner reports one at a time, from its
  // workers' threads), and its own stop flag (take() and the destructor raise it).
  std::shared_ptr<std::atomic<bool>> stop = stop_;
  const SearchProblem* problem = ctx.problem;
  full_ = std::async(std::launch::async, [stop, problem, options] {
    StrategyContext own{problem, stop.get(), {}};
    return buildTemplateSpace(own, options);
  });
}

std::optional<Candidate> StagedTemplateSpace::nextFirstGuess(StrategyContext& ctx, int64_t* rejected) {
  while (nextGuess_ < guesses_.size() && !ctx.cancelled()) {
    const std::shared_ptr<const DerivationTemplate>& t = guesses_[nextGuess_++];
    std::string why;
    std::optional<Candidate> c = instantiate(*ctx.problem, t, t->defaults(), &why);
    if (!c) {
      if (rejected) ++*rejected;
      continue;
    }
    c->phase = "first-guess";
    return c;
  }
  return std::nullopt;
}

TemplateSpace StagedTemplateSpace::take(StrategyContext& ctx) {
  if (built_) {
    TemplateSpace s = std::move(*built_);
    built_.reset();
    return s;
  }
  if (!full_.valid()) return {};
  if (ctx.activity) ctx.activity("phases 1 and 2: waiting for the algorithmic exploration");
  while (full_.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
    if (ctx.cancelled()) stop_->store(true);
  TemplateSpace s = full_.get();
  if (ctx.activity)
    ctx.activity(fmt::format("phase 2: {} templates ({} programs x their mappings; phase 1: {})",
                             s.templates.size(), s.variants, s.algorithmic.stopReason));
  return s;
}

}  // namespace lift::explore
