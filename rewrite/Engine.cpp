// The rewriting engine (see Engine.h).
#include "rewrite/Engine.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <unordered_set>

#include "core/ir/Build.h"
#include "core/support/Elided.h"

namespace lift::rewrite {

TypedProgram TypedProgram::check(ir::Program p) {
  auto info = std::make_shared<const ir::TypeInfo>(ir::typeCheck(p));
  return TypedProgram{std::move(p), std::move(info)};
}

ir::Program withMain(const ir::Program& p, ir::Lambda main) {
  ir::Program r = p;
  r.main = std::move(main);
  std::vector<std::shared_ptr<const ir::UserFunDef>> used = ir::userFunsOf(r.main);
  std::vector<std::shared_ptr<const ir::UserFunDef>> ordered;
  std::unordered_set<const ir::UserFunDef*> have;
  for (auto& u : used) have.insert(u.get());
  // Keep the program's order for the ones it had (and drop the unused), then the new ones.
  std::unordered_set<const ir::UserFunDef*> placed;
  for (auto& u : p.userFuns)
    if (have.count(u.get())) {
      ordered.push_back(u);
      placed.insert(u.get());
    }
  for (auto& u : used)
    if (!placed.count(u.get())) ordered.push_back(u);
  r.userFuns = std::move(ordered);
  return r;
}

// ----- specs -----------------------------------------------------------------------------

std::string RewriteStep::spec() const {
  std::string s = fmt::format("{}@{}", rule ? rule->name : "?", loc.toString());
  if (!params.empty()) s += ":" + params.toString();
  return s;
}

RewriteStep RewriteStep::parse(std::string_view spec, const RuleRegistry& registry) {
  size_t at = spec.find('@');
  if (at == std::string_view::npos)
    throw LiftError(
        fmt::format("bad rewrite '{}': expected RULE@LOCATION[:PARAMS], e.g. map-fusion@0.1", spec));
  std::string_view name = spec.substr(0, at);
  std::string_view rest = spec.substr(at + 1);
  std::string_view locText = rest, paramText;
  if (size_t colon = rest.find(':'); colon != std::string_view::npos) {
    locText = rest.substr(0, colon);
    paramText = rest.substr(colon + 1);
    if (paramText.empty()) throw LiftError(fmt::format("bad rewrite '{}': nothing after ':'", spec));
  }
  const Rule* rule = registry.find(name);
  if (!rule) {
    std::string msg = fmt::format("unknown rule '{}'", name);
    auto sugg = registry.suggestions(name);
    if (!sugg.empty()) {
      msg += "; did you mean ";
      for (size_t i = 0; i < sugg.size(); ++i)
        msg += (i ? (i + 1 == sugg.size() ? " or " : ", ") : "") + sugg[i];
      msg += "?";
    }
    msg += " (liftc rules --all lists every rule)";
    throw LiftError(msg);
  }
  auto loc = Location::parse(locText);
  if (!loc)
    throw LiftError(
        fmt::format("bad location '{}' in '{}': expected dot-separated child indices such as 0.1.0",
                    elided(locText), elided(spec)));
  RewriteStep step{rule, *loc, ParamValues::parse(paramText)};
  ParamValues completed = step.params;
  if (std::string err = rule->completeParams(completed); !err.empty()) throw LiftError(err);
  return step;
}

// ----- applying --------------------------------------------------------------------------

namespace {

std::string rootsText(const Rule& r) {
  std::string s;
  for (size_t i = 0; i < r.roots.size(); ++i) {
    if (i) s += i + 1 == r.roots.size() ? " or " : ", ";
    s += ir::patternName(r.roots[i]);
  }
  return s;
}

// Checks the node kind and the root pattern; "" if the rule may be tried at the node.
std::string quickReject(const Rule& rule, const ir::NodeRef& node) {
  if (rule.target == Target::Expr && !node.isExpr())
    return fmt::format("{} rewrites expressions, but {} is a function", rule.name, describeNode(node));
  if (rule.target == Target::Fun && node.isExpr())
    return fmt::format("{} rewrites functions, but {} is an expression", rule.name, describeNode(node));
  if (!rule.roots.empty()) {
    auto* p = ir::calledPattern(node.expr());
    bool ok = false;
    for (auto k : rule.roots) ok = ok || (p && p->pattern() == k);
    if (!ok)
      return fmt::format("applies to a call of {}, not to the {}", rootsText(rule), describeNode(node));
  }
  return "";
}

bool quickOk(const Rule& rule, const ir::NodeRef& node) {
  if ((rule.target == Target::Expr) != node.isExpr()) return false;
  if (rule.roots.empty()) return true;
  auto* p = ir::calledPattern(node.expr());
  if (!p) return false;
  for (auto k : rule.roots)
    if (p->pattern() == k) return true;
  return false;
}

Site makeSite(const TypedProgram& p, const Location& loc, Resolved&& r) {
  Site s;
  s.program = &p.program;
  s.types = p.types.get();
  s.typed = &p;
  s.loc = loc;
  s.node = std::move(r.node);
  s.ancestors = std::move(r.ancestors);
  return s;
}

}  // namespace

namespace {

// The first constant in `e` beyond the 32-bit sizes the language can write (the parser refuses
// a larger literal), if any.
std::optional<int64_t> oversizedConstant(arith::Expr e) {
  if (e.isCst()) {
    int64_t v = e.value();
    if (v > INT32_MAX || v < -INT32_MAX) return v;
    return std::nullopt;
  }
  for (arith::Expr o : e.operands())
    if (auto v = oversizedConstant(o)) return v;
  return std::nullopt;
}

std::optional<int64_t> oversizedConstant(const Type& t) {
  if (!t) return std::nullopt;
  if (t.isArray()) {
    if (auto v = oversizedConstant(t.length())) return v;
    return oversizedConstant(t.elem());
  }
  if (t.isTuple())
    for (const Type& e : t.tupleElems())
      if (auto v = oversizedConstant(e)) return v;
  return std::nullopt;
}

// Why a whole-program result cannot be written as a program (an input length such as
// 1099511627776*N that `liftc check` would refuse), or "".
std::string unwritableInputs(const ir::Program& p) {
  for (const auto& in : p.main->params())
    if (auto v = oversizedConstant(in->declaredType()))
      return fmt::format(
          "the type of input '{}' would be {}: its constant {} is beyond the 32-bit sizes "
          "(at most {})",
          in->name(), in->declaredType().toString(), *v, INT32_MAX);
  return "";
}

}  // namespace

Outcome tryRule(const TypedProgram& p, const Rule& rule, const Location& loc, ParamValues params,
                RewriteError* error) {
  auto setError = [&](RewriteError e) {
    if (error) *error = e;
  };
  std::string why;
  Resolved r = resolve(p.main(), loc, &why);
  if (!r) {
    setError(RewriteError::NoSuchLocation);
    return Outcome::fail(why);
  }
  if (loc.isMain()) {
    setError(RewriteError::WrongNodeKind);
    return Outcome::fail("rules do not apply to the main function itself; its body is location 0");
  }
  if ((rule.target == Target::Expr) != r.node.isExpr()) {
    setError(RewriteError::WrongNodeKind);
    return Outcome::fail(quickReject(rule, r.node));
  }
  if (std::string err = rule.completeParams(params); !err.empty()) {
    setError(RewriteError::BadParameters);
    return Outcome::fail(err);
  }
  if (std::string q = quickReject(rule, r.node); !q.empty()) {
    setError(RewriteError::DoesNotApply);
    return Outcome::fail(q);
  }
  Site site = makeSite(p, loc, std::move(r));
  try {
    Outcome o = rule.apply(site, params);
    if (o && o.program())
      if (std::string unwritable = unwritableInputs(*o.program()); !unwritable.empty())
        o = Outcome::fail(unwritable);
    setError(o ? RewriteError::None : RewriteError::DoesNotApply);
    return o;
  } catch (const ParamError& e) {
    setError(RewriteError::BadParameters);
    return Outcome::fail(fmt::format("{}: {}", rule.name, e.diagnostic().message));
  }
}

RewriteResult applyRewrite(const TypedProgram& p, const RewriteStep& step) {
  RewriteResult res;
  LIFT_ASSERT(step.rule, "rewrite without a rule");
  RewriteError err = RewriteError::None;
  Outcome o = tryRule(p, *step.rule, step.loc, step.params, &err);
  if (!o) {
    res.error = err;
    res.message =
        err == RewriteError::DoesNotApply
            ? fmt::format("{} does not apply at {}: {}", step.rule->name, step.loc.toString(), o.reason())
            : o.reason();
    return res;
  }
  res.replaced = resolve(p.main(), step.loc).node;
  res.replacement = o.result();
  ir::Program next =
      o.program() ? *o.program() : withMain(p.program, replaceAt(p.main(), step.loc, o.result()));
  try {
    res.program = TypedProgram::check(std::move(next));
  } catch (const LiftError& e) {
    res.error = RewriteError::IllTyped;
    res.message = fmt::format("{} at {} produced an ill-typed program (a bug in the rule): {}",
                              step.rule->name, step.loc.toString(), e.diagnostic().message);
    res.program.reset();
  }
  return res;
}

// ----- enumeration -----------------------------------------------------------------------

std::vector<ParamValues> parameterChoices(const Rule& rule, const Site& site) {
  std::vector<ParamValues> out;
  if (rule.params.empty()) {
    out.emplace_back();
    return out;
  }
  if (rule.candidates) out = rule.candidates(site);
  if (out.empty()) out.emplace_back();
  for (auto& pv : out) {
    std::string err = rule.completeParams(pv);
    LIFT_ASSERT(err.empty(), fmt::format("rule {} proposed bad parameters: {}", rule.name, err));
  }
  return out;
}

namespace {
bool familySelected(const EnumerateOptions& opts, Family f) {
  if (opts.families.empty()) return true;
  for (auto g : opts.families)
    if (g == f) return true;
  return false;
}
}  // namespace

std::vector<RewriteStep> enumerateRewrites(const TypedProgram& p, const EnumerateOptions& opts) {
  const RuleRegistry& reg = opts.registry ? *opts.registry : RuleRegistry::instance();
  std::vector<const Rule*> rules;
  for (const Rule* r : reg.rules())
    if ((opts.includeMacros || !r->macro) && familySelected(opts, r->family)) rules.push_back(r);

  std::vector<RewriteStep> out;
  // Walk the tree keeping the path, so every site gets its ancestors without re-resolving.
  Site site;
  site.program = &p.program;
  site.types = p.types.get();
  site.typed = &p;
  std::vector<int> steps;
  std::function<void(const ir::NodeRef&)> visit = [&](const ir::NodeRef& n) {
    site.node = n;
    site.loc = Location(steps);
    for (const Rule* r : rules) {
      if (!quickOk(*r, n)) continue;
      for (ParamValues& pv : parameterChoices(*r, site)) {
        if (r->apply(site, pv)) {
          out.push_back({r, site.loc, r->params.empty() ? ParamValues{} : pv});
          if (!opts.allParameterChoices) break;
        }
      }
    }
    auto kids = locationChildren(n);
    site.ancestors.push_back(n);
    for (size_t i = 0; i < kids.size(); ++i) {
      steps.push_back(static_cast<int>(i));
      visit(kids[i]);
      steps.pop_back();
    }
    site.ancestors.pop_back();
  };
  site.ancestors.push_back(ir::Fun(p.main()));
  steps.push_back(0);
  visit(p.main()->body());
  return out;
}

std::vector<RuleAtLocation> rulesAt(const TypedProgram& p, const Location& loc, bool withPreview,
                                    const RuleRegistry* registry) {
  const RuleRegistry& reg = registry ? *registry : RuleRegistry::instance();
  std::string why;
  Resolved r = resolve(p.main(), loc, &why);
  if (!r) throw LiftError(why);
  Site site = makeSite(p, loc, std::move(r));
  std::vector<RuleAtLocation> out;
  for (const Rule* rule : reg.rules()) {
    RuleAtLocation ra;
    ra.rule = rule;
    if (std::string q =
            loc.isMain() ? "rules do not apply to the main function itself" : quickReject(*rule, site.node);
        !q.empty()) {
      ra.reason = q;
      ParamValues defaults;
      rule->completeParams(defaults);
      ra.params = defaults;
      out.push_back(std::move(ra));
      continue;
    }
    std::vector<ParamValues> choices = parameterChoices(*rule, site);
    std::optional<Outcome> first;
    for (ParamValues& pv : choices) {
      Outcome o = rule->apply(site, pv);
      if (o) {
        if (!ra.applies) {
          ra.applies = true;
          ra.params = pv;
          first = std::move(o);
        } else {
          ra.alternatives.push_back(pv);
        }
      } else if (!ra.applies && ra.reason.empty()) {
        ra.reason = o.reason();
        ra.params = pv;
      }
    }
    if (ra.applies) {
      ra.reason.clear();
      if (withPreview) {
        ir::Program next = first->program() ? *first->program()
                                            : withMain(p.program, replaceAt(p.main(), loc, first->result()));
        try {
          ra.preview = TypedProgram::check(std::move(next));
        } catch (const LiftError& e) {
          ra.applies = false;
          ra.reason = fmt::format("the result is ill-typed (a bug in the rule): {}", e.diagnostic().message);
        }
      }
    }
    if (rule->params.empty()) ra.params = {};
    out.push_back(std::move(ra));
  }
  return out;
}

}  // namespace lift::rewrite
