// The seeds' three phases (002 matmul paper, 003 slides: 1 -> ~20,000 algorithmic variants ->
// 8 after the heuristics -> 760 OpenCL mappings -> 46,000 kernels): phase 1 explores algorithmic
// rewrites with macro rules and the heuristics, phase 2 maps every variant onto the OpenCL
// thread hierarchy, phase 3 enumerates the parameters of each template (split and block
// factors, vector widths, work-group sizes) under the resource constraints the runner checks.
//
// The seeds ran the space exhaustively. With a time budget the order matters, so templates are
// visited most promising first (derivations that block, vectorise and fuse; tiles in local
// memory, then mapGlb, then other work-group mappings) in rounds: each round gives the next few parameter
// settings of each template in a widening set, and parameter settings go from the values the rewrites were
// found with outwards (by the sum of their ranks, a rank of the code generator's switches
// counting twice: CodegenTunables.h).
#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "rewrite/explore/SearchStrategy.h"
#include "rewrite/explore/StagedTemplateSpace.h"
#include "rewrite/explore/TemplateOrder.h"

namespace lift::explore {

namespace {

class ThreePhaseStrategy : public SearchStrategy {
 public:
  explicit ThreePhaseStrategy(StrategyOptions o) : options_(std::move(o)) {}
  std::string name() const override { return "three-phase"; }

  std::optional<Candidate> next(StrategyContext& ctx) override {
    if (!built_) {
      // The first guesses while phases 1 and 2 run (StagedTemplateSpace.h).
      if (!staged_.started()) staged_.start(ctx, options_);
      if (std::optional<Candidate> c = staged_.nextFirstGuess(ctx, &rejected_)) return c;
      build(ctx);
    }
    while (!ctx.cancelled()) {
      if (live_ == 0) return std::nullopt;
      if (pos_ >= active_) {
        // The next round: more templates, more settings each.
        pos_ = 0;
        active_ = std::min(cursors_.size(), std::max<size_t>(8, active_ * 2));
        perRound_ = std::min<int>(perRound_ * 2, 64);
      }
      Cursor& c = cursors_[pos_];
      if (c.done || c.takenThisRound >= perRound_) {
        c.takenThisRound = 0;
        ++pos_;
        continue;
      }
      std::optional<Assignment> a = c.values.next();
      if (!a) {
        c.done = true;
        --live_;
        ++pos_;
        continue;
      }
      ++c.takenThisRound;
      std::string why;
      std::optional<Candidate> cand = instantiate(*ctx.problem, c.tmpl, *a, &why);
      if (!cand) {
        ++rejected_;
        continue;
      }
      cand->phase = "parameters";
      return cand;
    }
    return std::nullopt;
  }

 private:
  struct Cursor {
    std::shared_ptr<const DerivationTemplate> tmpl;
    AssignmentEnumerator values;
    int takenThisRound = 0;
    bool done = false;
  };

  void build(StrategyContext& ctx) {
    built_ = true;
    TemplateSpace space = staged_.take(ctx);
    for (size_t i : mostPromisingOrder(space.templates))
      cursors_.push_back(Cursor{space.templates[i], AssignmentEnumerator(space.templates[i])});
    live_ = cursors_.size();
    active_ = std::min<size_t>(8, cursors_.size());
    if (ctx.activity)
      ctx.activity(fmt::format("phase 3: parameters of {} templates ({} programs, phase 1: {})",
                               cursors_.size(), space.variants, space.algorithmic.stopReason));
  }

  StrategyOptions options_;
  StagedTemplateSpace staged_;
  bool built_ = false;
  std::deque<Cursor> cursors_;
  size_t live_ = 0, active_ = 0, pos_ = 0;
  int perRound_ = 4;
};

}  // namespace

std::unique_ptr<SearchStrategy> makeThreePhaseStrategy(const StrategyOptions& options) {
  return std::make_unique<ThreePhaseStrategy>(options);
}

}  // namespace lift::explore
