// The first guesses a strategy measures before its own order (firstGuesses: the known schemas'
// templates, kSchemaPromise, then of the most promising derivations each one's mapping a
// device-aware rank puts first, at their preferred values), and phases 1 and 2 optionally in two
// stages: the templates of the derivations up to StrategyOptions::firstStageDepth steps from the
// starts (the program, its md_hom and split-reduction starts) are built at once, the first
// guesses chosen among them, and the whole space (phase 1's beam search, then phase 2) on a thread
// of its own while they are measured; then the strategy takes the whole space (take) and goes on
// as before. By default the first stage is the whole space (one stage): on the 2-core CPU device
// the derivations one step from md_gemv's starts ran at 35-65 % of the best, the whole space's
// first guess at 75-90 % (docs/PERFORMANCE.md). The first guesses' templates are in the
// whole space too (the runner skips their kernels there as duplicates). Only programs with starts
// of a known schema (MdHomStarts.h, SplitReductionStarts.h) are staged: elsewhere (matmul) the
// starts' templates are naive kernels, and the whole space is built first, as one stage.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "rewrite/explore/SearchStrategy.h"

namespace lift::explore {

// How the first guess of a root's mappings ranks a template (lower is tried first), for a GPU
// or a CPU device: on a GPU a work-group per row with a tree over its work-items (001's schema:
// every work-item reads a strided part of the row, consecutive work-items consecutive elements,
// so reads coalesce, and there are as many work-groups as rows), then the other work-group
// mappings, then global ones; on a CPU a global mapping (a work-item's loop over whole rows or
// strided chunks, contiguous for the core's caches and vectors; its work-groups a few
// work-items, many groups for the cores), then the work-group mappings, the trees last (local
// memory and barriers that a CPU runs as loops). Known schemas (kSchemaPromise) rank first on
// both.
int firstGuessRank(const DerivationTemplate& t, bool gpu);

// The roots' templates a strategy measures first: the known schemas', then for each start (the
// roots' distinct algorithm texts) its best-ranked mapping, at most `count` in all, ordered by
// rank and then by the roots' order.
std::vector<std::shared_ptr<const DerivationTemplate>> firstGuesses(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& roots, bool gpu, size_t count);

class StagedTemplateSpace {
 public:
  StagedTemplateSpace() = default;
  ~StagedTemplateSpace();  // stops the thread and waits for it
  StagedTemplateSpace(const StagedTemplateSpace&) = delete;
  StagedTemplateSpace& operator=(const StagedTemplateSpace&) = delete;

  // Builds the roots' templates and starts the thread that builds the whole space
  // (options.backgroundPhases false: builds it here, now; options.firstGuesses 0: only the whole
  // space, here, now, as one stage).
  void start(StrategyContext& ctx, const StrategyOptions& options);
  bool started() const { return started_; }
  // The roots' templates, phase 2 applied (their order as buildTemplateSpace gives them).
  const std::vector<std::shared_ptr<const DerivationTemplate>>& roots() const { return roots_; }
  // The next first guess (firstGuesses of the roots, StrategyOptions::firstGuesses of them) at
  // its preferred values, phase "first-guess"; nullopt when none is left. Those that do not
  // instantiate count in *rejected.
  std::optional<Candidate> nextFirstGuess(StrategyContext& ctx, int64_t* rejected);
  // The whole space; waits for the thread (stops it when ctx is cancelled) and reports what it
  // built through ctx. Call once.
  TemplateSpace take(StrategyContext& ctx);

 private:
  bool started_ = false;
  std::vector<std::shared_ptr<const DerivationTemplate>> roots_;
  std::vector<std::shared_ptr<const DerivationTemplate>> guesses_;
  size_t nextGuess_ = 0;
  std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
  std::future<TemplateSpace> full_;
  std::optional<TemplateSpace> built_;  // when built on the caller's thread
};

}  // namespace lift::explore
