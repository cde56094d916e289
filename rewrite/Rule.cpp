// Rules as data: families, parameter values and their validation, site queries.
#include "rewrite/Rule.h"

#include <fmt/format.h>

#include <charconv>
#include <numeric>

namespace lift::rewrite {

namespace {
struct FamilyInfo {
  Family family;
  std::string_view name, doc;
};
constexpr FamilyInfo kFamilies[] = {
#define LIFT_FAMILY_INFO(E, name, doc) {Family::E, name, doc},
    LIFT_RULE_FAMILIES(LIFT_FAMILY_INFO)
#undef LIFT_FAMILY_INFO
};

std::optional<int64_t> parseInt(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool isName(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}
}  // namespace

std::string_view familyName(Family f) { return kFamilies[static_cast<size_t>(f)].name; }
std::string_view familyDescription(Family f) { return kFamilies[static_cast<size_t>(f)].doc; }

std::optional<Family> familyByName(std::string_view name) {
  for (auto& f : kFamilies)
    if (f.name == name) return f.family;
  return std::nullopt;
}

std::vector<Family> allFamilies() {
  std::vector<Family> out;
  for (auto& f : kFamilies) out.push_back(f.family);
  return out;
}

// ----- parameter values ----------------------------------------------------------------------

ParamValues ParamValues::parse(std::string_view text) {
  ParamValues pv;
  if (text.empty()) return pv;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find(',', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view item = text.substr(i, j - i);
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw LiftError(fmt::format("bad parameter '{}': expected NAME=VALUE (e.g. n=4)", item));
    std::string name(item.substr(0, eq));
    if (pv.has(name)) throw LiftError(fmt::format("parameter '{}' given twice", name));
    pv.values_.emplace_back(std::move(name), std::string(item.substr(eq + 1)));
    i = j + 1;
  }
  return pv;
}

void ParamValues::set(const std::string& name, std::string value) {
  for (auto& [k, v] : values_)
    if (k == name) {
      v = std::move(value);
      return;
    }
  values_.emplace_back(name, std::move(value));
}

bool ParamValues::has(std::string_view name) const { return find(name) != nullptr; }

const std::string* ParamValues::find(std::string_view name) const {
  for (auto& [k, v] : values_)
    if (k == name) return &v;
  return nullptr;
}

const std::string& ParamValues::text(std::string_view name) const {
  const std::string* v = find(name);
  LIFT_ASSERT(v, fmt::format("missing rule parameter '{}'", name));
  return *v;
}

int64_t ParamValues::integer(std::string_view name) const {
  auto v = parseInt(text(name));
  if (!v)
    throw ParamError(fmt::format("parameter {} must be a constant integer here, got '{}'", name, text(name)));
  return *v;
}

arith::Expr ParamValues::factor(std::string_view name, const ir::Program& program) const {
  const std::string& t = text(name);
  if (auto v = parseInt(t)) return arith::cst(*v);
  std::map<std::string, arith::Expr> vars;
  for (auto& s : program.sizes) vars[s.name] = s.var;
  return arith::parse(t, vars, "<parameter>");
}

std::string ParamValues::toString() const {
  std::string s;
  for (auto& [k, v] : values_) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

std::string validateParamValue(const ParamSpec& spec, const std::string& value) {
  switch (spec.kind) {
    case ParamKind::Factor: {
      if (auto v = parseInt(value)) {
        if (*v < 1) return fmt::format("parameter {} must be positive, got {}", spec.name, value);
        break;
      }
      try {
        arith::Expr e = arith::parse(value, {}, "<parameter>");
        if (!arith::provablyPositive(e))
          return fmt::format("parameter {} must be a positive integer or size expression, got '{}'",
                             spec.name, value);
      } catch (const LiftError&) {
        return fmt::format("parameter {} must be a positive integer or size expression, got '{}'", spec.name,
                           value);
      }
      break;
    }
    case ParamKind::Count: {
      auto v = parseInt(value);
      if (!v || *v < 0)
        return fmt::format("parameter {} must be a non-negative integer, got '{}'", spec.name, value);
      break;
    }
    case ParamKind::Dim: {
      auto v = parseInt(value);
      if (!v || *v < 0 || *v > 2)
        return fmt::format("parameter {} must be a dimension 0, 1 or 2, got '{}'", spec.name, value);
      break;
    }
    case ParamKind::Width: {
      auto v = parseInt(value);
      if (!v || (*v != 2 && *v != 3 && *v != 4 && *v != 8 && *v != 16))
        return fmt::format("parameter {} must be a vector width 2, 3, 4, 8 or 16, got '{}'", spec.name,
                           value);
      break;
    }
    case ParamKind::Name:
      if (!isName(value)) return fmt::format("parameter {} must be a name, got '{}'", spec.name, value);
      break;
  }
  if (!spec.allowed.empty()) {
    bool ok = false;
    for (auto& a : spec.allowed) ok = ok || a == value;
    if (!ok) {
      std::string list;
      for (auto& a : spec.allowed) list += (list.empty() ? "" : ", ") + a;
      return fmt::format("parameter {} must be one of {}, got '{}'", spec.name, list, value);
    }
  }
  return "";
}

const ParamSpec* Rule::param(std::string_view n) const {
  for (auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

std::string Rule::completeParams(ParamValues& values) const {
  for (auto& [k, v] : values.values()) {
    const ParamSpec* spec = param(k);
    if (!spec) {
      if (params.empty()) return fmt::format("rule {} takes no parameters, got '{}'", name, k);
      std::string list;
      for (auto& p : params) list += (list.empty() ? "" : ", ") + p.name;
      return fmt::format("unknown parameter '{}' of {} (it has: {})", k, name, list);
    }
    if (std::string err = validateParamValue(*spec, v); !err.empty()) return name + ": " + err;
  }
  ParamValues ordered;
  for (auto& p : params) ordered.set(p.name, values.has(p.name) ? values.text(p.name) : p.defaultValue);
  values = std::move(ordered);
  return "";
}

// ----- sites -------------------------------------------------------------------------------

namespace {
// Ancestors `a[i]` that are patterns whose nested function leads to the site.
template <class F>
bool anyEnclosingPattern(const Site& s, F&& pred) {
  for (size_t i = 0; i + 1 <= s.ancestors.size(); ++i) {
    auto* p = ir::asPattern(s.ancestors[i].fun());
    if (!p) continue;
    // The next node on the way down is one of p's nested functions (patterns' only children).
    if (pred(*p)) return true;
  }
  return false;
}
}  // namespace

Type Site::typeOf(const ir::Expr& e) const {
  // The innermost iterate whose function leads to the site.
  const ir::CallNode* call = nullptr;
  size_t at = 0;
  for (size_t i = ancestors.size(); i-- > 0;) {
    auto* c = ir::asCall(ancestors[i].expr());
    auto* p = c ? ir::asPattern(c->fun()) : nullptr;
    if (p && p->pattern() == ir::PatternKind::Iterate && i + 1 < ancestors.size() &&
        ancestors[i + 1].get() == c->fun().get()) {
      call = c;
      at = i;
      break;
    }
  }
  if (!call) return types->typeOf(e);
  for (size_t i = 0; i < at; ++i)  // an outer iterate varies these types as well
    if (auto* p = ir::asPattern(ancestors[i].fun()); p && p->pattern() == ir::PatternKind::Iterate) return {};
  auto it = types->iterations.find(call);
  if (it == types->iterations.end()) return types->typeOf(e);  // a symbolic count: already symbolic
  if (iterateCall != call) {
    iterateCall = call;
    iterateTypes.reset();
    const std::vector<Type>& ts = it->second;
    if (ts.size() >= 2 && ts[0].isArray()) {
      int64_t g = 0;
      for (size_t k = 0; k + 1 < ts.size(); ++k) g = std::gcd(g, arith::constantDivisor(ts[k].length()));
      iterateLength = arith::sizeVar(fmt::format("L{}", call->id()));
      arith::Expr len = g > 1 ? arith::cst(g) * iterateLength : iterateLength;
      ir::TypeCheckOptions opts;
      opts.checkParallelNesting = false;
      try {
        iterateTypes = std::make_shared<const ir::TypeInfo>(
            ir::typeCheck(ir::asPattern(call->fun())->f(), {Type::array(ts[0].elem(), len)}, opts));
      } catch (const LiftError&) {
        iterateTypes.reset();
      }
    }
  }
  return iterateTypes ? iterateTypes->typeOf(e) : Type();
}

bool Site::variesPerIteration(arith::Expr e) const {
  if (!e || !iterateLength) return false;
  for (arith::Expr v : arith::variables(e))
    if (v == iterateLength) return true;
  return false;
}

bool Site::insidePattern(ir::PatternKind k, int dim) const {
  return anyEnclosingPattern(
      *this, [&](const ir::PatternNode& p) { return p.pattern() == k && (dim < 0 || p.index() == dim); });
}

bool Site::insideParallelMap() const {
  return anyEnclosingPattern(*this, [](const ir::PatternNode& p) { return ir::isParallelMap(p.pattern()); });
}

bool Site::insideSequential() const {
  return anyEnclosingPattern(*this, [](const ir::PatternNode& p) {
    auto k = p.pattern();
    return k == ir::PatternKind::MapSeq || k == ir::PatternKind::MapSeqUnroll ||
           k == ir::PatternKind::ReduceSeq || k == ir::PatternKind::ReduceSeqUnroll ||
           k == ir::PatternKind::ScanSeq || k == ir::PatternKind::MapVec ||
           k == ir::PatternKind::MapSeqSlide ||
           ir::isDataDependentSeq(k);  // issue 17 (lift17p): searches, reduceWhileSeq, filterSeq, sort
  });
}

}  // namespace lift::rewrite
