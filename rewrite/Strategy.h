// Strategy combinators in the style of ELEVATE (Hagedorn et al., "Achieving high performance the
// functional way"): a strategy tries to rewrite the program at a focus location and either
// succeeds with a new program or fails with a reason. Rules are the basic strategies;
// sequence, left choice, try, repeat, the traversals (topDown, bottomUp, all, one, some) and
// normalise compose them. Macro rules (register blocking, tiling, ...) are strategies.
//
// Every successful rule application is recorded in the state's trace as a RewriteStep, so a
// strategy run can be saved as a derivation of simple steps. Limits are explicit: `repeat`
// stops after `maxRepeat` rounds and a run after `maxSteps` applied rules; hitting either is
// reported in the state (stopReason) rather than looping forever.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rewrite/Engine.h"

namespace lift::rewrite {

struct StrategyLimits {
  int maxSteps = 10000;  // rule applications per run
  int maxRepeat = 1000;  // rounds of one repeat
};

// The program a strategy works on, with its types (computed lazily after each change).
class StrategyState {
 public:
  explicit StrategyState(TypedProgram p, StrategyLimits limits = {});
  const ir::Program& program() const { return program_.program; }
  const TypedProgram& typed() const { return program_; }
  const std::vector<RewriteStep>& trace() const { return trace_; }
  int steps() const { return static_cast<int>(trace_.size()); }
  const StrategyLimits& limits() const { return limits_; }
  // Set when a limit stopped a repeat or the run ("repeat limit (1000 rounds) reached at 0.1").
  const std::string& stopReason() const { return stopReason_; }

  // Applies one rewrite; returns the failure message or "" on success.
  std::string apply(const RewriteStep& step);
  void noteStop(std::string reason);

 private:
  TypedProgram program_;
  StrategyLimits limits_;
  std::vector<RewriteStep> trace_;
  std::string stopReason_;
};

// The outcome of running a strategy: the new state, or why it failed.
struct StrategyResult {
  std::optional<StrategyState> state;
  std::string reason;
  explicit operator bool() const { return state.has_value(); }
  static StrategyResult success(StrategyState s) { return {std::move(s), {}}; }
  static StrategyResult failure(std::string why) { return {std::nullopt, std::move(why)}; }
};

class Strategy {
 public:
  using Fn = std::function<StrategyResult(const StrategyState&, const Location& focus)>;
  Strategy() = default;
  Strategy(std::string text, Fn fn) : text_(std::move(text)), fn_(std::make_shared<Fn>(std::move(fn))) {}

  StrategyResult operator()(const StrategyState& s, const Location& focus) const { return (*fn_)(s, focus); }
  // The strategy in the textual syntax (parseable by parseStrategy).
  const std::string& text() const { return text_; }
  explicit operator bool() const { return fn_ != nullptr; }

 private:
  std::string text_;
  std::shared_ptr<const Fn> fn_;
};

namespace strategies {

Strategy id();                                          // always succeeds, changes nothing
Strategy fail();                                        // always fails
Strategy rule(const Rule& r, ParamValues params = {});  // the rule at the focus
Strategy seq(Strategy a, Strategy b);                   // a then b (both must succeed)
Strategy seq(std::vector<Strategy> steps);
Strategy leftChoice(Strategy a, Strategy b);  // a, or b if a fails (a <+ b)
Strategy attempt(Strategy s);                 // try(s) = s <+ id
Strategy repeat(Strategy s);                  // s until it fails (always succeeds)
Strategy all(Strategy s);                     // s at every child of the focus
Strategy one(Strategy s);                     // s at the first child where it succeeds
Strategy some(Strategy s);                    // s at every child where it succeeds, at least one
Strategy topDown(Strategy s);                 // s at the first location (pre-order) where it succeeds
Strategy bottomUp(Strategy s);                // s at the first location (post-order) where it succeeds
Strategy allTopDown(Strategy s);              // try(s) at the focus, then at all children (pre-order)
Strategy normalise(Strategy s);               // repeat(topDown(s))
// s at child i of the focus (location focus.i), or at a relative path ("0.1").
Strategy child(int i, Strategy s);
Strategy at(Location relative, Strategy s);
// s at the body of the function of the focus's call: map(f) $ x -> f's body ("into the map").
Strategy body(Strategy s);
// s at argument i of the focus's call.
Strategy argument(int i, Strategy s);
// s at the function of the focus's call (location focus.0).
Strategy function(Strategy s);
// Succeeds (without change) when pred holds at the focus.
Strategy where(std::string text, std::function<bool(const StrategyState&, const Location&)> pred);

}  // namespace strategies

// Runs a strategy on a program at a focus (default: the main body).
StrategyResult runStrategy(const Strategy& s, const TypedProgram& p, const Location& focus = Location::body(),
                           StrategyLimits limits = {});

// Parses the textual strategy syntax:
//   s ::= RULE | RULE(NAME=VALUE, ...) | id | fail
//       | seq(s, s, ...) | s ; s | s <+ s | lchoice(s, s) | try(s) | repeat(s) | all(s) | one(s)
//       | some(s) | topDown(s) | bottomUp(s) | allTopDown(s) | normalise(s) | body(s) | function(s)
//       | argument(I, s) | child(I, s) | at(LOC, s) | ( s )
// `;` binds tighter than `<+`. Throws LiftError (with the column) on errors; unknown rule
// names get "did you mean".
Strategy parseStrategy(const std::string& text, const RuleRegistry& registry = RuleRegistry::instance());

}  // namespace lift::rewrite
