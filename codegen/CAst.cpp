// Construction helpers and traversal of the kernel's statement tree.
#include "codegen/CAst.h"

#include <functional>

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

}  // namespace lift::codegen::c
