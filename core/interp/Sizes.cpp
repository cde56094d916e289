// Size inference, specialization to concrete sizes, validity checks and the choice of small
// valid sizes (see Sizes.h).
#include "core/interp/Sizes.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "core/interp/Interpreter.h"
#include "core/ir/Build.h"
#include "core/ir/TypeCheck.h"

namespace lift::interp {

namespace {

// ----- inference --------------------------------------------------------------------------

class SizeInference {
 public:
  explicit SizeInference(const ir::Program& p) : p_(p) {}

  void match(const ir::Param& in, Type t, const Value& v, const std::string& path) {
    switch (t.kind()) {
      case Type::Kind::Array: {
        if (!v.isArray()) mismatch(in, path, t, v);
        int64_t len = static_cast<int64_t>(v.size());
        arith::Expr e = t.length();
        if (e.kind() == arith::Kind::Var) {
          bind(in, arith::varName(e), len, path);
        } else {
          pending_.push_back({in, e, len, path});
        }
        if (len > 0) match(in, t.elem(), v.at(0), path + "[0]");
        return;
      }
      case Type::Kind::Tuple:
        if (!v.isTuple() || v.size() != t.tupleElems().size()) mismatch(in, path, t, v);
        for (size_t i = 0; i < v.size(); ++i)
          match(in, t.tupleElems()[i], v.at(i), path + fmt::format("._{}", i));
        return;
      default:
        return;  // scalars and vectors carry no sizes; checkInputs compares them
    }
  }

  // Solves the lengths that are expressions (N/4, N*M): each with one unknown size at a time.
  arith::Env finish() {
    bool progress = true;
    while (progress && !pending_.empty()) {
      progress = false;
      for (size_t i = 0; i < pending_.size(); ++i) {
        Pending& pd = pending_[i];
        std::vector<std::string> unknown;
        for (arith::Expr v : arith::variables(pd.length))
          if (!env_.count(arith::varName(v))) unknown.push_back(arith::varName(v));
        if (unknown.size() > 1) continue;
        if (unknown.size() == 1) solve(pd, unknown[0]);
        int64_t got = arith::evaluate(pd.length, env_);
        if (got != pd.actual)
          fail(pd.input,
               fmt::format("input '{}': {} has length {}, but its type says {} = {}", pd.input->name(),
                           where(pd.path), pd.actual, arith::toString(pd.length), got));
        pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
        progress = true;
        break;
      }
    }
    if (!pending_.empty()) {
      const Pending& pd = pending_.front();
      fail(pd.input,
           fmt::format(
               "input '{}': cannot infer the sizes in the length {} from the inputs; give them explicitly",
               pd.input->name(), arith::toString(pd.length)));
    }
    return env_;
  }

 private:
  struct Pending {
    ir::Param input;
    arith::Expr length;
    int64_t actual;
    std::string path;
  };

  static std::string where(const std::string& path) {
    return path.empty() ? "the array" : fmt::format("the array at {}", path);
  }

  [[noreturn]] void fail(const ir::Param& in, const std::string& message) const {
    throw InterpError(InterpError::Kind::Input, p_.diagnosticAt(in->id(), message));
  }

  [[noreturn]] void mismatch(const ir::Param& in, const std::string& path, Type t, const Value& v) const {
    fail(in,
         fmt::format("input '{}': {} should have type {}, but has type {}", in->name(),
                     path.empty() ? "the value" : "the value at " + path, t.toString(), v.type().toString()));
  }

  void bind(const ir::Param& in, const std::string& name, int64_t len, const std::string& path) {
    auto [it, inserted] = env_.emplace(name, len);
    if (!inserted && it->second != len)
      fail(in, fmt::format("input '{}': {} has length {}, but {} = {} from input '{}'", in->name(),
                           where(path), len, name, it->second, origin_.at(name)->name()));
    if (inserted) origin_[name] = in;
  }

  // Finds the value of `name` that makes pd.length equal pd.actual, assuming the length grows
  // with the size (as lengths do: N/4, 2*N, N - 2, N*M).
  void solve(const Pending& pd, const std::string& name) {
    auto at = [&](int64_t v) {
      env_[name] = v;
      return arith::evaluate(pd.length, env_);
    };
    int64_t lo = 1, hi = 1;
    while (at(hi) < pd.actual && hi < (int64_t(1) << 40)) hi *= 2;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (at(mid) < pd.actual)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (at(lo) != pd.actual)
      fail(pd.input,
           fmt::format("input '{}': {} has length {}, which {} = {} cannot give for any {}", pd.input->name(),
                       where(pd.path), pd.actual, arith::toString(pd.length), pd.actual, name));
    env_[name] = lo;
  }

  const ir::Program& p_;
  arith::Env env_;
  std::map<std::string, ir::Param> origin_;
  std::vector<Pending> pending_;
};

// ----- specialization ----------------------------------------------------------------------

class Specializer : public ir::Mutator {
 public:
  Specializer(const arith::Env& sizes, const ir::Program& p, ir::LocationMap& locs)
      : sizes_(sizes), program_(p), locs_(locs) {}

  using ir::Mutator::mutate;

  arith::Expr sub(arith::Expr e) const {
    if (!e) return e;
    std::map<arith::Expr, arith::Expr, std::less<>> repl;
    for (arith::Expr v : arith::variables(e))
      if (auto it = sizes_.find(arith::varName(v)); it != sizes_.end()) repl[v] = arith::cst(it->second);
    return repl.empty() ? e : arith::substitute(e, repl);
  }

  Type sub(Type t) const {
    if (!t) return t;
    switch (t.kind()) {
      case Type::Kind::Array:
        return Type::array(sub(t.elem()), sub(t.length()));
      case Type::Kind::Tuple: {
        std::vector<Type> elems;
        for (Type e : t.tupleElems()) elems.push_back(sub(e));
        return Type::tuple(std::move(elems));
      }
      default:
        return t;
    }
  }

  ir::Expr mutate(const ir::Expr& e) override {
    if (auto* p = ir::asParam(e)) {
      auto it = params_.find(p);
      return it == params_.end() ? e : it->second;
    }
    ir::Expr r;
    if (auto* l = ir::asLiteral(e)) {
      Type t = sub(l->type());
      r = t == l->type() ? e : ir::LiteralNode::make(l->text(), t);
    } else {
      r = ir::Mutator::mutate(e);
    }
    carry(e->id(), r->id());
    return r;
  }

  ir::Fun mutate(const ir::Fun& f) override {
    ir::Fun r;
    if (auto* l = ir::asLambda(f)) {
      std::vector<ir::Param> params;
      bool changed = false;
      for (auto& p : l->params()) {
        Type t = sub(p->declaredType());
        if (t != p->declaredType()) {
          ir::Param q = ir::ParamNode::make(p->name(), t);
          carry(p->id(), q->id());
          params_[p.get()] = q;
          params.push_back(q);
          changed = true;
        } else {
          params.push_back(p);
        }
      }
      ir::Expr body = mutate(l->body());
      r = changed || body != l->body() ? ir::LambdaNode::make(std::move(params), std::move(body)) : f;
    } else if (ir::asPattern(f)) {
      ir::Fun g = ir::Mutator::mutate(f);
      auto* p = ir::asPattern(g);
      ir::PatternNode::Params ps = p->params();
      bool changed = false;
      for (auto& s : ps.sizes) {
        arith::Expr t = sub(s);
        changed = changed || t != s;
        s = t;
      }
      for (arith::Expr* s : {&ps.indexFun.a, &ps.indexFun.b}) {
        arith::Expr t = sub(*s);
        changed = changed || t != *s;
        *s = t;
      }
      r = changed ? ir::PatternNode::make(p->pattern(), std::move(ps)) : g;
    } else {
      r = f;
    }
    carry(f->id(), r->id());
    return r;
  }

 private:
  void carry(ir::NodeId from, ir::NodeId to) {
    if (from == to) return;
    SourceLoc loc = program_.locationOf(from);
    if (loc.known()) locs_[to] = loc;
  }

  const arith::Env& sizes_;
  const ir::Program& program_;
  ir::LocationMap& locs_;
  std::unordered_map<const ir::ParamNode*, ir::Expr> params_;
};

// ----- choosing sizes ----------------------------------------------------------------------

// Constant factors the program's patterns impose on lengths.
std::vector<int64_t> constantFactors(const ir::Program& p) {
  std::vector<int64_t> out;
  auto add = [&](arith::Expr e) {
    if (e && e.isCst() && e.value() > 1) out.push_back(e.value());
  };
  ir::visitPreOrder(ir::Fun(p.main), [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (n.isExpr()) return true;
    auto* pat = ir::asPattern(n.fun());
    if (!pat) return true;
    const auto& ps = pat->params();
    switch (pat->pattern()) {
      case ir::PatternKind::Split:
      case ir::PatternKind::AsVector:
      case ir::PatternKind::PartRed:
      case ir::PatternKind::ReorderStride:
        add(ps.sizes.at(0));
        break;
      case ir::PatternKind::Slide:
      case ir::PatternKind::MapSeqSlide:  // issue 16
        add(ps.sizes.at(1));
        break;
      case ir::PatternKind::Gather:
      case ir::PatternKind::Scatter:
        if (ps.indexFun.kind == ir::IndexFun::Kind::ReorderStride) add(ps.indexFun.a);
        if (ps.indexFun.kind == ir::IndexFun::Kind::Transpose && ps.indexFun.a && ps.indexFun.b &&
            ps.indexFun.a.isCst() && ps.indexFun.b.isCst())
          add(arith::cst(ps.indexFun.a.value() * ps.indexFun.b.value()));
        break;
      default:
        break;
    }
    return true;
  });
  return out;
}

// How many elements one unit of size `name` adds to the longest input dimension it appears in
// (128 for `[float]N*128`, 1 for `[float]N`; 1 when it appears in no input's type).
int64_t inputScale(const ir::Program& p, const std::string& name) {
  int64_t scale = 1;
  std::function<void(Type)> visit = [&](Type t) {
    if (!t) return;
    if (t.isArray()) {
      arith::Env one, two;
      for (const ir::SizeDecl& d : p.sizes) one[d.name] = two[d.name] = 1;
      two[name] = 2;
      try {
        int64_t diff = arith::evaluate(t.length(), two) - arith::evaluate(t.length(), one);
        if (diff > scale) scale = diff;
      } catch (const LiftError&) {
      }
      visit(t.elem());
    } else if (t.isTuple()) {
      for (const Type& e : t.tupleElems()) visit(e);
    }
  };
  for (const ir::Param& q : p.main->params()) visit(q->declaredType());
  return scale;
}

std::vector<int64_t> candidates(const std::vector<int64_t>& factors, const SizeHint& hint) {
  int64_t l = 1;
  for (int64_t f : factors) {
    l = std::lcm(l, f);
    if (l > hint.atMost) {
      l = 1;
      break;
    }
  }
  std::set<int64_t> set;
  for (int64_t k = 1; k <= 16; ++k) set.insert(l * k);
  for (int64_t j = 0; j <= 20; ++j) {
    set.insert(int64_t(1) << j);
    set.insert(l << j);
  }
  for (int64_t f : factors)
    for (int64_t k = 1; k <= 4; ++k) set.insert(f * k);
  std::vector<int64_t> above, below;
  for (int64_t v : set) {
    if (v < 1 || v > hint.atMost) continue;
    (v >= hint.atLeast ? above : below).push_back(v);
  }
  std::reverse(below.begin(), below.end());
  // Prefer the size itself over its neighbours: keep the list short.
  if (above.size() > 24) above.resize(24);
  above.insert(above.end(), below.begin(), below.end());
  return above;
}

// Calls `visit` for rank tuples of `k` entries below `limit` whose sum is `sum`, in
// lexicographic order, until it returns true.
bool forEachTuple(size_t k, size_t sum, size_t limit, std::vector<size_t>& cur,
                  const std::function<bool(const std::vector<size_t>&)>& visit) {
  if (cur.size() + 1 == k) {
    if (sum >= limit) return false;
    cur.push_back(sum);
    bool done = visit(cur);
    cur.pop_back();
    return done;
  }
  for (size_t r = 0; r <= sum && r < limit; ++r) {
    cur.push_back(r);
    bool done = forEachTuple(k, sum - r, limit, cur, visit);
    cur.pop_back();
    if (done) return true;
  }
  return false;
}

std::string listSizes(const arith::Env& env) {
  std::string s;
  for (auto& [n, v] : env) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", n, v);
  return s;
}

}  // namespace

arith::Env inferSizes(const ir::Program& p, const std::vector<Value>& inputs) {
  const auto& params = p.main->params();
  if (inputs.size() != params.size())
    throw InterpError(InterpError::Kind::Input,
                      Diagnostic{Diagnostic::Severity::Error, SourceLoc{p.file, 0, 0},
                                 fmt::format("the program '{}' takes {} inputs, but {} were given", p.name,
                                             params.size(), inputs.size()),
                                 ""});
  SizeInference inf(p);
  for (size_t i = 0; i < params.size(); ++i)
    if (Type t = params[i]->declaredType()) inf.match(params[i], t, inputs[i], "");
  return inf.finish();
}

ir::Program specialize(const ir::Program& p, const arith::Env& sizes) {
  auto locs = std::make_shared<ir::LocationMap>();
  if (p.locations) *locs = *p.locations;
  Specializer s(sizes, p, *locs);
  ir::Program out = p;
  out.main = std::static_pointer_cast<const ir::LambdaNode>(s.mutate(ir::Fun(p.main)));
  out.locations = std::move(locs);
  return out;
}

std::optional<Diagnostic> sizeProblem(const ir::Program& p, const arith::Env& sizes) {
  for (const ir::SizeDecl& d : p.sizes) {
    auto it = sizes.find(d.name);
    if (it == sizes.end()) {
      Diagnostic diag;
      diag.loc = d.loc;
      diag.message = fmt::format("size {} has no value", d.name);
      return diag;
    }
    if (it->second < 1) {
      Diagnostic diag;
      diag.loc = d.loc;
      diag.message = fmt::format("size {} must be at least 1, not {}", d.name, it->second);
      return diag;
    }
  }
  try {
    ir::typeCheck(specialize(p, sizes));
  } catch (const LiftError& e) {
    Diagnostic d = e.diagnostic();
    d.message += fmt::format(" (at sizes {})", listSizes(sizes));
    return d;
  }
  return std::nullopt;
}

arith::Env chooseSizes(const ir::Program& p, const SizeHint& hint) {
  arith::Env env = hint.fixed;
  std::vector<std::string> free;
  for (const ir::SizeDecl& d : p.sizes) {
    if (env.count(d.name)) continue;
    if (hint.useDefaults && d.defaultValue) {
      env[d.name] = *d.defaultValue;
      continue;
    }
    free.push_back(d.name);
  }
  if (free.empty()) {
    if (auto problem = sizeProblem(p, env)) throw LiftError(*problem);
    return env;
  }
  // Candidates per size (with perInputElement "at least" applies to the lengths of the inputs,
  // so a size that counts blocks of 128 elements may be 1).
  std::vector<int64_t> factors = constantFactors(p);
  std::vector<std::vector<int64_t>> cands;
  size_t longest = 0;
  for (const std::string& name : free) {
    SizeHint h = hint;
    int64_t scale = hint.perInputElement ? inputScale(p, name) : 1;
    h.atLeast = std::max<int64_t>(1, (hint.atLeast + scale - 1) / scale);
    cands.push_back(candidates(factors, h));
    longest = std::max(longest, cands.back().size());
  }
  std::optional<Diagnostic> firstProblem;
  arith::Env found;
  size_t budget = 4000, tried = 0;
  std::vector<size_t> cur;
  for (size_t sum = 0; sum < free.size() * longest && tried < budget; ++sum) {
    bool done = forEachTuple(free.size(), sum, longest, cur, [&](const std::vector<size_t>& ranks) {
      for (size_t i = 0; i < free.size(); ++i)
        if (ranks[i] >= cands[i].size()) return false;
      arith::Env trial = env;
      for (size_t i = 0; i < free.size(); ++i) trial[free[i]] = cands[i][ranks[i]];
      auto problem = sizeProblem(p, trial);
      ++tried;
      if (!problem) {
        found = std::move(trial);
        return true;
      }
      if (!firstProblem) firstProblem = problem;
      return tried >= budget;
    });
    if (!found.empty()) return found;
    if (done) break;
  }
  std::string names;
  for (auto& n : free) names += (names.empty() ? "" : ", ") + n;
  Diagnostic d = firstProblem ? *firstProblem : Diagnostic{};
  d.message = fmt::format("found no valid values for {} (tried {} combinations); the first failed with: {}",
                          names, tried, d.message);
  throw LiftError(std::move(d));
}

}  // namespace lift::interp
