// Helpers shared by the rule files (see RuleSupport.h).
#include "rewrite/rules/RuleSupport.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>

#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunBuiltins.h"

namespace lift::rewrite::support {

std::string typeStr(Type t) { return t ? t.toString() : "an unknown type"; }
std::string patName(PatternKind k) { return std::string(ir::patternName(k)); }

Type typeAt(const Site& s, const Expr& e) { return s.typeOf(e); }

arith::Expr lengthAt(const Site& s, const Expr& e) {
  Type t = s.typeOf(e);
  return t && t.isArray() ? t.length() : arith::Expr();
}

Outcome unknownType(const Site& s, const std::string& what) {
  if (s.insidePattern(PatternKind::Iterate))
    return fail("the type of {} changes from one iteration of the enclosing iterate to the next", what);
  return fail("the type of {} is unknown", what);
}

std::vector<int64_t> provenDivisors(arith::Expr len, size_t max, bool allowWhole) {
  std::vector<int64_t> out;
  if (!len) return out;
  int64_t c = arith::constantDivisor(len);
  if (c <= 1) return out;
  for (int64_t d = 2; d <= c && d <= 1 << 16 && out.size() < max; ++d) {
    if (c % d != 0) continue;
    if (!allowWhole && len.isCst() && d == len.value()) continue;
    out.push_back(d);
  }
  return out;
}

std::vector<ParamValues> factorCandidates(const std::string& name, arith::Expr len, int64_t def, size_t max,
                                          bool allowWhole) {
  std::vector<ParamValues> out;
  std::vector<int64_t> ds = provenDivisors(len, 64, allowWhole);
  // Powers of two first (the usual tuning values), then the others; the default leads.
  std::stable_sort(ds.begin(), ds.end(), [](int64_t a, int64_t b) {
    bool pa = (a & (a - 1)) == 0, pb = (b & (b - 1)) == 0;
    return pa != pb ? pa : a < b;
  });
  if (std::find(ds.begin(), ds.end(), def) != ds.end()) {
    ds.erase(std::find(ds.begin(), ds.end(), def));
    ds.insert(ds.begin(), def);
  }
  for (int64_t d : ds) {
    if (out.size() >= max) break;
    out.push_back({{name, std::to_string(d)}});
  }
  return out;
}

// ----- operators ------------------------------------------------------------------------------

namespace {

const cfun::Expr* stripConvert(const cfun::Expr* e) {
  while (e && e->kind == cfun::Expr::Kind::Convert && e->operands.size() == 1) e = e->operands[0].get();
  return e;
}

bool isVar(const cfun::Expr* e, int v) {
  e = stripConvert(e);
  return e && e->kind == cfun::Expr::Kind::Var && e->var == v;
}

// The single returned expression of a body `{ return e; }`.
const cfun::Expr* returnedExpr(const cfun::Body& b) {
  const cfun::Stmt* s = b.block.get();
  while (s && s->kind == cfun::Stmt::Kind::Block && s->body.size() == 1) s = s->body[0].get();
  if (!s || s->kind != cfun::Stmt::Kind::Return || s->exprs.empty()) return nullptr;
  return s->exprs[0].get();
}

BinOp binaryOf(cfun::BinaryOp op) {
  switch (op) {
    case cfun::BinaryOp::Add:
      return BinOp::Add;
    case cfun::BinaryOp::Mul:
      return BinOp::Mul;
    case cfun::BinaryOp::BitAnd:
      return BinOp::And;
    case cfun::BinaryOp::BitOr:
      return BinOp::Or;
    case cfun::BinaryOp::BitXor:
      return BinOp::Xor;
    case cfun::BinaryOp::LogAnd:
      return BinOp::LogAnd;
    case cfun::BinaryOp::LogOr:
      return BinOp::LogOr;
    default:
      return BinOp::None;
  }
}

void fillAlgebra(OperatorInfo& info) {
  switch (info.op) {
    case BinOp::None:
      return;
    case BinOp::Max:
    case BinOp::Min:
    case BinOp::And:
    case BinOp::Or:
    case BinOp::LogAnd:
    case BinOp::LogOr:
      info.idempotent = true;
      [[fallthrough]];
    default:
      info.associative = true;
      info.commutative = true;
  }
}

}  // namespace

BinOp userFunOperator(const ir::UserFunDef& d) {
  if (d.params.size() != 2 || !d.body) return BinOp::None;
  Type t = d.params[0].second;
  if (d.params[1].second != t || d.returnType != t || !(t.isScalar() || t.isVector())) return BinOp::None;
  const cfun::Expr* e = stripConvert(returnedExpr(*d.body));
  if (!e || e->operands.size() != 2) return BinOp::None;
  bool args01 = isVar(e->operands[0].get(), 0) && isVar(e->operands[1].get(), 1);
  bool args10 = isVar(e->operands[0].get(), 1) && isVar(e->operands[1].get(), 0);
  if (!args01 && !args10) return BinOp::None;
  if (e->kind == cfun::Expr::Kind::Binary) return binaryOf(e->binaryOp);
  if (e->kind == cfun::Expr::Kind::Call && e->builtin) {
    switch (e->builtin->fn) {
      case cfun::BuiltinFn::Max:
      case cfun::BuiltinFn::Fmax:
        return BinOp::Max;
      case cfun::BuiltinFn::Min:
      case cfun::BuiltinFn::Fmin:
        return BinOp::Min;
      default:
        return BinOp::None;
    }
  }
  return BinOp::None;
}

OperatorInfo analyseOperator(const Fun& f) {
  OperatorInfo info;
  if (auto* u = ir::asUserFun(f)) {
    info.op = userFunOperator(u->def());
    fillAlgebra(info);
    if (!info.associative)
      info.why =
          fmt::format("user function '{}' is not a known associative operator (x + y, x * y, max, min, ...)",
                      u->def().name);
    return info;
  }
  if (auto* p = ir::asPattern(f); p && p->pattern() == PatternKind::Vectorize) {
    OperatorInfo inner = analyseOperator(p->f());
    inner.liftDepth = 0;
    return inner;
  }
  auto* l = ir::asLambda(f);
  if (!l || l->params().size() != 2) {
    info.why = "the operator is not a function of two arguments";
    return info;
  }
  const ir::ParamNode* a = l->params()[0].get();
  const ir::ParamNode* b = l->params()[1].get();
  const Expr& body = l->body();
  // fun((a, b) => g(a, b)) or g(b, a)
  if (auto* c = ir::asCall(body);
      c && c->args().size() == 2 && !m::mentions(c->fun(), a) && !m::mentions(c->fun(), b)) {
    bool ab = c->args()[0].get() == a && c->args()[1].get() == b;
    bool ba = c->args()[0].get() == b && c->args()[1].get() == a;
    if (ab || ba) {
      OperatorInfo inner = analyseOperator(c->fun());
      if (ba && !inner.commutative) inner.associative = false;
      if (inner.associative || !ir::asPattern(c->fun())) return inner;
    }
  }
  // fun((a, b) => map(g) $ zip(a, b)): g lifted element-wise.
  if (auto mc = m::mapCall(body)) {
    if (auto* z = m::callOf(mc->input, PatternKind::Zip); z && m::argCount(mc->input) == 2) {
      const Expr& z0 = m::arg(mc->input, 0);
      const Expr& z1 = m::arg(mc->input, 1);
      bool ab = z0.get() == a && z1.get() == b;
      bool ba = z0.get() == b && z1.get() == a;
      if ((ab || ba) && !m::mentions(mc->f, a) && !m::mentions(mc->f, b)) {
        OperatorInfo inner = analyseOperator(mc->f);
        if (!inner.associative) {
          // g may take the pair as one tuple: fun(p => h(get 0 p, get 1 p)).
          if (auto* gl = ir::asLambda(mc->f); gl && gl->params().size() == 1) {
            const ir::ParamNode* p = gl->params()[0].get();
            if (auto* hc = ir::asCall(gl->body());
                hc && hc->args().size() == 2 && !m::mentions(hc->fun(), p)) {
              auto g0 = m::callOf(hc->args()[0], PatternKind::Get);
              auto g1 = m::callOf(hc->args()[1], PatternKind::Get);
              if (g0 && g1 && m::arg(hc->args()[0], 0).get() == p && m::arg(hc->args()[1], 0).get() == p &&
                  g0->index() != g1->index()) {
                inner = analyseOperator(hc->fun());
                if (g0->index() == 1 && !inner.commutative) inner.associative = false;
              }
            }
          }
        }
        if (ba && !inner.commutative) inner.associative = false;
        if (inner.associative) {
          inner.liftDepth += 1;
          return inner;
        }
        info.why = inner.why.empty() ? "the element-wise operator is not known to be associative" : inner.why;
        return info;
      }
    }
  }
  info.why = "the operator is a function that is not a known associative operator";
  return info;
}

namespace {
std::optional<double> literalScalar(const std::string& text) {
  std::string t = text;
  // Vector literals "(float4)0.0f" or "(float4)(0.0f)".
  if (!t.empty() && t[0] == '(') {
    size_t close = t.find(')');
    if (close != std::string::npos) t = t.substr(close + 1);
    if (!t.empty() && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  }
  if (t == "true") return 1.0;
  if (t == "false") return 0.0;
  while (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (!end || *end != '\0') return std::nullopt;
  return v;
}
}  // namespace

bool isIdentityOf(BinOp op, const Expr& init) {
  auto* l = ir::asLiteral(init);
  if (!l) return false;
  auto v = literalScalar(l->text());
  if (!v) return false;
  switch (op) {
    case BinOp::Add:
    case BinOp::Or:
    case BinOp::Xor:
    case BinOp::LogOr:
      return *v == 0.0;
    case BinOp::Mul:
    case BinOp::LogAnd:
      return *v == 1.0;
    default:
      return false;
  }
}

std::string partialReductionProblem(const Fun& f, const Expr& init, bool needCommutative) {
  OperatorInfo info = analyseOperator(f);
  if (!info.associative)
    return "the reduction operator must be associative: " +
           (info.why.empty() ? std::string("unknown operator") : info.why);
  if (needCommutative && !info.commutative) return "the reduction operator must be commutative";
  if (!info.idempotent && !isIdentityOf(info.op, init)) {
    auto* l = ir::asLiteral(init);
    return fmt::format(
        "the initial value {} must be the identity of the operator (every partial reduction starts "
        "from it)",
        l ? l->text() : std::string("(not a literal)"));
  }
  return "";
}

std::string sequentialContext(const Site& s) {
  for (PatternKind k :
       {PatternKind::MapSeq, PatternKind::MapSeqUnroll, PatternKind::ReduceSeq, PatternKind::ReduceSeqUnroll,
        PatternKind::Reduce, PatternKind::PartRed, PatternKind::Scan, PatternKind::ScanSeq,
        PatternKind::MapVec, PatternKind::MapSeqSlide,
        // issue 17 (lift17p)
        PatternKind::BSearch, PatternKind::LSearch, PatternKind::ReduceWhileSeq, PatternKind::FilterSeq,
        PatternKind::InsertionSort})
    if (s.insidePattern(k))
      return fmt::format("it is inside a {} (parallel maps cannot be nested in sequential code)", patName(k));
  return "";
}

std::string workItemSequentialContext(const Site& s, const WorkItemContextOptions& o) {
  bool inLoop = false;
  for (size_t i = s.ancestors.size(); i-- > 0;) {
    auto* p = ir::asPattern(s.ancestors[i].fun());
    if (!p) continue;
    PatternKind k = p->pattern();
    if (ir::isWorkGroupMap(k)) return "";
    if (k == PatternKind::MapSeq || k == PatternKind::MapSeqUnroll || k == PatternKind::ReduceSeq ||
        k == PatternKind::ReduceSeqUnroll || (o.iterateIsLoop && k == PatternKind::Iterate)) {
      inLoop = true;
    } else if (k == PatternKind::Reduce || k == PatternKind::PartRed || k == PatternKind::MapVec ||
               (o.scansAreSequential && (k == PatternKind::Scan || k == PatternKind::ScanSeq))) {
      return fmt::format("it is inside a {} (parallel maps cannot be nested in sequential code)", patName(k));
    } else if (inLoop && std::find(o.workItemMaps.begin(), o.workItemMaps.end(), k) != o.workItemMaps.end()) {
      return o.loopReason;
    }
  }
  return "";
}

// ----- building --------------------------------------------------------------------------------

namespace {
class GetTupleSimplifier : public ir::Mutator {
 public:
  using ir::Mutator::mutate;
  Expr mutate(const Expr& e) override {
    Expr r = ir::Mutator::mutate(e);
    if (auto* g = m::callOf(r, PatternKind::Get)) {
      const Expr& t = m::arg(r, 0);
      if (m::callOf(t, PatternKind::Tuple)) {
        auto* tc = ir::asCall(t);
        if (g->index() >= 0 && g->index() < static_cast<int>(tc->args().size()))
          return tc->args()[static_cast<size_t>(g->index())];
      }
    }
    return r;
  }
};
}  // namespace

Expr simplifyGetOfTuple(const Expr& e) { return GetTupleSimplifier().mutate(e); }

Expr applyToTuple(const Fun& f, std::vector<Expr> components) {
  size_t n = components.size();
  if (auto* l = ir::asLambda(f)) {
    if (l->params().size() == n) return m::apply(f, std::move(components));
    if (l->params().size() == 1) {
      const ir::ParamNode* p = l->params()[0].get();
      std::unordered_map<const ir::ParamNode*, Expr> repl{{p, m::callTuple(std::move(components))}};
      return simplifyGetOfTuple(ir::substitute(l->body(), repl));
    }
  }
  // User functions take tuple arguments apart (ir::bindArguments), so f(a, (b, c)) binds
  // f(x, y, z) as well.
  if (auto* u = ir::asUserFun(f); u && u->def().params.size() >= n) return m::call(f, std::move(components));
  return m::call(f, {m::callTuple(std::move(components))});
}

namespace {
// The component index when e is get(i, p), else -1.
int componentOf(const Expr& e, const ir::ParamNode* p) {
  auto* g = m::callOf(e, PatternKind::Get);
  if (!g || ir::asParam(m::arg(e, 0)) != p) return -1;
  return g->index();
}

class ComponentReplacer : public ir::Mutator {
 public:
  ComponentReplacer(const ir::ParamNode* p, const std::function<Expr(int)>& component)
      : p_(p), component_(component) {}
  using ir::Mutator::mutate;
  Expr mutate(const Expr& e) override {
    int i = componentOf(e, p_);
    return i >= 0 ? component_(i) : mutateChildren(e);
  }

 private:
  const ir::ParamNode* p_;
  const std::function<Expr(int)>& component_;
};
}  // namespace

std::vector<int> componentUses(const Expr& e, const ir::ParamNode* p, int arity) {
  std::vector<int> out(static_cast<size_t>(std::max(arity, 0)), 0);
  ir::visitPreOrder(e, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (!n.isExpr()) return true;
    int i = componentOf(n.expr(), p);
    if (i >= 0 && i < arity) ++out[static_cast<size_t>(i)];
    return true;
  });
  return out;
}

bool usedOnlyThroughGet(const Expr& e, const ir::ParamNode* p) {
  int gets = 0;
  ir::visitPreOrder(e, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (n.isExpr() && componentOf(n.expr(), p) >= 0) ++gets;
    return true;
  });
  int all = m::uses(e, p);
  return all > 0 && gets == all;
}

Expr replaceComponents(const Expr& e, const ir::ParamNode* p, const std::function<Expr(int)>& component) {
  return ComponentReplacer(p, component).mutate(e);
}

namespace {
bool computesFun(const Fun& f);
bool computesExpr(const Expr& e) {
  auto* c = ir::asCall(e);
  if (!c) return false;
  if (computesFun(c->fun())) return true;
  for (auto& a : c->args())
    if (computesExpr(a)) return true;
  return false;
}
bool computesFun(const Fun& f) {
  if (ir::asUserFun(f)) return true;
  if (auto* l = ir::asLambda(f)) return computesExpr(l->body());
  if (auto* p = ir::asPattern(f)) {
    if (p->pattern() == PatternKind::Dot) return true;
    for (auto& g : p->params().funs)
      if (computesFun(g)) return true;
  }
  return false;
}
}  // namespace

bool computes(const Expr& e) { return computesExpr(e); }

Expr wrapCall(PatternKind wrapper, const ir::CallNode& call) {
  ir::PatternNode::Params ps;
  ps.funs = {call.fun()};
  return m::call(ir::PatternNode::make(wrapper, std::move(ps)), call.args());
}

ParentCall parentCall(const Site& s) {
  ParentCall pc;
  if (s.ancestors.empty() || s.loc.steps().empty()) return pc;
  const ir::NodeRef& parent = s.ancestors.back();
  if (!parent.isExpr()) return pc;
  int step = s.loc.steps().back();
  if (step == 0) return pc;
  pc.call = ir::asCall(parent.expr());
  pc.argIndex = step - 1;
  return pc;
}

const ir::PatternNode* functionAsPattern(const Fun& f, PatternKind k) {
  if (auto* p = ir::asPattern(f)) return p->pattern() == k ? p : nullptr;
  auto* l = ir::asLambda(f);
  if (!l || l->params().size() != 1) return nullptr;
  auto* c = ir::asCall(l->body());
  if (!c || c->args().size() != 1 || c->args()[0] != l->params()[0]) return nullptr;
  auto* p = ir::asPattern(c->fun());
  if (!p || p->pattern() != k || m::mentions(c->fun(), l->params()[0].get())) return nullptr;
  return p;
}

std::optional<m::MapCall> functionAsMap(const Fun& f) {
  if (auto* p = ir::asPattern(f); p && ir::isMapLike(p->pattern()) && p->pattern() != PatternKind::MapVec)
    return m::MapCall{p, f, p->f(), nullptr};
  auto* l = ir::asLambda(f);
  if (!l || l->params().size() != 1) return std::nullopt;
  auto inner = m::mapCall(l->body());
  if (!inner || inner->input != l->params()[0] || m::mentions(inner->f, l->params()[0].get()))
    return std::nullopt;
  inner->input = nullptr;
  return inner;
}

Rule makeRule(std::string name, Family family, std::string description, std::string lhs, std::string rhs,
              std::vector<PatternKind> roots, std::function<Outcome(const Site&, const ParamValues&)> apply,
              std::string lift) {
  Rule r;
  r.lift = std::move(lift);
  r.name = std::move(name);
  r.family = family;
  r.description = std::move(description);
  r.lhs = std::move(lhs);
  r.rhs = std::move(rhs);
  r.roots = std::move(roots);
  r.apply = std::move(apply);
  return r;
}

std::shared_ptr<const ir::UserFunDef> cachedUserFun(
    const std::string& key, const std::function<std::shared_ptr<ir::UserFunDef>()>& make) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ir::UserFunDef>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::shared_ptr<const ir::UserFunDef> def = make();
  if (def) cache[key] = def;
  return def;
}

}  // namespace lift::rewrite::support
