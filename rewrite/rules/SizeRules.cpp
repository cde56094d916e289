// Size rules: specialise a program's array lengths so that split factors divide them provably.
// A program over `[[float]K]M` cannot be split by 4 (M may be odd); size-multiple(M, 4)
// restricts it to multiples of 4 by writing every M as M*4, where M now counts blocks of four
// (as the low-level examples do: "the inputs have N*128 elements"). On that domain the
// program computes what it did, so the interpreter check compares it with the original on
// the same inputs.
#include <cstdint>

#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;
using Subst = std::map<arith::Expr, arith::Expr, std::less<>>;

Type substType(Type t, const Subst& s) {
  if (!t) return t;
  switch (t.kind()) {
    case Type::Kind::Array:
      return Type::array(substType(t.elem(), s), arith::substitute(t.length(), s));
    case Type::Kind::Tuple: {
      std::vector<Type> elems;
      for (Type e : t.tupleElems()) elems.push_back(substType(e, s));
      return Type::tuple(std::move(elems));
    }
    default:
      return t;
  }
}

class SizeSubstituter {
 public:
  explicit SizeSubstituter(const Subst& s) : s_(s) {}

  ir::Param param(const ir::Param& p) {
    Type t = substType(p->declaredType(), s_);
    if (t == p->declaredType()) return p;
    ir::Param np = ir::ParamNode::make(p->name(), t);
    params_[p.get()] = np;
    return np;
  }

  Expr expr(const Expr& e) {
    switch (e->kind()) {
      case ir::ExprNode::Kind::Literal: {
        auto* l = ir::asLiteral(e);
        Type t = substType(l->type(), s_);
        return t == l->type() ? e : ir::LiteralNode::make(l->text(), t);
      }
      case ir::ExprNode::Kind::Param: {
        auto it = params_.find(ir::asParam(e));
        return it == params_.end() ? e : it->second;
      }
      case ir::ExprNode::Kind::Call: {
        auto* c = ir::asCall(e);
        Fun f = fun(c->fun());
        bool changed = f != c->fun();
        std::vector<Expr> args;
        for (auto& a : c->args()) {
          args.push_back(expr(a));
          changed = changed || args.back() != a;
        }
        return changed ? ir::CallNode::make(f, std::move(args)) : e;
      }
    }
    return e;
  }

  Fun fun(const Fun& f) {
    if (auto* l = ir::asLambda(f)) {
      std::vector<ir::Param> ps;
      bool changed = false;
      for (auto& p : l->params()) {
        ps.push_back(param(p));
        changed = changed || ps.back() != p;
      }
      Expr body = expr(l->body());
      changed = changed || body != l->body();
      return changed ? ir::LambdaNode::make(std::move(ps), body) : f;
    }
    if (auto* p = ir::asPattern(f)) {
      ir::PatternNode::Params ps = p->params();
      bool changed = false;
      for (auto& g : ps.funs) {
        Fun h = fun(g);
        changed = changed || h != g;
        g = h;
      }
      for (auto& sz : ps.sizes) {
        arith::Expr n = arith::substitute(sz, s_);
        changed = changed || n != sz;
        sz = n;
      }
      for (arith::Expr* x : {&ps.indexFun.a, &ps.indexFun.b}) {
        if (!*x) continue;
        arith::Expr n = arith::substitute(*x, s_);
        changed = changed || n != *x;
        *x = n;
      }
      // arrayFromGenerator(n, i => e): i ranges over [0, n), so a new n needs a new i (in e too),
      // as the parser makes it for the printed program.
      if (p->pattern() == PatternKind::ArrayFromGenerator && ps.sizes.size() == 3) {
        arith::Expr i = ps.sizes[1];
        arith::Expr fresh = arith::var(arith::varName(i), arith::varLo(i), ps.sizes[0]);
        if (fresh != i) {
          ps.sizes[2] = arith::substitute(ps.sizes[2], Subst{{i, fresh}});
          ps.sizes[1] = fresh;
          changed = true;
        }
      }
      return changed ? ir::PatternNode::make(p->pattern(), std::move(ps)) : f;
    }
    return f;
  }

 private:
  const Subst& s_;
  std::unordered_map<const ir::ParamNode*, Expr> params_;
};

bool mentionsSize(Type t, arith::Expr v) {
  if (!t) return false;
  if (t.isArray()) {
    for (arith::Expr x : arith::variables(t.length()))
      if (x == v) return true;
    return mentionsSize(t.elem(), v);
  }
  if (t.isTuple())
    for (Type e : t.tupleElems())
      if (mentionsSize(e, v)) return true;
  return false;
}

Outcome sizeMultiple(const Site& s, const ParamValues& pv) {
  if (s.loc != Location::body())
    return fail("size-multiple changes the whole program: apply it at location 0");
  const ir::Program& prog = *s.program;
  const std::string& name = pv.text("var");
  const ir::SizeDecl* decl = prog.findSize(name);
  if (!decl) {
    std::string names;
    for (auto& d : prog.sizes) names += (names.empty() ? "" : ", ") + d.name;
    return fail("the program has no size '{}' (its sizes: {})", name, names.empty() ? "none" : names);
  }
  arith::Expr k = pv.factor("k", prog);
  if (!k.isCst() || k.value() < 2) return fail("the factor must be a constant of at least 2, got {}", str(k));
  if (k.value() > INT32_MAX)
    return fail("the factor {} is too large: sizes are at most {} (32 bits)", k.value(), INT32_MAX);
  bool used = false;
  for (auto& in : prog.main->params()) used = used || mentionsSize(in->declaredType(), decl->var);
  if (!used) return fail("size {} does not appear in the input types", name);
  Subst subst{{decl->var, decl->var * k}};
  SizeSubstituter sub(subst);
  std::vector<ir::Param> inputs;
  for (auto& in : prog.main->params()) inputs.push_back(sub.param(in));
  Expr body = sub.expr(prog.main->body());
  ir::Program out = prog;
  out.main = ir::LambdaNode::make(std::move(inputs), body);
  for (auto& d : out.sizes)
    if (d.name == name) {
      if (d.defaultValue && *d.defaultValue % k.value() == 0 && *d.defaultValue >= k.value())
        d.defaultValue = *d.defaultValue / k.value();
      else
        d.defaultValue.reset();
    }
  return Outcome::ok(std::move(out));
}

std::vector<ParamValues> sizeCandidates(const Site& s) {
  std::vector<ParamValues> out;
  if (s.loc != Location::body()) return out;
  for (auto& d : s.program->sizes) out.push_back({{"var", d.name}, {"k", "4"}});
  return out;
}

}  // namespace

void registerSizeRules(RuleRegistry& reg) {
  Rule r = makeRule(
      "size-multiple", Family::Sizes,
      "Restrict the program to lengths that are multiples of k: size var becomes var*k (var counts blocks).",
      "[T]N", "[T]N*k", {}, sizeMultiple);
  r.params = {{"var", ParamKind::Name, "the size variable", "N", {}},
              {"k", ParamKind::Factor, "the factor its values are multiples of", "4", {}}};
  r.candidates = sizeCandidates;
  reg.add(std::move(r));
}

}  // namespace lift::rewrite
