// The seeds' exploration heuristics (see Heuristics.h).
#include "rewrite/explore/Heuristics.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "rewrite/Location.h"
#include "rewrite/Match.h"

namespace lift::explore {

namespace {

using ir::PatternKind;

bool loopLike(PatternKind k) {
  return ir::isMapLike(k) || ir::isReduceLike(k) || ir::isScanLike(k) || k == PatternKind::Iterate ||
         k == PatternKind::MapSeqSlide;
}

// Whether `root` (a function or an expression) calls, at any depth, a user function whose body
// contains `op`.
template <class Root>
bool callsUserFunWith(const Root& root, char op) {
  bool found = false;
  ir::visitPreOrder(root, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (auto* u = ir::asUserFun(n.fun()); u && u->def().bodyText.find(op) != std::string::npos) found = true;
    return !found;
  });
  return found;
}

bool isZipCall(const ir::CallNode* call) {
  auto* p = ir::asPattern(call->fun());
  return p && (p->pattern() == PatternKind::Zip || p->pattern() == PatternKind::Tuple);
}

// Patterns between a reduction's input and the nearest multiplication (-1: none feeds it).
int distanceToMultiplication(const ir::Expr& input) {
  int count = 0;
  ir::Expr e = input;
  for (int guard = 0; guard < 1000 && e; ++guard) {
    auto* call = ir::asCall(e);
    if (!call || call->args().empty()) return -1;
    const ir::Fun& f = call->fun();
    auto* p = ir::asPattern(f);
    if (p) {
      if (ir::isMapLike(p->pattern()) && callsUserFunWith(p->f(), '*')) return count;
      if (ir::isReduceLike(p->pattern()) && callsUserFunWith(p->f(), '*')) return count;
      if (!ir::isDataLayout(p->pattern())) ++count;
    } else if (auto* u = ir::asUserFun(f)) {
      if (u->def().bodyText.find('*') != std::string::npos) return count;
      ++count;
    } else if (auto* l = ir::asLambda(f)) {
      // A lambda applied to data: what it computes counts once, its body may hold the product.
      if (callsUserFunWith(l->body(), '*')) return count;
      if (callsUserFunWith(f, '+') || callsUserFunWith(f, '-')) ++count;
    }
    // Follow the data: the last argument (a reduction's array, a map's input).
    if (isZipCall(call)) {
      int best = -1;
      for (auto& a : call->args()) {
        int d = distanceToMultiplication(a);
        if (d >= 0 && (best < 0 || d < best)) best = d;
      }
      return best < 0 ? -1 : count + best;
    }
    e = call->args().back();
  }
  return -1;
}

}  // namespace

int nestingDepth(const ir::Program& p) {
  int best = 0;
  ir::visitPreOrder(ir::Fun(p.main), [&](const ir::NodePath& path) {
    int depth = 0;
    for (const ir::PathStep& s : path)
      if (!s.node.isExpr())
        if (auto* pat = ir::asPattern(s.node.fun()); pat && loopLike(pat->pattern())) ++depth;
    best = std::max(best, depth);
    return true;
  });
  return best;
}

int mulAddDistance(const ir::Program& p) {
  int worst = -1;
  ir::visitPreOrder(ir::Fun(p.main), [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (!n.isExpr()) return true;
    auto* call = ir::asCall(n.expr());
    auto* pat = call ? ir::asPattern(call->fun()) : nullptr;
    if (!pat || !rewrite::m::isReduction(pat->pattern()) || call->args().empty()) return true;
    if (!callsUserFunWith(pat->f(), '+')) return true;
    int d = callsUserFunWith(pat->f(), '*') ? 0 : distanceToMultiplication(call->args().back());
    if (d >= 0) worst = std::max(worst, d);
    return true;
  });
  return worst;
}

int maxRuleUses(const std::vector<rewrite::RewriteStep>& steps) {
  std::map<std::string, int> uses;
  int best = 0;
  for (auto& s : steps)
    if (s.rule) best = std::max(best, ++uses[s.rule->name]);
  return best;
}

int derivationPromise(const std::vector<rewrite::RewriteStep>& steps) {
  std::map<std::string, int> uses;
  int score = 0;
  for (auto& s : steps) {
    if (!s.rule) continue;
    int n = ++uses[s.rule->name];
    if (n > 1) {
      score -= 2;
      continue;
    }
    // Reuse of loaded data first (register blocking), then vector units, then fused
    // multiply-adds; tiling pays off with local memory, the others are minor.
    const std::string& name = s.rule->name;
    if (name == "tile-reduction-blocked")  // register blocks in local-memory tiles
      score += 6;
    else if (name.rfind("register-blocking", 0) == 0)
      score += 5;
    else if (name == "vectorize-lanes")
      score += 4;
    else if (name == "userfun-fusion" || s.rule->family == rewrite::Family::Vectorisation)
      score += 3;
    else if (name == "tiling" || name == "tile-reduction" || name == "dot-vectorisation")
      score += 2;
    else if (name == "reduce-map-fusion" || name == "reduce-seq-map-fusion" || name == "asvector-asscalar-id")
      score += 1;
  }
  return score;
}

namespace {

// Whether the rows of `e` are columns of a row-major array: a transpose, split or joined into
// chunks of rows, or a chunk that a map enclosing the site (`ancestors`) takes from such.
bool rowsAreColumns(const ir::Expr& e, const std::vector<ir::NodeRef>& ancestors) {
  if (rewrite::m::callOf(e, PatternKind::Transpose)) return true;
  if (rewrite::m::callOf(e, PatternKind::Split) || rewrite::m::callOf(e, PatternKind::Join))
    return rowsAreColumns(rewrite::m::arg(e, 0), ancestors);
  const ir::ParamNode* p = ir::asParam(e);
  if (!p) return false;
  for (const ir::NodeRef& a : ancestors) {
    if (!a.isExpr()) continue;
    auto mc = rewrite::m::mapCall(a.expr());
    auto* l = mc ? ir::asLambda(mc->f) : nullptr;
    if (l && l->params().size() == 1 && l->params()[0].get() == p)
      return rowsAreColumns(mc->input, ancestors);
  }
  return false;
}

}  // namespace

bool vectorisesContiguousLanes(const ir::Program& before, const rewrite::RewriteStep& step) {
  if (!step.rule || step.rule->name != "vectorize-lanes") return false;
  rewrite::Resolved at = rewrite::resolve(before.main, step.loc);
  if (!at || !at.node.isExpr()) return false;
  auto mc = rewrite::m::mapCall(at.node.expr(), PatternKind::Map);
  if (!mc || !rowsAreColumns(mc->input, at.ancestors)) return false;
  // Computing lanes, not a reshaping of the data (map(join) over a transpose).
  bool computes = false;
  ir::visitPreOrder(mc->f, [&](const ir::NodePath& path) {
    computes = computes || ir::asUserFun(path.back().node.fun());
    return !computes;
  });
  return computes;
}

std::string heuristicRejection(const ir::Program& p, const std::vector<rewrite::RewriteStep>& steps,
                               const HeuristicLimits& limits) {
  if (limits.maxRuleUses > 0) {
    std::map<std::string, int> uses;
    for (auto& s : steps)
      if (s.rule && ++uses[s.rule->name] > limits.maxRuleUses)
        return fmt::format("the rule {} is applied more than {} times", s.rule->name, limits.maxRuleUses);
  }
  if (limits.maxNesting > 0)
    if (int d = nestingDepth(p); d > limits.maxNesting)
      return fmt::format("loops nest {} deep (at most {})", d, limits.maxNesting);
  if (limits.maxDistance >= 0)
    if (int d = mulAddDistance(p); d > limits.maxDistance)
      return fmt::format("the multiplication is {} patterns away from the addition (at most {})", d,
                         limits.maxDistance);
  return "";
}

}  // namespace lift::explore
