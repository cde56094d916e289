// Per-use typing of expressions and function applications (see Typing.h): a walk over lambdas
// and parameters that types each pattern by its rule in core/ir/PatternTypeRules, the rule the
// type checker uses. The program was checked, so a rule that fails here is an internal error.
#include "codegen/Typing.h"

#include <unordered_map>

#include "core/ir/PatternTypeRules.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

namespace {

class Typer {
 public:
  explicit Typer(const ParamTypes& outer) : outer_(outer) {}

  Type expr(const ir::Expr& e) {
    switch (e->kind()) {
      case ir::ExprNode::Kind::Literal:
        return ir::asLiteral(e)->type();
      case ir::ExprNode::Kind::Param: {
        auto* p = ir::asParam(e);
        auto it = env_.find(p);
        if (it != env_.end()) return it->second;
        Type t = outer_ ? outer_(p) : Type();
        if (!t) t = p->declaredType();
        LIFT_ASSERT(t, "codegen typing: unbound parameter " + p->name());
        return t;
      }
      case ir::ExprNode::Kind::Call: {
        auto* c = ir::asCall(e);
        std::vector<Type> args;
        for (auto& a : c->args()) args.push_back(expr(a));
        return apply(c->fun(), args);
      }
    }
    return {};
  }

  Type apply(const ir::Fun& f, const std::vector<Type>& args) {
    switch (f->kind()) {
      case ir::FunNode::Kind::Lambda: {
        auto* l = ir::asLambda(f);
        auto sources = ir::bindArguments(args, l->params().size());
        LIFT_ASSERT(sources, "codegen typing: lambda arity");
        std::vector<std::pair<const ir::ParamNode*, Type>> saved;
        for (size_t i = 0; i < sources->size(); ++i) {
          auto [arg, comp] = (*sources)[i];
          const ir::ParamNode* p = l->params()[i].get();
          auto it = env_.find(p);
          if (it != env_.end()) saved.push_back(*it);
          env_[p] = comp < 0 ? args[arg] : args[arg].tupleElems()[comp];
        }
        Type t = expr(l->body());
        for (auto& p : l->params()) env_.erase(p.get());
        for (auto& s : saved) env_[s.first] = s.second;
        return t;
      }
      case ir::FunNode::Kind::UserFun:
        return ir::asUserFun(f)->def().returnType;
      case ir::FunNode::Kind::Pattern:
        return pattern(*ir::asPattern(f), args);
    }
    return {};
  }

 private:
  Type pattern(const ir::PatternNode& p, const std::vector<Type>& args) {
    ir::InferredType t = ir::inferPatternType(p, args, [&](const std::vector<Type>& fArgs, size_t fun) {
      return apply(p.params().funs.at(fun), fArgs);
    });
    LIFT_ASSERT(t, "codegen typing of " + ir::diagnosticLabel(p) + ": " + t.reason());
    return t.type();
  }

  const ParamTypes& outer_;
  std::unordered_map<const ir::ParamNode*, Type> env_;
};

}  // namespace

Type typeOf(const ir::Expr& e, const ParamTypes& params) { return Typer(params).expr(e); }

Type substituteLengths(Type t, const std::map<arith::Expr, arith::Expr, std::less<>>& replacement) {
  if (replacement.empty()) return t;
  if (t.isArray())
    return Type::array(substituteLengths(t.elem(), replacement), arith::substitute(t.length(), replacement));
  if (t.isTuple()) {
    std::vector<Type> elems;
    for (Type e : t.tupleElems()) elems.push_back(substituteLengths(e, replacement));
    return Type::tuple(std::move(elems));
  }
  return t;
}

Type typeOfApply(const ir::Fun& f, const std::vector<Type>& args, const ParamTypes& params) {
  return Typer(params).apply(f, args);
}

}  // namespace lift::codegen
