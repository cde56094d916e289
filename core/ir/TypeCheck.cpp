// The type checker (see TypeCheck.h; the rules are documented in docs/LANGUAGE.md).
//
// Types flow forward: the type of a call is computed from the types of its arguments, and a
// function's parameters get the types of the arguments it is applied to, so every node is
// typed once per use (monomorphically). Array lengths are ArithExprs; side conditions such as
// "N is divisible by 4" are decided by the arithmetic's analyses and are errors unless proven.
#include "core/ir/TypeCheck.h"

#include <fmt/format.h>

#include <cctype>
#include <unordered_set>

#include "core/ir/PatternTypeRules.h"

namespace lift::ir {

Type TypeInfo::typeOf(const ExprNode* e) const {
  auto it = exprTypes.find(e);
  return it == exprTypes.end() ? Type() : it->second;
}

const FunType* TypeInfo::funTypeOf(const Fun& f) const {
  auto it = funTypes.find(f.get());
  return it == funTypes.end() ? nullptr : &it->second;
}

std::string TypeInfo::signature() const {
  std::string s = "(";
  for (size_t i = 0; i < paramTypes.size(); ++i) s += (i ? ", " : "") + paramTypes[i].toString();
  return s + ") -> " + resultType.toString();
}

std::optional<std::vector<ArgSource>> bindArguments(std::span<const Type> argTypes, size_t paramCount) {
  std::vector<ArgSource> out;
  if (argTypes.size() == paramCount) {
    for (size_t i = 0; i < paramCount; ++i) out.push_back({static_cast<int>(i), -1});
    return out;
  }
  if (argTypes.size() > paramCount) return std::nullopt;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    Type t = argTypes[i];
    if (t && t.isTuple()) {
      for (size_t c = 0; c < t.tupleElems().size(); ++c)
        out.push_back({static_cast<int>(i), static_cast<int>(c)});
    } else {
      out.push_back({static_cast<int>(i), -1});
    }
  }
  if (out.size() != paramCount) return std::nullopt;
  return out;
}

Type scalarLiteralType(const std::string& text) {
  if (text == "true" || text == "false") return Type::bool_();
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  size_t digits = 0;
  bool dot = false, exp = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c == '.' && !dot && !exp) {
      dot = true;
    } else if ((c == 'e' || c == 'E') && digits && !exp) {
      exp = true;
      if (i + 1 < text.size() && (text[i + 1] == '-' || text[i + 1] == '+')) ++i;
    } else {
      break;
    }
  }
  if (!digits) return {};
  std::string suffix = text.substr(i);
  if (suffix == "f" || suffix == "F") return Type::float_();
  if (!suffix.empty()) return {};
  return dot || exp ? Type::double_() : Type::int_();
}

namespace {

// Deeper programs than this are rejected rather than risking the stack.
constexpr int kMaxDepth = 2000;
std::string str(arith::Expr e) { return arith::toString(e); }

class TypeChecker {
 public:
  TypeChecker(TypeInfo& info, const TypeCheckOptions& opts, const Program* program)
      : info_(info), opts_(opts), program_(program) {}

  Type check(const Fun& f, const std::vector<Type>& args) { return apply(f, args, nullptr); }

  Type checkMain(const Program& p) {
    std::vector<Type> types;
    for (auto& in : p.main->params()) {
      if (!in->declaredType()) fail(in->id(), fmt::format("program input '{}' needs a type", in->name()));
      types.push_back(in->declaredType());
    }
    info_.paramTypes = types;
    return apply(p.main, types, nullptr);
  }

 private:
  // ----- errors -------------------------------------------------------------------------

  // The node to blame for an error at call `site` (the innermost enclosing node at the top).
  NodeId at(const ExprNode* site) const { return site ? site->id() : located_.empty() ? 0 : located_.back(); }

  [[noreturn]] void fail(NodeId where, const std::string& message) const {
    NodeId at = where;
    if (program_ && !program_->locationOf(at).known()) {
      // A node a rewrite created has no location: point at the closest enclosing one that has.
      for (auto it = located_.rbegin(); it != located_.rend(); ++it)
        if (program_->locationOf(*it).known()) {
          at = *it;
          break;
        }
    }
    if (program_) throw LiftError(program_->diagnosticAt(at, message));
    throw LiftError(message);
  }

  struct Located {
    Located(TypeChecker& c, NodeId id) : c_(c) {
      if (++c_.depth_ > kMaxDepth)
        c_.fail(id, fmt::format("program nested too deeply (more than {} levels)", kMaxDepth));
      c_.located_.push_back(id);
    }
    ~Located() {
      --c_.depth_;
      c_.located_.pop_back();
    }
    TypeChecker& c_;
  };

  // ----- expressions --------------------------------------------------------------------

  Type expr(const Expr& e) {
    Located here(*this, e->id());
    Type t;
    switch (e->kind()) {
      case ExprNode::Kind::Literal:
        t = asLiteral(e)->type();
        break;
      case ExprNode::Kind::Param: {
        auto* p = asParam(e);
        auto it = env_.find(p);
        if (it != env_.end()) {
          t = it->second;
        } else if (p->declaredType()) {
          t = p->declaredType();
        } else {
          fail(e->id(),
               fmt::format("parameter '{}' is used outside of the function that binds it", p->name()));
        }
        break;
      }
      case ExprNode::Kind::Call: {
        auto* c = asCall(e);
        std::vector<Type> args;
        args.reserve(c->args().size());
        for (auto& a : c->args()) args.push_back(expr(a));
        t = apply(c->fun(), args, e.get());
        break;
      }
    }
    info_.exprTypes.emplace(e.get(), t);
    return t;
  }

  // ----- function application -----------------------------------------------------------

  // The type of f applied to arguments of types `args` at call `site`.
  Type apply(const Fun& f, const std::vector<Type>& args, const ExprNode* site) {
    Located here(*this, f->id());
    Type result;
    switch (f->kind()) {
      case FunNode::Kind::Lambda:
        result = applyLambda(*asLambda(f), args, site);
        break;
      case FunNode::Kind::UserFun:
        result = applyUserFun(*asUserFun(f), args, site);
        break;
      case FunNode::Kind::Pattern:
        result = applyPattern(*asPattern(f), args, site);
        break;
    }
    info_.funTypes.emplace(f.get(), FunType{args, result});
    return result;
  }

  std::vector<Type> bind(const std::vector<Type>& args, size_t paramCount, const std::string& what,
                         const std::string& paramList, NodeId where) {
    auto sources = bindArguments(args, paramCount);
    if (!sources) {
      std::string argList;
      for (size_t i = 0; i < args.size(); ++i) argList += (i ? ", " : "") + args[i].toString();
      fail(where, fmt::format("{} takes {} argument{} ({}) but is applied to {} ({})", what, paramCount,
                              paramCount == 1 ? "" : "s", paramList, args.size(), argList));
    }
    std::vector<Type> bound;
    for (auto& s : *sources)
      bound.push_back(s.component < 0 ? args[s.arg] : args[s.arg].tupleElems()[s.component]);
    return bound;
  }

  Type applyLambda(const LambdaNode& l, const std::vector<Type>& args, const ExprNode* site) {
    std::string names;
    for (size_t i = 0; i < l.params().size(); ++i) names += (i ? ", " : "") + l.params()[i]->name();
    NodeId where = program_ && program_->locationOf(l.id()).known() ? l.id() : at(site);
    std::vector<Type> bound = bind(args, l.params().size(), "lambda", names, where);
    for (size_t i = 0; i < bound.size(); ++i) {
      const Param& p = l.params()[i];
      if (p->declaredType() && p->declaredType() != bound[i])
        fail(p->id(), fmt::format("parameter '{}' is declared as {} but receives {}", p->name(),
                                  p->declaredType().toString(), bound[i].toString()));
      env_[p.get()] = bound[i];
      info_.exprTypes.emplace(p.get(), bound[i]);
    }
    Type t = expr(l.body());
    for (auto& p : l.params()) env_.erase(p.get());
    return t;
  }

  Type applyUserFun(const UserFunNode& u, const std::vector<Type>& args, const ExprNode* site) {
    const UserFunDef& d = u.def();
    std::string names;
    for (size_t i = 0; i < d.params.size(); ++i)
      names += (i ? ", " : "") + d.params[i].second.toString() + " " + d.params[i].first;
    // Errors point at the function where it is written (inside map(f), at f).
    NodeId where = program_ && program_->locationOf(u.id()).known() ? u.id() : at(site);
    std::vector<Type> bound =
        bind(args, d.params.size(), fmt::format("user function '{}'", d.name), names, where);
    for (size_t i = 0; i < bound.size(); ++i)
      if (bound[i] != d.params[i].second)
        fail(where,
             fmt::format("user function '{}': parameter '{}' has type {} but the argument has type {}",
                         d.name, d.params[i].first, d.params[i].second.toString(), bound[i].toString()));
    return d.returnType;
  }

  // ----- patterns -----------------------------------------------------------------------

  // Whether a divisibility condition must be proven here: not for lengths that involve the
  // symbolic length an iterate's body is typed with, whose values are not known.
  bool mustProve(arith::Expr len) const {
    if (iterationVars_.empty()) return true;
    for (arith::Expr v : arith::variables(len))
      if (iterationVars_.count(v.node())) return false;
    return true;
  }

  void requireDivisible(const PatternNode& p, arith::Expr len, arith::Expr by, const ExprNode* site) const {
    if (mustProve(len) && !arith::provablyDivisible(len, by))
      fail(at(site), fmt::format("{} of an array of length {}: {} must be divisible by {}",
                                 diagnosticLabel(p), str(len), str(len), str(by)));
  }

  void checkNesting(const PatternNode& p) const {
    if (!opts_.checkParallelNesting) return;
    PatternKind k = p.pattern();
    int dim = p.index();
    if (dim < 0 || dim > 2)
      fail(p.id(), fmt::format("{}: the dimension must be 0, 1 or 2", diagnosticLabel(p)));
    bool inWrg = false, inWarp = false;
    bool warpLevel = k == PatternKind::MapWarp || k == PatternKind::MapLane;
    for (const PatternNode* outer : parallel_) {
      PatternKind o = outer->pattern();
      bool sameDim = outer->index() == dim;
      std::string where = fmt::format("{} inside {}", diagnosticLabel(p), diagnosticLabel(*outer));
      if (k == PatternKind::MapGlb && (o != PatternKind::MapGlb || sameDim))
        fail(p.id(),
             where + (o == PatternKind::MapGlb ? ": the dimension is already mapped by the outer mapGlb"
                                               : ": mapGlb cannot be nested in a work-group or local map"));
      checkWarpAndAtomicNesting(p, *outer, where);
      if (isWorkGroupMap(k) && isLocalMap(o))
        fail(p.id(), where + ": work-group maps must enclose local maps, not the reverse");
      if (isWorkGroupMap(k) && isWorkGroupMap(o) && sameDim)
        fail(p.id(), where + ": the dimension is already mapped by the outer " + std::string(patternName(o)));
      if ((isWorkGroupMap(k) || isLocalMap(k) || warpLevel) && o == PatternKind::MapGlb)
        fail(p.id(), where + ": global maps cannot be mixed with work-group and local maps");
      if (isLocalMap(k) && isLocalMap(o) && sameDim)
        fail(p.id(), where + ": the dimension is already mapped by the outer " + std::string(patternName(o)));
      inWrg = inWrg || isWorkGroupMap(o);
      inWarp = inWarp || o == PatternKind::MapWarp;
    }
    if ((isLocalMap(k) || k == PatternKind::MapWarp) && !inWrg)
      fail(p.id(), diagnosticLabel(p) + " must be nested inside a mapWrg");
    if (k == PatternKind::MapLane && !inWarp) fail(p.id(), "mapLane must be nested inside a mapWarp");
  }

  // issue 17 (lift17w): where the warp maps and the atomic maps may be nested. mapAtomWrg's
  // counter in global memory is zeroed once per launch, so it runs once, outermost; mapAtomLcl's
  // counter is shared by all the work-items of the work-group; mapWarp and mapLane divide the
  // work-items of dimension 0 into warps of 32 and their lanes.
  void checkWarpAndAtomicNesting(const PatternNode& p, const PatternNode& outer,
                                 const std::string& where) const {
    PatternKind k = p.pattern(), o = outer.pattern();
    bool oWarpLevel = o == PatternKind::MapWarp || o == PatternKind::MapLane;
    if (k == PatternKind::MapAtomWrg)
      fail(p.id(), where +
                       ": mapAtomWrg must be the outermost map (its counter in global memory is "
                       "zeroed once per launch)");
    if (k == PatternKind::MapAtomLcl && (isLocalMap(o) || oWarpLevel))
      fail(p.id(), where +
                       ": all the work-items of a work-group share mapAtomLcl's counter, so it "
                       "cannot be nested in a map over work-items");
    if (k == PatternKind::MapWarp && (isLocalMap(o) || oWarpLevel))
      fail(p.id(), where +
                       ": mapWarp divides all the work-items of a work-group into warps, so it "
                       "cannot be nested in a map over work-items");
    if (k == PatternKind::MapLane && o == PatternKind::MapLane)
      fail(p.id(), where + ": the lanes of the warp are already mapped by the outer mapLane");
    if (k == PatternKind::MapLane && isLocalMap(o))
      fail(p.id(), where + ": mapLane maps the lanes of a mapWarp's warp, not of a local map");
    if (isLocalMap(k) && oWarpLevel) fail(p.id(), where + ": the work-items of a warp are mapped by mapLane");
    if ((isLocalMap(k) || k == PatternKind::MapWarp || k == PatternKind::MapLane) &&
        o == PatternKind::MapAtomLcl)
      fail(p.id(), where +
                       ": each work-item takes its own indices from mapAtomLcl's counter, so no map "
                       "over work-items can be nested in it");
  }

  // The pattern's typing rule (PatternTypeRules), then the verification the rule leaves to the
  // checker: facts about lengths that need proof, and the nesting of parallel maps.
  Type applyPattern(const PatternNode& p, const std::vector<Type>& args, const ExprNode* site) {
    bool parallel = isParallelMap(p.pattern());
    auto typeF = [&](const std::vector<Type>& fArgs, size_t fun) {
      if (parallel) {
        checkNesting(p);
        parallel_.push_back(&p);
      }
      Type t = apply(p.params().funs.at(fun), fArgs, site);
      if (parallel) parallel_.pop_back();
      return t;
    };
    const void* bodyLength = p.pattern() == PatternKind::Iterate ? iterateBodyLength(p).node() : nullptr;
    if (bodyLength) iterationVars_.insert(bodyLength);
    InferredType r = inferPatternType(p, args, typeF);
    if (bodyLength) iterationVars_.erase(bodyLength);
    if (!r) fail(r.blame() == InferredType::Blame::Parameters ? p.id() : at(site), r.reason());
    verify(p, args, site);
    if (site && !r.iterations().empty()) info_.iterations.emplace(site, r.iterations());
    return r.type();
  }

  // The side conditions of a well-typed application that the typing rule does not decide.
  void verify(const PatternNode& p, const std::vector<Type>& args, const ExprNode* site) const {
    const auto& ps = p.params();
    switch (p.pattern()) {
      case PatternKind::PartRed:
        requireDivisible(p, args[1].length(), ps.sizes[0], site);
        break;
      case PatternKind::Split:
      case PatternKind::ReorderStride:
      case PatternKind::AsVector:
        requireDivisible(p, args[0].length(), ps.sizes.at(0), site);
        break;
      case PatternKind::Gather:
      case PatternKind::Scatter: {
        const IndexFun& f = ps.indexFun;
        arith::Expr len = args[0].length();
        if (f.kind == IndexFun::Kind::ReorderStride) requireDivisible(p, len, f.a, site);
        if (f.kind == IndexFun::Kind::Transpose && mustProve(len) && len != f.a * f.b)
          fail(at(site), fmt::format("{}(transpose({}, {})) of an array of length {}: the length must be {}",
                                     patternName(p.pattern()), str(f.a), str(f.b), str(len), str(f.a * f.b)));
        break;
      }
      case PatternKind::Slide:
      case PatternKind::MapSeqSlide:
        if (arith::provablyLess(args[0].length(), ps.sizes.at(0)))
          fail(at(site), fmt::format("{} of an array of length {}: the window is longer than the array",
                                     diagnosticLabel(p), str(args[0].length())));
        break;
      default:
        break;
    }
  }

  TypeInfo& info_;
  const TypeCheckOptions& opts_;
  const Program* program_;
  std::unordered_map<const ParamNode*, Type> env_;
  std::vector<const PatternNode*> parallel_;  // enclosing mapGlb/mapWrg/mapLcl, outermost first
  std::vector<NodeId> located_;               // enclosing nodes, for error locations
  std::unordered_set<const void*> iterationVars_;
  int depth_ = 0;
};

}  // namespace

TypeInfo typeCheck(const Program& p, const TypeCheckOptions& opts) {
  LIFT_ASSERT(p.main, "program without a main function");
  TypeInfo info;
  TypeChecker c(info, opts, &p);
  info.resultType = c.checkMain(p);
  return info;
}

TypeInfo typeCheck(const Fun& f, const std::vector<Type>& argTypes, const TypeCheckOptions& opts,
                   const Program* context) {
  TypeInfo info;
  TypeChecker c(info, opts, context);
  info.paramTypes = argTypes;
  info.resultType = c.check(f, argTypes);
  return info;
}

}  // namespace lift::ir
