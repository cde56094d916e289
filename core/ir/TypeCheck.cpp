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
// Iterations of a constant-count iterate are checked one by one up to this count; beyond, the
// count is treated like a symbolic one.
constexpr int64_t kMaxUnrolledIterations = 256;

std::string str(arith::Expr e) { return arith::toString(e); }

std::string ordinal(size_t i) {
  static const char* names[] = {"first", "second", "third", "fourth", "fifth"};
  return i < 5 ? names[i] : fmt::format("{}th", i + 1);
}

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

  std::string label(const PatternNode& p) const {
    std::string s(patternName(p.pattern()));
    switch (p.pattern()) {
      case PatternKind::MapGlb:
      case PatternKind::MapWrg:
      case PatternKind::MapLcl:
        return s + std::to_string(p.index());
      case PatternKind::Get:
        return fmt::format("get {}", p.index());
      default:
        break;
    }
    for (size_t i = 0; i < p.params().sizes.size(); ++i) s += (i ? ", " : " ") + str(p.params().sizes[i]);
    return s;
  }

  void expectArity(const PatternNode& p, const std::vector<Type>& args, size_t n,
                   const ExprNode* site) const {
    if (args.size() != n)
      fail(at(site), fmt::format("{} takes {} argument{} but is applied to {}", label(p), n,
                                 n == 1 ? "" : "s", args.size()));
  }

  Type expectArray(const PatternNode& p, Type t, const ExprNode* site, const std::string& which = "") const {
    if (!t.isArray())
      fail(at(site), fmt::format("{} expects an array{}, got {}", label(p), which, t.toString()));
    return t;
  }

  // Whether a divisibility condition must be proven here: not for lengths that involve the
  // symbolic stand-in length of a symbolic iterate's body, whose values are not known.
  bool mustProve(arith::Expr len) const {
    if (iterationVars_.empty()) return true;
    for (arith::Expr v : arith::variables(len))
      if (iterationVars_.count(v.node())) return false;
    return true;
  }

  void requireDivisible(const PatternNode& p, arith::Expr len, arith::Expr by, const ExprNode* site) const {
    if (by.isCst() && by.value() <= 0)
      fail(p.id(), fmt::format("{}: the factor must be positive, got {}", label(p), str(by)));
    if (mustProve(len) && !arith::provablyDivisible(len, by))
      fail(at(site), fmt::format("{} of an array of length {}: {} must be divisible by {}", label(p),
                                 str(len), str(len), str(by)));
  }

  void requirePositive(const PatternNode& p, arith::Expr e, const char* what) const {
    if (e.isCst() && e.value() <= 0)
      fail(p.id(), fmt::format("{}: {} must be positive, got {}", label(p), what, str(e)));
  }

  void checkNesting(const PatternNode& p) const {
    if (!opts_.checkParallelNesting) return;
    PatternKind k = p.pattern();
    int dim = p.index();
    if (dim < 0 || dim > 2) fail(p.id(), fmt::format("{}: the dimension must be 0, 1 or 2", label(p)));
    bool inWrg = false;
    for (const PatternNode* outer : parallel_) {
      PatternKind o = outer->pattern();
      bool sameDim = outer->index() == dim;
      std::string where = fmt::format("{} inside {}", label(p), label(*outer));
      if (k == PatternKind::MapGlb && (o != PatternKind::MapGlb || sameDim))
        fail(p.id(),
             where + (o == PatternKind::MapGlb ? ": the dimension is already mapped by the outer mapGlb"
                                               : ": mapGlb cannot be nested in a work-group or local map"));
      if (k == PatternKind::MapWrg && o == PatternKind::MapLcl)
        fail(p.id(), where + ": work-group maps must enclose local maps, not the reverse");
      if (k == PatternKind::MapWrg && o == PatternKind::MapWrg && sameDim)
        fail(p.id(), where + ": the dimension is already mapped by the outer mapWrg");
      if ((k == PatternKind::MapWrg || k == PatternKind::MapLcl) && o == PatternKind::MapGlb)
        fail(p.id(), where + ": global maps cannot be mixed with work-group and local maps");
      if (k == PatternKind::MapLcl && o == PatternKind::MapLcl && sameDim)
        fail(p.id(), where + ": the dimension is already mapped by the outer mapLcl");
      inWrg = inWrg || o == PatternKind::MapWrg;
    }
    if (k == PatternKind::MapLcl && !inWrg) fail(p.id(), label(p) + " must be nested inside a mapWrg");
  }

  Type applyPattern(const PatternNode& p, const std::vector<Type>& args, const ExprNode* site) {
    const auto& ps = p.params();
    switch (p.pattern()) {
      case PatternKind::Map:
      case PatternKind::MapSeq:
      case PatternKind::MapSeqUnroll:
      case PatternKind::MapGlb:
      case PatternKind::MapWrg:
      case PatternKind::MapLcl: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        bool parallel = p.pattern() == PatternKind::MapGlb || p.pattern() == PatternKind::MapWrg ||
                        p.pattern() == PatternKind::MapLcl;
        if (parallel) {
          checkNesting(p);
          parallel_.push_back(&p);
        }
        Type out = apply(p.f(), {in.elem()}, site);
        if (parallel) parallel_.pop_back();
        return Type::array(out, in.length());
      }
      case PatternKind::MapVec: {
        expectArity(p, args, 1, site);
        Type in = args[0];
        if (!in.isVector()) fail(at(site), fmt::format("mapVec expects a vector, got {}", in.toString()));
        Type out = apply(p.f(), {Type::scalar(in.scalarKind())}, site);
        if (!out.isScalar())
          fail(at(site),
               fmt::format("mapVec: the function must return a scalar, but returns {}", out.toString()));
        return Type::vector(out.scalarKind(), in.vectorWidth());
      }
      case PatternKind::Reduce:
      case PatternKind::ReduceSeq:
      case PatternKind::ReduceSeqUnroll:
      case PatternKind::PartRed: {
        expectArity(p, args, 2, site);
        Type init = args[0];
        Type in = expectArray(p, args[1], site, " to reduce");
        Type acc = apply(p.f(), {init, in.elem()}, site);
        if (acc != init)
          fail(at(site), fmt::format("{}: the function returns {} but the initial value has type {}",
                                     label(p), acc.toString(), init.toString()));
        if (p.pattern() != PatternKind::PartRed) return Type::array(init, arith::cst(1));
        if (ps.sizes.empty()) fail(p.id(), "partRed needs the size of the parts");
        requireDivisible(p, in.length(), ps.sizes[0], site);
        return Type::array(init, in.length() / ps.sizes[0]);
      }
      case PatternKind::Zip: {
        if (args.size() < 2)
          fail(at(site), fmt::format("zip needs at least two arrays, got {}", args.size()));
        if (ps.index != static_cast<int>(args.size()))
          fail(at(site), fmt::format("zip of {} arrays applied to {}", ps.index, args.size()));
        std::vector<Type> elems;
        for (size_t i = 0; i < args.size(); ++i) {
          expectArray(p, args[i], site, fmt::format(" as {} argument", ordinal(i)));
          if (args[i].length() != args[0].length())
            fail(at(site),
                 fmt::format(
                     "zip of arrays of different lengths: the first has length {}, the {} has length {}",
                     str(args[0].length()), ordinal(i), str(args[i].length())));
          elems.push_back(args[i].elem());
        }
        return Type::array(Type::tuple(std::move(elems)), args[0].length());
      }
      case PatternKind::Unzip: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        if (!in.elem().isTuple())
          fail(at(site), fmt::format("unzip expects an array of tuples, got {}", in.toString()));
        std::vector<Type> arrays;
        for (Type e : in.elem().tupleElems()) arrays.push_back(Type::array(e, in.length()));
        return Type::tuple(std::move(arrays));
      }
      case PatternKind::Split: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        arith::Expr n = ps.sizes.at(0);
        requireDivisible(p, in.length(), n, site);
        return Type::array(Type::array(in.elem(), n), in.length() / n);
      }
      case PatternKind::Join: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        if (!in.elem().isArray())
          fail(at(site), fmt::format("join expects an array of arrays, got {}", in.toString()));
        return Type::array(in.elem().elem(), in.elem().length() * in.length());
      }
      case PatternKind::Transpose: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        if (!in.elem().isArray())
          fail(at(site), fmt::format("transpose expects a two-dimensional array, got {}", in.toString()));
        return Type::array(Type::array(in.elem().elem(), in.length()), in.elem().length());
      }
      case PatternKind::Gather:
      case PatternKind::Scatter: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        const IndexFun& f = ps.indexFun;
        if (f.kind == IndexFun::Kind::ReorderStride) requireDivisible(p, in.length(), f.a, site);
        if (f.kind == IndexFun::Kind::Transpose && mustProve(in.length()) && in.length() != f.a * f.b)
          fail(at(site),
               fmt::format("{}(transpose({}, {})) of an array of length {}: the length must be {}",
                           patternName(p.pattern()), str(f.a), str(f.b), str(in.length()), str(f.a * f.b)));
        return in;
      }
      case PatternKind::ReorderStride: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        requireDivisible(p, in.length(), ps.sizes.at(0), site);
        return in;
      }
      case PatternKind::Slide: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        arith::Expr size = ps.sizes.at(0), step = ps.sizes.at(1);
        requirePositive(p, size, "the window size");
        requirePositive(p, step, "the step");
        if (arith::provablyLess(in.length(), size))
          fail(at(site), fmt::format("{} of an array of length {}: the window is longer than the array",
                                     label(p), str(in.length())));
        return Type::array(Type::array(in.elem(), size), (in.length() - size + step) / step);
      }
      case PatternKind::Pad: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        arith::Expr l = ps.sizes.at(0), r = ps.sizes.at(1);
        for (arith::Expr e : {l, r})
          if (e.isCst() && e.value() < 0) fail(p.id(), fmt::format("pad: negative padding {}", str(e)));
        if (ps.padMode == PadMode::Constant) {
          Type v = scalarLiteralType(ps.padValue);
          Type elem = in.elem();
          Type scalarElem = elem.isVector() ? Type::scalar(elem.scalarKind()) : elem;
          if (!v || v != scalarElem)
            fail(p.id(), fmt::format("pad: the value {} ({}) does not match the element type {}", ps.padValue,
                                     v ? v.toString() : "not a scalar literal", elem.toString()));
        }
        return Type::array(in.elem(), in.length() + l + r);
      }
      case PatternKind::Iterate:
        expectArity(p, args, 1, site);
        return applyIterate(p, args[0], site);
      case PatternKind::Get: {
        expectArity(p, args, 1, site);
        Type t = args[0];
        if (!t.isTuple())
          fail(at(site), fmt::format("get {} expects a tuple, got {}", ps.index, t.toString()));
        int n = static_cast<int>(t.tupleElems().size());
        if (ps.index < 0 || ps.index >= n)
          fail(at(site), fmt::format("get {} of a tuple with {} components {}: the index must be in 0..{}",
                                     ps.index, n, t.toString(), n - 1));
        return t.tupleElems()[ps.index];
      }
      case PatternKind::Tuple: {
        if (args.size() < 2)
          fail(at(site), fmt::format("tuple needs at least two components, got {}", args.size()));
        if (ps.index != static_cast<int>(args.size()))
          fail(at(site), fmt::format("tuple of {} components applied to {}", ps.index, args.size()));
        return Type::tuple(args);
      }
      case PatternKind::Id:
        expectArity(p, args, 1, site);
        return args[0];
      case PatternKind::AsVector: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        arith::Expr n = ps.sizes.at(0);
        if (!n.isCst() ||
            (n.value() != 2 && n.value() != 3 && n.value() != 4 && n.value() != 8 && n.value() != 16))
          fail(p.id(), fmt::format("asVector {}: the width must be 2, 3, 4, 8 or 16", str(n)));
        if (!in.elem().isScalar())
          fail(at(site), fmt::format("{} needs an array of scalars, got {}", label(p), in.toString()));
        requireDivisible(p, in.length(), n, site);
        return Type::array(Type::vector(in.elem().scalarKind(), static_cast<int>(n.value())),
                           in.length() / n);
      }
      case PatternKind::AsScalar: {
        expectArity(p, args, 1, site);
        Type in = expectArray(p, args[0], site);
        if (!in.elem().isVector())
          fail(at(site), fmt::format("asScalar needs an array of vectors, got {}", in.toString()));
        return Type::array(Type::scalar(in.elem().scalarKind()), in.length() * in.elem().vectorWidth());
      }
      case PatternKind::Vectorize:
        return applyVectorize(p, args, site);
      case PatternKind::ToGlobal:
      case PatternKind::ToLocal:
      case PatternKind::ToPrivate:
        return apply(p.f(), args, site);
      case PatternKind::Dot: {
        expectArity(p, args, 2, site);
        if (!args[0].isVector() || args[0] != args[1] ||
            (args[0].scalarKind() != ScalarKind::Float && args[0].scalarKind() != ScalarKind::Double))
          fail(at(site),
               fmt::format("dot expects two float or double vectors of the same width, got {} and {}",
                           args[0].toString(), args[1].toString()));
        return Type::scalar(args[0].scalarKind());
      }
    }
    fail(at(site), "unknown pattern");
  }

  // vectorize(n, f): f on scalars becomes a function on vectors of width n (tuples of vectors
  // are taken apart component-wise, as a zip of vectorised arrays gives).
  Type applyVectorize(const PatternNode& p, const std::vector<Type>& args, const ExprNode* site) {
    arith::Expr n = p.params().sizes.at(0);
    if (!n.isCst()) fail(p.id(), "vectorize: the width must be a constant");
    int width = static_cast<int>(n.value());
    std::function<Type(Type)> scalarOf = [&](Type t) -> Type {
      if (t.isTuple()) {
        std::vector<Type> elems;
        for (Type e : t.tupleElems()) elems.push_back(scalarOf(e));
        return Type::tuple(std::move(elems));
      }
      if (!t.isVector() || t.vectorWidth() != width)
        fail(at(site),
             fmt::format("vectorize {}: expected vectors of width {}, got {}", width, width, t.toString()));
      return Type::scalar(t.scalarKind());
    };
    std::vector<Type> scalars;
    for (Type a : args) scalars.push_back(scalarOf(a));
    Type out = apply(p.f(), scalars, site);
    if (!out.isScalar())
      fail(at(site), fmt::format("vectorize {}: the function must return a scalar, but returns {}", width,
                                 out.toString()));
    return Type::vector(out.scalarKind(), width);
  }

  // iterate(n, f): f applied n times. With a constant count each iteration is checked with its
  // own input type; with a symbolic count, f is checked once on a fresh symbolic length L and must
  // keep the length (L), or divide (L/k) or multiply (L*k) it by a constant.
  Type applyIterate(const PatternNode& p, Type in, const ExprNode* site) {
    arith::Expr n = p.params().sizes.at(0);
    if (n.isCst() && n.value() < 0) fail(p.id(), fmt::format("iterate: negative count {}", str(n)));
    if (n.isCst() && n.value() <= kMaxUnrolledIterations) {
      std::vector<Type> types{in};
      Type cur = in;
      for (int64_t i = 0; i < n.value(); ++i) {
        cur = apply(p.f(), {cur}, site);
        types.push_back(cur);
      }
      if (n.value() == 0) apply(p.f(), {in}, site);  // still type the body once
      if (site) info_.iterations.emplace(site, std::move(types));
      return cur;
    }
    expectArray(p, in, site);
    arith::Expr L = arith::sizeVar(fmt::format("iterLen{}", p.id()));
    iterationVars_.insert(L.node());
    Type out = apply(p.f(), {Type::array(in.elem(), L)}, site);
    iterationVars_.erase(L.node());
    if (!out.isArray() || out.elem() != in.elem())
      fail(at(site),
           fmt::format("iterate {}: the iterated function must keep the element type {}, but returns {}",
                       str(n), in.elem().toString(), out.toString()));
    arith::Expr g = out.length();
    if (g == L) return in;
    const int64_t probe = int64_t(1) << 20;
    int64_t v = 0;
    try {
      v = arith::evaluate(g, {{arith::varName(L), probe}});
    } catch (const LiftError&) {
      v = 0;
    }
    // A constant count beyond kMaxUnrolledIterations must keep k^n within 64 bits.
    auto power = [&](int64_t k) {
      if (n.isCst()) {
        int64_t r = 1;
        for (int64_t i = 0; i < n.value(); ++i)
          if (__builtin_mul_overflow(r, k, &r))
            fail(at(site),
                 fmt::format("iterate {}: the length changes by a factor of {}^{}, which is out of range",
                             str(n), k, str(n)));
        return arith::cst(r);
      }
      return arith::pow(arith::cst(k), n);
    };
    if (v > 0 && v < probe && probe % v == 0 && g == L / (probe / v))
      return Type::array(in.elem(), in.length() / power(probe / v));
    if (v > probe && v % probe == 0 && g == L * (v / probe))
      return Type::array(in.elem(), in.length() * power(v / probe));
    fail(at(site),
         fmt::format("iterate {}: with a symbolic count the iterated function must keep the length or divide "
                     "or multiply it by a constant, but turns length L into {}",
                     str(n), str(g)));
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
