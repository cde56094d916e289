// Locations: parsing, printing, resolution and path-copying replacement (see Location.h).
#include "rewrite/Location.h"

#include <fmt/format.h>

#include <charconv>

#include "core/lang/Parser.h"
#include "core/support/Elided.h"

namespace lift::rewrite {

std::optional<Location> Location::parse(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::vector<int> steps;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find('.', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view part = text.substr(i, j - i);
    if (part.empty() || part.size() > 6) return std::nullopt;
    int v = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || p != part.data() + part.size() || v < 0 || v > kMaxLocationStep)
      return std::nullopt;
    if (steps.size() == static_cast<size_t>(lang::kMaxProgramDepth))
      return std::nullopt;  // deeper than any program
    steps.push_back(v);
    i = j + 1;
  }
  return Location(std::move(steps));
}

std::string Location::toString() const {
  std::string s;
  for (size_t i = 0; i < steps_.size(); ++i) {
    if (i) s += '.';
    s += std::to_string(steps_[i]);
  }
  return s;
}

Location Location::child(int i) const {
  Location c = *this;
  c.steps_.push_back(i);
  return c;
}

Location Location::parent() const {
  LIFT_ASSERT(!steps_.empty(), "the main function has no parent");
  Location p = *this;
  p.steps_.pop_back();
  return p;
}

bool Location::isPrefixOf(const Location& other) const {
  if (steps_.size() > other.steps_.size()) return false;
  for (size_t i = 0; i < steps_.size(); ++i)
    if (steps_[i] != other.steps_[i]) return false;
  return true;
}

Location Location::relativeTo(const Location& prefix) const {
  LIFT_ASSERT(prefix.isPrefixOf(*this), "not a prefix");
  return Location(
      std::vector<int>(steps_.begin() + static_cast<std::ptrdiff_t>(prefix.steps_.size()), steps_.end()));
}

Location Location::operator+(const Location& rel) const {
  Location r = *this;
  r.steps_.insert(r.steps_.end(), rel.steps_.begin(), rel.steps_.end());
  return r;
}

std::vector<ir::NodeRef> locationChildren(const ir::NodeRef& n) {
  std::vector<ir::NodeRef> out;
  if (n.isExpr()) {
    if (auto* c = ir::asCall(n.expr())) {
      out.reserve(c->args().size() + 1);
      out.push_back(c->fun());
      for (auto& a : c->args()) out.push_back(a);
    }
    return out;
  }
  if (auto* l = ir::asLambda(n.fun())) {
    out.push_back(l->body());
  } else if (auto* p = ir::asPattern(n.fun())) {
    for (auto& f : p->params().funs) out.push_back(f);
  }
  return out;
}

namespace {

// Child i of n without building the whole child list.
ir::NodeRef childAt(const ir::NodeRef& n, int i) {
  if (i < 0) return {};
  if (n.isExpr()) {
    if (auto* c = ir::asCall(n.expr())) {
      if (i == 0) return c->fun();
      if (i - 1 < static_cast<int>(c->args().size())) return c->args()[static_cast<size_t>(i - 1)];
    }
    return {};
  }
  if (auto* l = ir::asLambda(n.fun())) {
    if (i == 0) return l->body();
    return {};
  }
  if (auto* p = ir::asPattern(n.fun())) {
    if (i < static_cast<int>(p->params().funs.size())) return p->params().funs[static_cast<size_t>(i)];
  }
  return {};
}

ir::NodeRef rebuild(const ir::NodeRef& n, const std::vector<int>& steps, size_t depth,
                    const ir::NodeRef& replacement) {
  if (depth == steps.size()) return replacement;
  int i = steps[depth];
  ir::NodeRef child = childAt(n, i);
  ir::NodeRef newChild = rebuild(child, steps, depth + 1, replacement);
  if (n.isExpr()) {
    auto* c = ir::asCall(n.expr());
    if (i == 0) return ir::Expr(ir::CallNode::make(newChild.fun(), c->args()));
    std::vector<ir::Expr> args = c->args();
    args[static_cast<size_t>(i - 1)] = newChild.expr();
    return ir::Expr(ir::CallNode::make(c->fun(), std::move(args)));
  }
  if (auto* l = ir::asLambda(n.fun())) return ir::Fun(ir::LambdaNode::make(l->params(), newChild.expr()));
  auto* p = ir::asPattern(n.fun());
  ir::PatternNode::Params ps = p->params();
  ps.funs[static_cast<size_t>(i)] = newChild.fun();
  return ir::Fun(ir::PatternNode::make(p->pattern(), std::move(ps)));
}

}  // namespace

Resolved resolve(const ir::Lambda& main, const Location& loc, std::string* error) {
  Resolved r;
  ir::NodeRef cur = ir::Fun(main);
  for (size_t d = 0; d < loc.steps().size(); ++d) {
    ir::NodeRef next = childAt(cur, loc.steps()[d]);
    if (!next) {
      if (error) {
        Location prefix(
            std::vector<int>(loc.steps().begin(), loc.steps().begin() + static_cast<std::ptrdiff_t>(d)));
        size_t n = locationChildren(cur).size();
        *error = n == 0 ? fmt::format("location {} does not exist: {} ({}) has no children",
                                      elided(loc.toString()),
                                      prefix.isMain() ? "the main function" : elided(prefix.toString()),
                                      describeNode(cur))
                        : fmt::format("location {} does not exist: {} ({}) has children 0..{}",
                                      elided(loc.toString()),
                                      prefix.isMain() ? "the main function" : elided(prefix.toString()),
                                      describeNode(cur), n - 1);
      }
      return {};
    }
    r.ancestors.push_back(cur);
    cur = std::move(next);
  }
  r.node = std::move(cur);
  return r;
}

ir::Lambda replaceAt(const ir::Lambda& main, const Location& loc, const ir::NodeRef& replacement) {
  ir::NodeRef r = rebuild(ir::Fun(main), loc.steps(), 0, replacement);
  LIFT_ASSERT(ir::asLambda(r.fun()), "replacing the main function by a non-lambda");
  return std::static_pointer_cast<const ir::LambdaNode>(r.fun());
}

namespace {
void collect(const ir::NodeRef& n, Location& loc, std::vector<LocatedNode>& out) {
  out.push_back({loc, n});
  auto kids = locationChildren(n);
  for (size_t i = 0; i < kids.size(); ++i) {
    loc = loc.child(static_cast<int>(i));
    collect(kids[i], loc, out);
    loc = loc.parent();
  }
}
}  // namespace

std::vector<LocatedNode> allLocations(const ir::Lambda& main) {
  std::vector<LocatedNode> out;
  Location loc = Location::body();
  collect(main->body(), loc, out);
  return out;
}

std::string describeNode(const ir::NodeRef& n) {
  if (n.isExpr()) {
    if (auto* l = ir::asLiteral(n.expr())) return fmt::format("literal {}", l->text());
    if (auto* p = ir::asParam(n.expr())) return fmt::format("parameter {}", p->name());
    auto* c = ir::asCall(n.expr());
    if (auto* p = ir::asPattern(c->fun())) return fmt::format("call of {}", ir::patternName(p->pattern()));
    if (auto* u = ir::asUserFun(c->fun())) return fmt::format("call of {}", u->def().name);
    return "call of a lambda";
  }
  if (!n) return "nothing";
  if (auto* l = ir::asLambda(n.fun())) {
    std::string ps;
    for (auto& p : l->params()) ps += (ps.empty() ? "" : ", ") + p->name();
    return fmt::format("lambda ({})", ps);
  }
  if (auto* p = ir::asPattern(n.fun())) return fmt::format("pattern {}", ir::patternName(p->pattern()));
  return fmt::format("user function {}", ir::asUserFun(n.fun())->def().name);
}

}  // namespace lift::rewrite
