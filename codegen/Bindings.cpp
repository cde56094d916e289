// Parameter bindings and typing under them (Bindings.h).
#include "codegen/Bindings.h"

#include "codegen/LoweringCheck.h"
#include "codegen/Typing.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

namespace {

int countUses(const ir::Expr& e, const ir::ParamNode* p);
int countUses(const ir::Fun& f, const ir::ParamNode* p) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda:
      return countUses(ir::asLambda(f)->body(), p);
    case ir::FunNode::Kind::Pattern: {
      int n = 0;
      for (auto& g : ir::asPattern(f)->params().funs) n += countUses(g, p);
      return n;
    }
    case ir::FunNode::Kind::UserFun:
      return 0;
  }
  return 0;
}
int countUses(const ir::Expr& e, const ir::ParamNode* p) {
  if (e.get() == p) return 1;
  auto* c = ir::asCall(e);
  if (!c) return 0;
  int n = countUses(c->fun(), p);
  for (auto& a : c->args()) n += countUses(a, p);
  return n;
}
// Whether p is used in e outside of any function (evaluated where e is evaluated).
bool directUse(const ir::Expr& e, const ir::ParamNode* p) {
  if (e.get() == p) return true;
  auto* c = ir::asCall(e);
  if (!c) return false;
  if (auto* l = ir::asLambda(c->fun()))
    if (directUse(l->body(), p)) return true;
  for (auto& a : c->args())
    if (directUse(a, p)) return true;
  return false;
}

}  // namespace

Arg viewArg(View v) {
  Arg a;
  a.view = std::move(v);
  return a;
}

std::vector<Arg> exprArgs(const std::vector<ir::Expr>& es) {
  std::vector<Arg> out;
  for (auto& e : es) out.push_back(Arg{e, nullptr});
  return out;
}

Bindings::Saved Bindings::bind(const ir::LambdaNode& l, std::vector<Arg>& args, ir::NodeId site,
                               const ReadArg& readArg) {
  std::vector<Type> types;
  for (auto& a : args) types.push_back(typeOfArg(a));
  auto sources = ir::bindArguments(types, l.params().size());
  if (!sources)
    throw LiftError(prog_.diagnosticAt(site, "lambda applied to arguments that do not match its parameters"));
  Saved saved;
  std::vector<Binding> bound;
  for (size_t i = 0; i < sources->size(); ++i) {
    auto [arg, comp] = (*sources)[i];
    const ir::ParamNode* p = l.params()[i].get();
    Binding b;
    Arg& a = args[arg];
    if (comp < 0 && !a.view && a.expr && !isViewExpr(a.expr) && countUses(l.body(), p) == 1 &&
        directUse(l.body(), p)) {
      b.lazy = a.expr;
    } else {
      View v = readArg(a);
      b.view = comp < 0 ? v : view::get(v, comp);
    }
    bound.push_back(b);
  }
  for (size_t i = 0; i < bound.size(); ++i) {
    const ir::ParamNode* p = l.params()[i].get();
    auto it = env_.find(p);
    saved.push_back({p, it == env_.end() ? std::nullopt : std::optional<Binding>(it->second)});
    env_[p] = bound[i];
  }
  return saved;
}

void Bindings::unbind(const Saved& saved) {
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    if (it->second)
      env_[it->first] = *it->second;
    else
      env_.erase(it->first);
  }
}

Bindings::Binding& Bindings::at(const ir::ParamNode* p) {
  auto it = env_.find(p);
  LIFT_ASSERT(it != env_.end(), "codegen: unbound parameter " + p->name());
  return it->second;
}

const Bindings::Binding* Bindings::find(const ir::ParamNode* p) const {
  auto it = env_.find(p);
  return it == env_.end() ? nullptr : &it->second;
}

Type Bindings::paramType(const ir::ParamNode* p) {
  auto it = env_.find(p);
  if (it == env_.end()) return {};
  if (it->second.view) return it->second.view->type;
  return typeOfExpr(it->second.lazy);
}

Type Bindings::typeOfExpr(const ir::Expr& e) {
  return typeOf(e, [this](const ir::ParamNode* p) { return paramType(p); });
}

Type Bindings::typeOfArg(const Arg& a) { return a.view ? a.view->type : typeOfExpr(a.expr); }

Type Bindings::typeOfApplication(const ir::Fun& f, const std::vector<Arg>& args) {
  std::vector<Type> ts;
  for (auto& a : args) ts.push_back(typeOfArg(a));
  return typeOfApply(f, ts);
}

Type Bindings::typeOfApply(const ir::Fun& f, const std::vector<Type>& args) {
  return codegen::typeOfApply(f, args, [this](const ir::ParamNode* p) { return paramType(p); });
}

Type Bindings::typeWith(const ir::Expr& e, const ir::ParamNode* p, Type pType) {
  return typeOf(e, [&](const ir::ParamNode* q) { return q == p ? pType : paramType(q); });
}

}  // namespace lift::codegen
