// Strategy combinators (see Strategy.h).
#include "rewrite/Strategy.h"

#include <fmt/format.h>

namespace lift::rewrite {

StrategyState::StrategyState(TypedProgram p, StrategyLimits limits)
    : program_(std::move(p)), limits_(limits) {}

std::string StrategyState::apply(const RewriteStep& step) {
  if (steps() >= limits_.maxSteps) {
    noteStop(fmt::format("step limit ({} rewrites) reached", limits_.maxSteps));
    return stopReason_;
  }
  RewriteResult r = applyRewrite(program_, step);
  if (!r) return r.message;
  program_ = std::move(*r.program);
  trace_.push_back(step);
  return "";
}

void StrategyState::noteStop(std::string reason) {
  if (stopReason_.empty()) stopReason_ = std::move(reason);
}

namespace strategies {

namespace {
size_t childCount(const StrategyState& s, const Location& focus) {
  Resolved r = resolve(s.program().main, focus);
  return r ? locationChildren(r.node).size() : 0;
}
}  // namespace

Strategy id() {
  return Strategy("id", [](const StrategyState& s, const Location&) { return StrategyResult::success(s); });
}

Strategy fail() {
  return Strategy("fail",
                  [](const StrategyState&, const Location&) { return StrategyResult::failure("fail"); });
}

Strategy rule(const Rule& r, ParamValues params) {
  std::string text = r.name;
  if (!params.empty()) {
    text += "(";
    for (size_t i = 0; i < params.values().size(); ++i)
      text += (i ? ", " : "") + params.values()[i].first + "=" + params.values()[i].second;
    text += ")";
  }
  const Rule* rp = &r;
  return Strategy(text, [rp, params](const StrategyState& s, const Location& focus) {
    StrategyState next = s;
    std::string err = next.apply(RewriteStep{rp, focus, params});
    if (!err.empty()) return StrategyResult::failure(err);
    return StrategyResult::success(std::move(next));
  });
}

Strategy seq(Strategy a, Strategy b) {
  std::string text = "seq(" + a.text() + ", " + b.text() + ")";
  return Strategy(text, [a, b](const StrategyState& s, const Location& focus) {
    StrategyResult r = a(s, focus);
    if (!r) return r;
    return b(*r.state, focus);
  });
}

Strategy seq(std::vector<Strategy> steps) {
  LIFT_ASSERT(!steps.empty(), "empty sequence");
  std::string text = "seq(";
  for (size_t i = 0; i < steps.size(); ++i) text += (i ? ", " : "") + steps[i].text();
  text += ")";
  return Strategy(text, [steps](const StrategyState& s, const Location& focus) {
    std::optional<StrategyState> cur = s;
    for (size_t i = 0; i < steps.size(); ++i) {
      StrategyResult r = steps[i](*cur, focus);
      if (!r)
        return StrategyResult::failure(
            fmt::format("step {} of {} ({}) failed: {}", i + 1, steps.size(), steps[i].text(), r.reason));
      cur = std::move(r.state);
    }
    return StrategyResult::success(std::move(*cur));
  });
}

Strategy leftChoice(Strategy a, Strategy b) {
  std::string text = "lchoice(" + a.text() + ", " + b.text() + ")";
  return Strategy(text, [a, b](const StrategyState& s, const Location& focus) {
    StrategyResult r = a(s, focus);
    if (r) return r;
    StrategyResult r2 = b(s, focus);
    if (!r2) r2.reason = r.reason + "; " + r2.reason;
    return r2;
  });
}

Strategy attempt(Strategy s) {
  std::string text = "try(" + s.text() + ")";
  return Strategy(text, [s](const StrategyState& st, const Location& focus) {
    StrategyResult r = s(st, focus);
    return r ? r : StrategyResult::success(st);
  });
}

Strategy repeat(Strategy s) {
  std::string text = "repeat(" + s.text() + ")";
  return Strategy(text, [s](const StrategyState& st, const Location& focus) {
    StrategyState cur = st;
    for (int round = 0;; ++round) {
      if (round >= cur.limits().maxRepeat) {
        cur.noteStop(
            fmt::format("repeat limit ({} rounds) reached at {}", cur.limits().maxRepeat, focus.toString()));
        break;
      }
      if (cur.steps() >= cur.limits().maxSteps) {
        cur.noteStop(fmt::format("step limit ({} rewrites) reached", cur.limits().maxSteps));
        break;
      }
      StrategyResult r = s(cur, focus);
      if (!r) break;
      // A round that changes nothing would repeat forever.
      bool progressed = r.state->steps() != cur.steps();
      cur = std::move(*r.state);
      if (!progressed) break;
    }
    return StrategyResult::success(std::move(cur));
  });
}

Strategy all(Strategy s) {
  std::string text = "all(" + s.text() + ")";
  return Strategy(text, [s](const StrategyState& st, const Location& focus) {
    StrategyState cur = st;
    size_t n = childCount(st, focus);
    for (size_t i = 0; i < n; ++i) {
      // Rewriting child i leaves the locations of its siblings (and the focus) valid.
      StrategyResult r = s(cur, focus.child(static_cast<int>(i)));
      if (!r)
        return StrategyResult::failure(
            fmt::format("all: failed at {}: {}", focus.child(int(i)).toString(), r.reason));
      cur = std::move(*r.state);
    }
    return StrategyResult::success(std::move(cur));
  });
}

Strategy one(Strategy s) {
  std::string text = "one(" + s.text() + ")";
  return Strategy(text, [s](const StrategyState& st, const Location& focus) {
    size_t n = childCount(st, focus);
    for (size_t i = 0; i < n; ++i) {
      StrategyResult r = s(st, focus.child(static_cast<int>(i)));
      if (r) return r;
    }
    return StrategyResult::failure(
        fmt::format("one: no child of {} where {} applies", focus.toString(), s.text()));
  });
}

Strategy some(Strategy s) {
  std::string text = "some(" + s.text() + ")";
  return Strategy(text, [s](const StrategyState& st, const Location& focus) {
    StrategyState cur = st;
    bool any = false;
    size_t n = childCount(st, focus);
    for (size_t i = 0; i < n; ++i) {
      StrategyResult r = s(cur, focus.child(static_cast<int>(i)));
      if (r) {
        cur = std::move(*r.state);
        any = true;
      }
    }
    if (!any)
      return StrategyResult::failure(
          fmt::format("some: no child of {} where {} applies", focus.toString(), s.text()));
    return StrategyResult::success(std::move(cur));
  });
}

namespace {
// The traversals recurse through a shared_ptr to themselves.
Strategy traversal(std::string text, Strategy s, bool preOrder) {
  // The recursion goes through a weak reference: the strategy object owns the function.
  auto impl = std::make_shared<Strategy::Fn>();
  std::weak_ptr<Strategy::Fn> weak = impl;
  *impl = [s, weak, preOrder](const StrategyState& st, const Location& focus) -> StrategyResult {
    auto self = weak.lock();
    if (preOrder) {
      StrategyResult r = s(st, focus);
      if (r) return r;
    }
    size_t n = childCount(st, focus);
    for (size_t i = 0; i < n; ++i) {
      StrategyResult r = (*self)(st, focus.child(static_cast<int>(i)));
      if (r) return r;
    }
    if (!preOrder) {
      StrategyResult r = s(st, focus);
      if (r) return r;
    }
    return StrategyResult::failure(fmt::format("{} applies nowhere below {}", s.text(), focus.toString()));
  };
  return Strategy(std::move(text),
                  [impl](const StrategyState& st, const Location& focus) { return (*impl)(st, focus); });
}
}  // namespace

Strategy topDown(Strategy s) { return traversal("topDown(" + s.text() + ")", s, true); }
Strategy bottomUp(Strategy s) { return traversal("bottomUp(" + s.text() + ")", s, false); }

Strategy allTopDown(Strategy s) {
  auto impl = std::make_shared<Strategy::Fn>();
  std::weak_ptr<Strategy::Fn> weak = impl;
  *impl = [s, weak](const StrategyState& st, const Location& focus) -> StrategyResult {
    auto self = weak.lock();
    StrategyResult r = s(st, focus);
    StrategyState cur = r ? std::move(*r.state) : st;
    size_t n = childCount(cur, focus);
    for (size_t i = 0; i < n; ++i) {
      StrategyResult c = (*self)(cur, focus.child(static_cast<int>(i)));
      cur = std::move(*c.state);
    }
    return StrategyResult::success(std::move(cur));
  };
  return Strategy("allTopDown(" + s.text() + ")",
                  [impl](const StrategyState& st, const Location& focus) { return (*impl)(st, focus); });
}

Strategy normalise(Strategy s) {
  Strategy r = repeat(topDown(s));
  return Strategy("normalise(" + s.text() + ")",
                  [r](const StrategyState& st, const Location& focus) { return r(st, focus); });
}

Strategy at(Location relative, Strategy s) {
  std::string text = "at(" + relative.toString() + ", " + s.text() + ")";
  return Strategy(text, [relative, s](const StrategyState& st, const Location& focus) {
    Location target = focus + relative;
    if (!resolve(st.program().main, target))
      return StrategyResult::failure(
          fmt::format("no location {} below {}", relative.toString(), focus.toString()));
    StrategyResult r = s(st, target);
    return r;
  });
}

Strategy child(int i, Strategy s) {
  LIFT_ASSERT(i >= 0 && i <= kMaxLocationStep, "child index out of range");
  Strategy a = at(Location({i}), s);
  return Strategy("child(" + std::to_string(i) + ", " + s.text() + ")",
                  [a](const StrategyState& st, const Location& focus) { return a(st, focus); });
}

Strategy function(Strategy s) {
  Strategy a = at(Location({0}), s);
  return Strategy("function(" + s.text() + ")",
                  [a](const StrategyState& st, const Location& focus) { return a(st, focus); });
}

Strategy argument(int i, Strategy s) {
  LIFT_ASSERT(i >= 0 && i < kMaxLocationStep, "argument index out of range");
  Strategy a = at(Location({i + 1}), s);
  return Strategy("argument(" + std::to_string(i) + ", " + s.text() + ")",
                  [a](const StrategyState& st, const Location& focus) { return a(st, focus); });
}

Strategy body(Strategy s) {
  return Strategy("body(" + s.text() + ")", [s](const StrategyState& st, const Location& focus) {
    // The focus is a call of a pattern whose function is a lambda: call.0 = pattern,
    // pattern.0 = lambda, lambda.0 = body.
    Resolved r = resolve(st.program().main, focus);
    auto* p = r && r.node.isExpr() ? ir::calledPattern(r.node.expr()) : nullptr;
    if (!p || p->params().funs.empty() || !ir::asLambda(p->params().funs[0]))
      return StrategyResult::failure(
          fmt::format("body: {} is not a call of a pattern with a lambda", focus.toString()));
    return s(st, focus + Location({0, 0, 0}));
  });
}

Strategy where(std::string text, std::function<bool(const StrategyState&, const Location&)> pred) {
  return Strategy(text, [text, pred](const StrategyState& st, const Location& focus) {
    if (pred(st, focus)) return StrategyResult::success(st);
    return StrategyResult::failure(fmt::format("{} does not hold at {}", text, focus.toString()));
  });
}

}  // namespace strategies

StrategyResult runStrategy(const Strategy& s, const TypedProgram& p, const Location& focus,
                           StrategyLimits limits) {
  return s(StrategyState(p, limits), focus);
}

}  // namespace lift::rewrite
