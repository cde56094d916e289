// Matching and building helpers for rules (see Match.h).
#include "rewrite/Match.h"

#include <cstdlib>
#include <unordered_map>

#include "core/cfun/CFunAst.h"

namespace lift::rewrite::m {

const Expr& arg(const Expr& e, size_t i) { return ir::asCall(e)->args().at(i); }

size_t argCount(const Expr& e) {
  auto* c = ir::asCall(e);
  return c ? c->args().size() : 0;
}

bool isSequentialMap(PatternKind k) { return k == PatternKind::MapSeq || k == PatternKind::MapSeqUnroll; }
bool isReduction(PatternKind k) {
  return k == PatternKind::Reduce || k == PatternKind::ReduceSeq || k == PatternKind::ReduceSeqUnroll;
}

std::optional<MapCall> mapCall(const Expr& e, std::optional<PatternKind> kind) {
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 1) return std::nullopt;
  auto* p = ir::asPattern(c->fun());
  if (!p) return std::nullopt;
  if (kind ? p->pattern() != *kind : (!ir::isMapLike(p->pattern()) || p->pattern() == PatternKind::MapVec))
    return std::nullopt;
  return MapCall{p, c->fun(), p->f(), c->args()[0]};
}

std::optional<ReduceCall> reduceCall(const Expr& e, std::optional<PatternKind> kind) {
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 2) return std::nullopt;
  auto* p = ir::asPattern(c->fun());
  if (!p || !ir::isReduceLike(p->pattern())) return std::nullopt;
  if (kind && p->pattern() != *kind) return std::nullopt;
  return ReduceCall{p, c->fun(), p->f(), c->args()[0], c->args()[1]};
}

std::optional<ReduceFun> reduceFun(const Fun& f) {
  auto* l = ir::asLambda(f);
  if (!l || l->params().size() != 1) return std::nullopt;
  auto r = reduceCall(l->body());
  if (!r) return std::nullopt;
  const ir::ParamNode* x = l->params()[0].get();
  if (r->input.get() != x || mentions(r->init, x) || mentions(r->f, x)) return std::nullopt;
  return ReduceFun{r->pattern, r->fun, r->f, r->init};
}

Unary unary(const Fun& f, const std::string& name) {
  if (auto* l = ir::asLambda(f); l && l->params().size() == 1) return {l->params()[0], l->body(), false};
  ir::Param p = ir::ParamNode::make(name);
  return {p, ir::CallNode::make(f, {p}), true};
}

bool isIdentityUserFun(const ir::UserFunDef& d) {
  if (d.params.size() != 1 || !d.body || d.params[0].second != d.returnType) return false;
  const cfun::Stmt* s = d.body->block.get();
  while (s && s->kind == cfun::Stmt::Kind::Block && s->body.size() == 1) s = s->body[0].get();
  if (!s || s->kind != cfun::Stmt::Kind::Return || s->exprs.empty()) return false;
  const cfun::Expr* e = s->exprs[0].get();
  while (e && e->kind == cfun::Expr::Kind::Convert && e->operands.size() == 1 &&
         e->type == e->operands[0]->type)
    e = e->operands[0].get();
  return e && e->kind == cfun::Expr::Kind::Var && e->var == 0;
}

bool isIdentityFun(const Fun& f) {
  if (auto* l = ir::asLambda(f)) return l->params().size() == 1 && l->body() == l->params()[0];
  if (auto* u = ir::asUserFun(f)) return isIdentityUserFun(u->def());
  return false;
}

namespace {

void countUses(const Expr& e, const ir::ParamNode* p, int& n);
void countUses(const Fun& f, const ir::ParamNode* p, int& n) {
  if (auto* l = ir::asLambda(f)) {
    countUses(l->body(), p, n);
  } else if (auto* pat = ir::asPattern(f)) {
    for (auto& g : pat->params().funs) countUses(g, p, n);
  }
}
void countUses(const Expr& e, const ir::ParamNode* p, int& n) {
  if (e.get() == p) {
    ++n;
    return;
  }
  if (auto* c = ir::asCall(e)) {
    countUses(c->fun(), p, n);
    for (auto& a : c->args()) countUses(a, p, n);
  }
}

}  // namespace

int uses(const Expr& e, const ir::ParamNode* p) {
  int n = 0;
  countUses(e, p, n);
  return n;
}
int uses(const Fun& f, const ir::ParamNode* p) {
  int n = 0;
  countUses(f, p, n);
  return n;
}
bool mentions(const Expr& e, const ir::ParamNode* p) { return uses(e, p) > 0; }
bool mentions(const Fun& f, const ir::ParamNode* p) { return uses(f, p) > 0; }

bool isTrivial(const Expr& e) {
  if (ir::asParam(e) || ir::asLiteral(e)) return true;
  return ir::calledPattern(e, PatternKind::Get) && isTrivial(arg(e, 0));
}

Expr apply(const Fun& f, std::vector<Expr> args) {
  if (auto* l = ir::asLambda(f); l && l->params().size() == args.size()) {
    // Substitute when no work is duplicated: each parameter is used at most once, or its
    // argument is a parameter or a literal.
    bool linear = true;
    for (size_t i = 0; i < args.size(); ++i) {
      bool trivial = isTrivial(args[i]);
      linear = linear && (trivial || uses(l->body(), l->params()[i].get()) <= 1);
    }
    if (linear) {
      std::unordered_map<const ir::ParamNode*, Expr> repl;
      for (size_t i = 0; i < args.size(); ++i) repl[l->params()[i].get()] = args[i];
      return ir::substitute(l->body(), repl);
    }
  }
  return ir::CallNode::make(f, std::move(args));
}

Fun compose(const Fun& f, const Fun& g, const std::string& name) {
  ir::Param x = ir::ParamNode::make(name);
  return ir::LambdaNode::make({x}, apply(f, {apply(g, {x})}));
}

Fun lambda1(const std::string& name, const std::function<Expr(Expr)>& body) {
  ir::Param x = ir::ParamNode::make(name);
  return ir::LambdaNode::make({x}, body(x));
}

Fun lambda2(const std::string& a, const std::string& b, const std::function<Expr(Expr, Expr)>& body) {
  ir::Param x = ir::ParamNode::make(a), y = ir::ParamNode::make(b);
  return ir::LambdaNode::make({x, y}, body(x, y));
}

Fun reduceAsFun(PatternKind k, const Fun& f, const Expr& init, std::vector<arith::Expr> sizes) {
  return lambda1("xs", [&](Expr xs) { return callReduce(k, f, init, xs, sizes); });
}

Fun withKind(const ir::PatternNode& p, PatternKind k) {
  ir::PatternNode::Params ps = p.params();
  if (!ir::hasMapDimension(k) && ir::isMapLike(k)) ps.index = 0;
  return ir::PatternNode::make(k, std::move(ps));
}

Fun withFun(const ir::PatternNode& p, Fun f, size_t i) {
  ir::PatternNode::Params ps = p.params();
  ps.funs.at(i) = std::move(f);
  return ir::PatternNode::make(p.pattern(), std::move(ps));
}

Fun mapOfKind(PatternKind k, const Fun& f, int dim) {
  ir::PatternNode::Params ps;
  ps.funs = {f};
  ps.index = ir::hasMapDimension(k) ? dim : 0;
  return ir::PatternNode::make(k, std::move(ps));
}

Expr call(const Fun& f, std::vector<Expr> args) { return ir::CallNode::make(f, std::move(args)); }

Expr callMap(PatternKind k, const Fun& f, Expr input, int dim) {
  return call(mapOfKind(k, f, dim), {std::move(input)});
}

Fun splitFun(arith::Expr n) {
  ir::PatternNode::Params ps;
  ps.sizes = {n};
  return ir::PatternNode::make(PatternKind::Split, std::move(ps));
}
Fun joinFun() { return ir::PatternNode::make(PatternKind::Join, {}); }
Fun transposeFun() { return ir::PatternNode::make(PatternKind::Transpose, {}); }
Fun getFun(int i) {
  ir::PatternNode::Params ps;
  ps.index = i;
  return ir::PatternNode::make(PatternKind::Get, std::move(ps));
}

Expr callSplit(arith::Expr n, Expr input) { return call(splitFun(n), {std::move(input)}); }
Expr callJoin(Expr input) { return call(joinFun(), {std::move(input)}); }
Expr callTranspose(Expr input) { return call(transposeFun(), {std::move(input)}); }
Expr callGet(int i, Expr t) { return call(getFun(i), {std::move(t)}); }

Expr callZip(std::vector<Expr> arrays) {
  ir::PatternNode::Params ps;
  ps.index = static_cast<int>(arrays.size());
  return call(ir::PatternNode::make(PatternKind::Zip, std::move(ps)), std::move(arrays));
}

Expr callTuple(std::vector<Expr> elems) {
  ir::PatternNode::Params ps;
  ps.index = static_cast<int>(elems.size());
  return call(ir::PatternNode::make(PatternKind::Tuple, std::move(ps)), std::move(elems));
}

Expr callReduce(PatternKind k, const Fun& f, Expr init, Expr input, std::vector<arith::Expr> sizes) {
  ir::PatternNode::Params ps;
  ps.funs = {f};
  ps.sizes = std::move(sizes);
  return call(ir::PatternNode::make(k, std::move(ps)), {std::move(init), std::move(input)});
}

// ----- fresh copies ----------------------------------------------------------------------

namespace {

class Copier {
 public:
  Expr expr(const Expr& e) {
    switch (e->kind()) {
      case ir::ExprNode::Kind::Literal: {
        auto* l = ir::asLiteral(e);
        return ir::LiteralNode::make(l->text(), l->type());
      }
      case ir::ExprNode::Kind::Param: {
        auto it = params_.find(ir::asParam(e));
        return it == params_.end() ? e : it->second;  // free parameters stay shared
      }
      case ir::ExprNode::Kind::Call: {
        auto* c = ir::asCall(e);
        Fun f = fun(c->fun());
        std::vector<Expr> args;
        args.reserve(c->args().size());
        for (auto& a : c->args()) args.push_back(expr(a));
        return ir::CallNode::make(std::move(f), std::move(args));
      }
    }
    return e;
  }

  Fun fun(const Fun& f) {
    if (auto* l = ir::asLambda(f)) {
      std::vector<ir::Param> ps;
      for (auto& p : l->params()) {
        ir::Param np = ir::ParamNode::make(p->name(), p->declaredType());
        params_[p.get()] = np;
        ps.push_back(np);
      }
      return ir::LambdaNode::make(std::move(ps), expr(l->body()));
    }
    if (auto* p = ir::asPattern(f)) {
      ir::PatternNode::Params ps = p->params();
      for (auto& g : ps.funs) g = fun(g);
      return ir::PatternNode::make(p->pattern(), std::move(ps));
    }
    return ir::UserFunNode::make(ir::asUserFun(f)->defPtr());
  }

 private:
  std::unordered_map<const ir::ParamNode*, Expr> params_;
};

}  // namespace

Expr freshCopy(const Expr& e) { return Copier().expr(e); }
Fun freshCopy(const Fun& f) { return Copier().fun(f); }

std::optional<double> literalValue(const Expr& e) {
  auto* l = ir::asLiteral(e);
  if (!l) return std::nullopt;
  std::string t = l->text();
  if (t == "true") return 1.0;
  if (t == "false") return 0.0;
  while (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (!end || *end != '\0') return std::nullopt;
  return v;
}

}  // namespace lift::rewrite::m
