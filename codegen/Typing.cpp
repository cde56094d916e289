// Per-use typing of expressions and function applications (see Typing.h); the rules are the
// type checker's, without its checks.
#include "codegen/Typing.h"

#include <unordered_map>

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
    using K = ir::PatternKind;
    const auto& ps = p.params();
    switch (p.pattern()) {
      case K::Map:
      case K::MapSeq:
      case K::MapSeqUnroll:
      case K::MapGlb:
      case K::MapWrg:
      case K::MapLcl:
        return Type::array(apply(p.f(), {args.at(0).elem()}), args[0].length());
      case K::MapVec: {
        Type out = apply(p.f(), {Type::scalar(args.at(0).scalarKind())});
        return Type::vector(out.scalarKind(), args[0].vectorWidth());
      }
      case K::Reduce:
      case K::ReduceSeq:
      case K::ReduceSeqUnroll:
        return Type::array(args.at(0), arith::cst(1));
      case K::PartRed:
        return Type::array(args.at(0), args.at(1).length() / ps.sizes.at(0));
      case K::Zip: {
        std::vector<Type> elems;
        for (auto& a : args) elems.push_back(a.elem());
        return Type::array(Type::tuple(std::move(elems)), args.at(0).length());
      }
      case K::Unzip: {
        std::vector<Type> arrays;
        for (Type e : args.at(0).elem().tupleElems()) arrays.push_back(Type::array(e, args[0].length()));
        return Type::tuple(std::move(arrays));
      }
      case K::Split: {
        arith::Expr n = ps.sizes.at(0);
        return Type::array(Type::array(args.at(0).elem(), n), args[0].length() / n);
      }
      case K::Join: {
        Type in = args.at(0);
        return Type::array(in.elem().elem(), in.elem().length() * in.length());
      }
      case K::Transpose: {
        Type in = args.at(0);
        return Type::array(Type::array(in.elem().elem(), in.length()), in.elem().length());
      }
      case K::Gather:
      case K::Scatter:
      case K::ReorderStride:
      case K::Id:
        return args.at(0);
      case K::Slide: {
        Type in = args.at(0);
        arith::Expr size = ps.sizes.at(0), step = ps.sizes.at(1);
        return Type::array(Type::array(in.elem(), size), (in.length() - size + step) / step);
      }
      case K::Pad: {
        Type in = args.at(0);
        return Type::array(in.elem(), in.length() + ps.sizes.at(0) + ps.sizes.at(1));
      }
      case K::Iterate: {
        arith::Expr n = ps.sizes.at(0);
        Type cur = args.at(0);
        if (n.isCst()) {
          for (int64_t i = 0; i < n.value(); ++i) cur = apply(p.f(), {cur});
          return cur;
        }
        // A symbolic count: the body keeps, divides or multiplies the length (checked by the
        // type checker); the result length follows from one application to a symbolic length.
        arith::Expr L = arith::sizeVar("iterLen_codegen");
        Type out = apply(p.f(), {Type::array(cur.elem(), L)});
        arith::Expr g = out.length();
        if (g == L) return cur;
        const int64_t probe = int64_t(1) << 40;
        int64_t v = arith::evaluate(g, {{"iterLen_codegen", probe}});
        if (v < probe) return Type::array(cur.elem(), cur.length() / arith::pow(arith::cst(probe / v), n));
        return Type::array(cur.elem(), cur.length() * arith::pow(arith::cst(v / probe), n));
      }
      case K::Get:
        return args.at(0).tupleElems()[ps.index];
      case K::Tuple:
        return Type::tuple(args);
      case K::AsVector: {
        arith::Expr n = ps.sizes.at(0);
        return Type::array(Type::vector(args.at(0).elem().scalarKind(), static_cast<int>(n.value())),
                           args[0].length() / n);
      }
      case K::AsScalar: {
        Type in = args.at(0);
        return Type::array(Type::scalar(in.elem().scalarKind()),
                           in.length() * arith::cst(in.elem().vectorWidth()));
      }
      case K::Vectorize: {
        int width = static_cast<int>(ps.sizes.at(0).value());
        std::function<Type(Type)> scalarOf = [&](Type t) -> Type {
          if (t.isTuple()) {
            std::vector<Type> elems;
            for (Type e : t.tupleElems()) elems.push_back(scalarOf(e));
            return Type::tuple(std::move(elems));
          }
          return Type::scalar(t.scalarKind());
        };
        std::vector<Type> scalars;
        for (Type a : args) scalars.push_back(scalarOf(a));
        return Type::vector(apply(p.f(), scalars).scalarKind(), width);
      }
      case K::ToGlobal:
      case K::ToLocal:
      case K::ToPrivate:
        return apply(p.f(), args);
      case K::Dot:
        return Type::scalar(args.at(0).scalarKind());
    }
    return {};
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
