// Construction helpers and traversal of the kernel's statement tree.
#include "codegen/CAst.h"

#include <algorithm>
#include <functional>
#include <regex>

namespace lift::codegen::c {

namespace {
ExprP make(Expr e) { return std::make_shared<const Expr>(std::move(e)); }
}  // namespace

ExprP text(std::string t) {
  Expr e;
  e.kind = Expr::Kind::Text;
  e.text = std::move(t);
  return make(std::move(e));
}

ExprP access(c::Access a) {
  Expr e;
  e.kind = Expr::Kind::Access;
  e.access = std::make_shared<const c::Access>(std::move(a));
  return make(std::move(e));
}

ExprP call(std::string fn, std::vector<ExprP> args) {
  Expr e;
  e.kind = Expr::Kind::Call;
  e.text = std::move(fn);
  e.ops = std::move(args);
  return make(std::move(e));
}

ExprP sum(ExprP a, ExprP b) { return call("+", {std::move(a), std::move(b)}); }

ExprP member(ExprP base, std::string field) {
  Expr e;
  e.kind = Expr::Kind::Member;
  e.text = std::move(field);
  e.ops = {std::move(base)};
  return make(std::move(e));
}

ExprP vectorCons(std::string type, std::vector<ExprP> lanes) {
  Expr e;
  e.kind = Expr::Kind::VectorCons;
  e.text = std::move(type);
  e.ops = std::move(lanes);
  return make(std::move(e));
}

ExprP tupleCons(std::string type, std::vector<ExprP> fields) {
  Expr e;
  e.kind = Expr::Kind::TupleCons;
  e.text = std::move(type);
  e.ops = std::move(fields);
  return make(std::move(e));
}

ExprP guarded(std::vector<Guard> guards, ExprP inside, ExprP outside) {
  Expr e;
  e.kind = Expr::Kind::Guarded;
  e.guards = std::move(guards);
  e.ops = {std::move(inside), std::move(outside)};
  return make(std::move(e));
}

void forEachExpr(const Expr& e, const std::function<void(const Expr&)>& f) {
  f(e);
  for (auto& o : e.ops)
    if (o) forEachExpr(*o, f);
}

void forEachExpr(const Block& b, const std::function<void(const Expr&)>& f) {
  for (auto& s : b) {
    if (s->lhs) forEachExpr(*s->lhs, f);
    if (s->rhs) forEachExpr(*s->rhs, f);
    forEachExpr(s->body, f);
  }
}

void forEachAccess(const Block& b, const std::function<void(const Access&)>& f) {
  forEachExpr(b, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Access) f(*e.access);
  });
}

bool namesInText(const Block& b, const std::string& var) {
  std::regex word("\\b" + var + "\\b");
  for (auto& s : b) {
    for (const std::string* t : {&s->init, &s->cond, &s->step})
      if (std::regex_search(*t, word)) return true;
    if (s->kind == Stmt::Kind::Line && std::regex_search(s->text, word)) return true;
    bool inExpr = false;
    for (const ExprP& e : {s->lhs, s->rhs})
      if (e)
        forEachExpr(*e, [&](const Expr& x) {
          if (x.kind == Expr::Kind::Text && std::regex_search(x.text, word)) inExpr = true;
        });
    if (inExpr || namesInText(s->body, var)) return true;
  }
  return false;
}

bool contains(const Block& b, std::initializer_list<Stmt::Kind> kinds) {
  for (auto& s : b)
    if (std::find(kinds.begin(), kinds.end(), s->kind) != kinds.end() || contains(s->body, kinds))
      return true;
  return false;
}

bool readsMemory(const ExprP& e) {
  bool reads = false;
  if (e)
    forEachExpr(*e, [&](const Expr& x) {
      if (x.kind == Expr::Kind::Access) reads = true;
    });
  return reads;
}

ExprP rewrite(const ExprP& e, const AccessMap& access, const IndexMap& index) {
  if (!e) return e;
  auto copy = std::make_shared<Expr>(*e);
  if (e->kind == Expr::Kind::Access) {
    copy->access = std::make_shared<const Access>(access(*e->access));
    return copy;
  }
  for (auto& g : copy->guards) {
    g.index = index(g.index);
    g.lo = index(g.lo);
    g.hi = index(g.hi);
  }
  for (auto& op : copy->ops) op = rewrite(op, access, index);
  return copy;
}

StmtP clone(const Stmt& s, const AccessMap& access, const IndexMap& index) {
  auto out = std::make_unique<Stmt>();
  out->kind = s.kind;
  out->node = s.node;
  out->pattern = s.pattern;
  out->text = s.text;
  out->name = s.name;
  out->init = s.init;
  out->cond = s.cond;
  out->step = s.step;
  out->trips = s.trips;
  out->parallelTrips = s.parallelTrips;
  out->parallelStride = s.parallelStride;
  out->unroll = s.unroll;
  out->lhs = rewrite(s.lhs, access, index);
  out->rhs = rewrite(s.rhs, access, index);
  for (auto& b : s.body) out->body.push_back(clone(*b, access, index));
  return out;
}

StmtP clone(const Stmt& s) {
  return clone(
      s, [](const Access& a) { return a; }, [](arith::Expr e) { return e; });
}

}  // namespace lift::codegen::c
