// The reference interpreter (see Interpreter.h): a direct evaluation of the IR graph, one
// pattern at a time, on Values.
#include "core/interp/Interpreter.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <unordered_map>

#include "core/cfun/CFun.h"
#include "core/interp/IndexFunctions.h"
#include "core/ir/TypeCheck.h"

namespace lift::interp {

using ir::PatternKind;

Type concreteType(Type t, const arith::Env& sizes) {
  switch (t.kind()) {
    case Type::Kind::Array:
      return Type::array(concreteType(t.elem(), sizes), arith::cst(arith::evaluate(t.length(), sizes)));
    case Type::Kind::Tuple: {
      std::vector<Type> elems;
      for (Type e : t.tupleElems()) elems.push_back(concreteType(e, sizes));
      return Type::tuple(std::move(elems));
    }
    default:
      return t;
  }
}

namespace {

using Args = std::span<const Value>;

// Parses the text of a scalar literal of kind k ("1.5f", "2.0", "-3", "true").
std::optional<Scalar> parseScalar(std::string text, ScalarKind k) {
  // Accept an OpenCL vector-literal prefix, "(float4)0.0f" or "(float4)(0.0f)".
  if (!text.empty() && text[0] == '(') {
    size_t close = text.find(')');
    if (close != std::string::npos && close + 1 < text.size()) text = text.substr(close + 1);
    if (text.size() > 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
  }
  Scalar s{};
  if (text == "true" || text == "false") {
    bool b = text == "true";
    switch (k) {
      case ScalarKind::Bool:
        s.b = b;
        break;
      case ScalarKind::Int:
        s.i = b;
        break;
      case ScalarKind::Float:
        s.f = b;
        break;
      case ScalarKind::Double:
        s.d = b;
        break;
    }
    return s;
  }
  std::string digits = text;
  if (!digits.empty() && (digits.back() == 'f' || digits.back() == 'F')) digits.pop_back();
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  switch (k) {
    case ScalarKind::Float:
      s.f = std::strtof(digits.c_str(), &end);
      break;
    case ScalarKind::Double:
      s.d = std::strtod(digits.c_str(), &end);
      break;
    case ScalarKind::Int: {
      long long v = std::strtoll(digits.c_str(), &end, 10);
      if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
      s.i = static_cast<int32_t>(v);
      break;
    }
    case ScalarKind::Bool: {
      long long v = std::strtoll(digits.c_str(), &end, 10);
      s.b = v != 0;
      break;
    }
  }
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return s;
}

bool isVectorWidth(int64_t w) { return w == 2 || w == 3 || w == 4 || w == 8 || w == 16; }

class Interpreter {
 public:
  Interpreter(const arith::Env& sizes, const ir::Program* program, const InterpOptions& opts)
      : sizes_(sizes), program_(program), opts_(opts) {}

  Value apply(const ir::Fun& f, Args args, const ir::ExprNode* site) {
    if (++applications_ % 1024 == 0) checkBudget(site);
    switch (f->kind()) {
      case ir::FunNode::Kind::Lambda:
        return applyLambda(*ir::asLambda(f), args, site);
      case ir::FunNode::Kind::UserFun:
        return applyUserFun(ir::asUserFun(f)->def(), args, site);
      case ir::FunNode::Kind::Pattern:
        return applyPattern(*ir::asPattern(f), args, site);
    }
    fail(InterpError::Kind::Shape, site, "unknown function kind");
  }

 private:
  // ----- errors -----

  [[noreturn]] void fail(InterpError::Kind k, const ir::ExprNode* site, const std::string& message) const {
    if (program_ && site) throw InterpError(k, program_->diagnosticAt(site->id(), message));
    Diagnostic d;
    d.message = message;
    if (program_) d.loc.file = program_->file;
    throw InterpError(k, std::move(d));
  }

  void checkBudget(const ir::ExprNode* site) const {
    if (opts_.cancel && opts_.cancel->load(std::memory_order_relaxed))
      fail(InterpError::Kind::Cancelled, site, "the interpreter was cancelled");
    if (opts_.maxApplications && applications_ > opts_.maxApplications)
      fail(InterpError::Kind::Limit, site,
           fmt::format("the interpreter stopped after {} function applications (the limit)",
                       opts_.maxApplications));
  }

  int64_t size(arith::Expr e, const ir::ExprNode* site) const {
    try {
      return arith::evaluate(e, sizes_);
    } catch (const LiftError& err) {
      fail(InterpError::Kind::Unbound, site,
           fmt::format("cannot evaluate {}: {}", arith::toString(e), err.diagnostic().message));
    }
  }

  static std::string describe(const Value& v) { return v.type().toString(); }

  const Value& expectArray(const Value& v, const ir::PatternNode& p, const ir::ExprNode* site) const {
    if (!v.isArray())
      fail(InterpError::Kind::Shape, site,
           fmt::format("{} expects an array, got {}", ir::patternName(p.pattern()), describe(v)));
    return v;
  }

  void expectArgs(Args args, size_t n, const ir::PatternNode& p, const ir::ExprNode* site) const {
    if (args.size() != n)
      fail(InterpError::Kind::Shape, site,
           fmt::format("{} takes {} argument{}, got {}", ir::patternName(p.pattern()), n, n == 1 ? "" : "s",
                       args.size()));
  }

  // ----- expressions -----

  Value eval(const ir::Expr& e) {
    switch (e->kind()) {
      case ir::ExprNode::Kind::Literal:
        return literal(*ir::asLiteral(e), e.get());
      case ir::ExprNode::Kind::Param: {
        // The innermost binding: lambdas push their parameters, so the stack is short.
        const ir::ParamNode* p = ir::asParam(e);
        for (auto it = env_.rbegin(); it != env_.rend(); ++it)
          if (it->first == p) return it->second;
        fail(InterpError::Kind::Unbound, e.get(), fmt::format("parameter '{}' has no value here", p->name()));
      }
      case ir::ExprNode::Kind::Call: {
        auto* c = ir::asCall(e);
        std::vector<Value> args;
        args.reserve(c->args().size());
        for (auto& a : c->args()) args.push_back(eval(a));
        return apply(c->fun(), args, e.get());
      }
    }
    fail(InterpError::Kind::Shape, e.get(), "unknown expression kind");
  }

  Value literal(const ir::LiteralNode& l, const ir::ExprNode* site) {
    if (auto it = literals_.find(&l); it != literals_.end()) return it->second;
    Type t = l.type();
    Type inner = t.innermost();
    if (!inner.isScalar() && !inner.isVector())
      fail(InterpError::Kind::Shape, site,
           fmt::format("literal '{}' of type {} is not supported", l.text(), t.toString()));
    auto s = parseScalar(l.text(), inner.scalarKind());
    if (!s)
      fail(InterpError::Kind::Shape, site,
           fmt::format("'{}' is not a literal of type {}", l.text(), inner.toString()));
    Type concrete = t;
    if (t.isArray()) {
      try {
        concrete = concreteType(t, sizes_);
      } catch (const LiftError& err) {
        fail(InterpError::Kind::Unbound, site, err.diagnostic().message);
      }
    }
    Value v = Value::filled(concrete, *s);
    literals_.emplace(&l, v);
    return v;
  }

  // Binds arguments to n parameters with the type checker's rule (ir::bindArguments): one
  // argument per parameter, or, with fewer arguments, tuples taken apart by one level (into
  // `spread`, which the result then views).
  static std::optional<Args> bind(Args args, size_t n, std::vector<Value>& spread) {
    if (args.size() == n) return args;
    if (args.size() > n) return std::nullopt;
    spread.clear();
    for (auto& a : args) {
      if (a.isTuple())
        for (size_t i = 0; i < a.size(); ++i) spread.push_back(a.at(i));
      else
        spread.push_back(a);
    }
    if (spread.size() != n) return std::nullopt;
    return Args(spread);
  }

  Value applyLambda(const ir::LambdaNode& l, Args args, const ir::ExprNode* site) {
    std::vector<Value> spread;
    auto bound = bind(args, l.params().size(), spread);
    if (!bound)
      fail(InterpError::Kind::Shape, site,
           fmt::format("a lambda of {} parameters applied to {} arguments", l.params().size(), args.size()));
    size_t depth = env_.size();
    for (size_t i = 0; i < bound->size(); ++i) env_.emplace_back(l.params()[i].get(), (*bound)[i]);
    // Pops the bindings also when the body throws (the interpreter may be used again).
    struct Pop {
      std::vector<std::pair<const ir::ParamNode*, Value>>& env;
      size_t depth;
      ~Pop() { env.resize(depth); }
    } pop{env_, depth};
    return eval(l.body());
  }

  // ----- user functions -----

  static bool matches(const Value& v, Type t) {
    switch (t.kind()) {
      case Type::Kind::Scalar:
        return v.isScalar() && v.scalarKind() == t.scalarKind();
      case Type::Kind::Vector:
        return v.isVector() && v.scalarKind() == t.scalarKind() && v.width() == t.vectorWidth();
      case Type::Kind::Tuple: {
        if (!v.isTuple() || v.size() != t.tupleElems().size()) return false;
        for (size_t i = 0; i < v.size(); ++i)
          if (!matches(v.at(i), t.tupleElems()[i])) return false;
        return true;
      }
      case Type::Kind::Array:
        return false;
    }
    return false;
  }

  static Value fromSlots(Type t, const Scalar*& p) {
    switch (t.kind()) {
      case Type::Kind::Scalar:
        return Value::scalar(t.scalarKind(), *p++);
      case Type::Kind::Vector: {
        Value v =
            Value::vector(t.scalarKind(), std::span<const Scalar>(p, static_cast<size_t>(t.vectorWidth())));
        p += t.vectorWidth();
        return v;
      }
      case Type::Kind::Tuple: {
        std::vector<Value> elems;
        for (Type e : t.tupleElems()) elems.push_back(fromSlots(e, p));
        return Value::tuple(std::move(elems));
      }
      case Type::Kind::Array:
        break;
    }
    LIFT_ASSERT(false, "user functions do not return arrays");
  }

  // What a call of a user function needs, computed once per function: its parsed body and
  // which parameters and result are plain scalars (the common case, checked without Types).
  struct UserFunPlan {
    const cfun::Body* body = nullptr;
    std::vector<std::optional<ScalarKind>> scalarParams;
    std::optional<ScalarKind> scalarResult;
    uint32_t resultSlots = 0;
  };

  const UserFunPlan& planOf(const ir::UserFunDef& d, const ir::ExprNode* site) {
    if (auto it = plans_.find(&d); it != plans_.end()) return it->second;
    UserFunPlan plan;
    if (d.body) {
      plan.body = d.body.get();
    } else {
      try {
        parsedBodies_.push_back(
            cfun::parseBody(d.bodyText, d.params, d.returnType, d.loc.file, d.loc.line, d.loc.col));
      } catch (const LiftError& err) {
        fail(InterpError::Kind::UserFunction, site,
             fmt::format("user function '{}': {}", d.name, err.diagnostic().message));
      }
      plan.body = parsedBodies_.back().get();
    }
    for (auto& [name, t] : d.params)
      plan.scalarParams.push_back(t.isScalar() ? std::optional<ScalarKind>(t.scalarKind()) : std::nullopt);
    if (d.returnType.isScalar()) plan.scalarResult = d.returnType.scalarKind();
    plan.resultSlots = cfun::slotCount(d.returnType);
    return plans_.emplace(&d, std::move(plan)).first->second;
  }

  Value applyUserFun(const ir::UserFunDef& d, Args args, const ir::ExprNode* site) {
    const UserFunPlan& plan = planOf(d, site);
    auto bound = bind(args, d.params.size(), spread_);
    if (!bound)
      fail(
          InterpError::Kind::Shape, site,
          fmt::format("user function '{}' takes {} arguments, got {}", d.name, d.params.size(), args.size()));
    slots_.clear();
    for (size_t i = 0; i < bound->size(); ++i) {
      const Value& v = (*bound)[i];
      if (plan.scalarParams[i] && v.isScalar() && v.scalarKind() == *plan.scalarParams[i]) {
        slots_.push_back(v.bits());
        continue;
      }
      if (!matches(v, d.params[i].second))
        fail(InterpError::Kind::Shape, site,
             fmt::format("user function '{}': parameter '{}' has type {} but receives {}", d.name,
                         d.params[i].first, d.params[i].second.toString(), describe(v)));
      v.flattenInto(slots_);
    }
    result_.resize(plan.resultSlots);
    try {
      cfun::evaluate(*plan.body, slots_, result_, opts_.userFunLimits);
    } catch (const LiftError& err) {
      Diagnostic diag = err.diagnostic();
      diag.message += fmt::format(" (in user function '{}')", d.name);
      throw InterpError(InterpError::Kind::UserFunction, std::move(diag));
    }
    if (plan.scalarResult) return Value::scalar(*plan.scalarResult, result_[0]);
    const Scalar* p = result_.data();
    return fromSlots(d.returnType, p);
  }

  // ----- patterns -----

  Value map(const ir::PatternNode& p, const Value& in, const ir::ExprNode* site) {
    expectArray(in, p, site);
    size_t n = in.size();
    ArrayBuilder b(n);
    for (size_t i = 0; i < n; ++i) b.push(applyToElement(p.f(), nullptr, in, i, site));
    return b.finish();
  }

  // The windows of slide(size, step) (sizes 0 and 1 of p, a slide or a mapSeqSlide) over `in`.
  Value slide(const ir::PatternNode& p, const Value& arg, const ir::ExprNode* site) {
    const auto& ps = p.params();
    const Value& in = expectArray(arg, p, site);
    int64_t sz = size(ps.sizes.at(0), site), step = size(ps.sizes.at(1), site),
            n = static_cast<int64_t>(in.size());
    if (sz <= 0 || step <= 0)
      fail(InterpError::Kind::Shape, site,
           fmt::format("slide {}, {}: size and step must be positive", sz, step));
    if (n < sz)
      fail(InterpError::Kind::Shape, site,
           fmt::format("slide {}, {} of an array of length {}: the window is longer than the array", sz, step,
                       n));
    int64_t windows = (n - sz + step) / step;
    ArrayBuilder outer(static_cast<size_t>(windows));
    for (int64_t w = 0; w < windows; ++w) {
      ArrayBuilder win(static_cast<size_t>(sz));
      for (int64_t i = 0; i < sz; ++i) win.push(in.at(static_cast<size_t>(w * step + i)));
      outer.push(win.finish());
    }
    return outer.finish();
  }

  // The number of parameters of f if it binds arguments to parameters (a lambda or a user
  // function, which take tuple arguments apart as needed), else 0.
  static size_t paramCount(const ir::Fun& f) {
    if (auto* l = ir::asLambda(f)) return l->params().size();
    if (auto* u = ir::asUserFun(f)) return u->def().params.size();
    return 0;
  }

  // f applied to element i of `in`, after the accumulator `acc` if given. When the element
  // is a tuple of a zipped array that f would take apart anyway, its components are passed
  // directly, without building the tuple (same binding as ir::bindArguments).
  Value applyToElement(const ir::Fun& f, const Value* acc, const Value& in, size_t i,
                       const ir::ExprNode* site) {
    size_t lead = acc ? 1 : 0;
    if (in.isZip() && !(acc && acc->isTuple())) {
      auto parts = in.zipComponents();
      size_t n = paramCount(f);
      std::array<Value, 8> args;
      if (n == lead + parts.size() && n <= args.size()) {
        if (acc) args[0] = *acc;
        for (size_t k = 0; k < parts.size(); ++k) args[lead + k] = parts[k].at(i);
        return apply(f, Args(args.data(), n), site);
      }
    }
    if (!acc) {
      Value e = in.at(i);
      return apply(f, Args(&e, 1), site);
    }
    Value pair[2] = {*acc, in.at(i)};
    return apply(f, pair, site);
  }

  Value fold(const ir::PatternNode& p, Value acc, const Value& in, size_t from, size_t to,
             const ir::ExprNode* site) {
    for (size_t i = from; i < to; ++i) acc = applyToElement(p.f(), &acc, in, i, site);
    return acc;
  }

  Value mapLanes(const ir::PatternNode& p, Args args, int width, const ir::ExprNode* site) {
    // Lane j of every argument (tuples of vectors taken apart component-wise).
    std::function<Value(const Value&, int)> laneOf = [&](const Value& v, int j) -> Value {
      if (v.isTuple()) {
        std::vector<Value> elems;
        for (size_t i = 0; i < v.size(); ++i) elems.push_back(laneOf(v.at(i), j));
        return Value::tuple(std::move(elems));
      }
      if (!v.isVector() || v.width() != width)
        fail(InterpError::Kind::Shape, site,
             fmt::format("{} {}: expected vectors of width {}, got {}", ir::patternName(p.pattern()), width,
                         width, describe(v)));
      return v.at(static_cast<size_t>(j));
    };
    std::vector<Scalar> lanes(static_cast<size_t>(width));
    ScalarKind kind = ScalarKind::Float;
    for (int j = 0; j < width; ++j) {
      std::vector<Value> scalars;
      for (auto& a : args) scalars.push_back(laneOf(a, j));
      Value r = apply(p.f(), scalars, site);
      if (!r.isScalar())
        fail(InterpError::Kind::Shape, site,
             fmt::format("{}: the function must return a scalar, but returns {}",
                         ir::patternName(p.pattern()), describe(r)));
      kind = r.scalarKind();
      lanes[static_cast<size_t>(j)] = r.bits();
    }
    return Value::vector(kind, lanes);
  }

  // The index functions are permutations only for fitting lengths (as the type checker
  // requires): reorderStride(s) of a multiple of s, transpose(R, C) of R*C elements.
  void checkIndexFun(const ir::PatternNode& p, const ir::IndexFun& f, int64_t n,
                     const ir::ExprNode* site) const {
    if (f.kind == ir::IndexFun::Kind::ReorderStride) {
      int64_t s = size(f.a, site);
      if (s <= 0 || n % s != 0)
        fail(InterpError::Kind::Shape, site,
             fmt::format("{}(reorderStride({})) of an array of length {}: {} is not divisible by {}",
                         ir::patternName(p.pattern()), s, n, n, s));
    }
    if (f.kind == ir::IndexFun::Kind::Transpose) {
      int64_t rows = size(f.a, site), cols = size(f.b, site);
      if (rows * cols != n)
        fail(InterpError::Kind::Shape, site,
             fmt::format("{}(transpose({}, {})) of an array of length {}: the length must be {}",
                         ir::patternName(p.pattern()), rows, cols, n, rows * cols));
    }
  }

  Value gather(const ir::PatternNode& p, const ir::IndexFun& f, const Value& in, const ir::ExprNode* site) {
    expectArray(in, p, site);
    int64_t n = static_cast<int64_t>(in.size());
    checkIndexFun(p, f, n, site);
    ArrayBuilder b(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = index(f, i, n, site);
      if (j < 0 || j >= n)
        fail(InterpError::Kind::OutOfBounds, site,
             fmt::format("{}: the index function maps {} to {}, outside the array of length {}",
                         ir::patternName(p.pattern()), i, j, n));
      b.push(in.at(static_cast<size_t>(j)));
    }
    return b.finish();
  }

  // The index of at, checkedAt and filter: an int value.
  int64_t indexValue(const ir::PatternNode& p, const Value& i, const ir::ExprNode* site) const {
    if (!i.isScalar() || i.scalarKind() != ScalarKind::Int)
      fail(InterpError::Kind::Shape, site,
           fmt::format("{}: the index must be an int, got {}", ir::patternName(p.pattern()), describe(i)));
    return i.asInt();
  }

  // fma(a, b, c) lane by lane, rounded once (OpenCL's fma).
  Value fma(Args args, const ir::ExprNode* site) const {
    const Value &a = args[0], &b = args[1], &c = args[2];
    auto same = [&](const Value& v) {
      return v.kind() == a.kind() && v.scalarKind() == a.scalarKind() &&
             (!a.isVector() || v.width() == a.width());
    };
    bool floating = (a.isScalar() || a.isVector()) &&
                    (a.scalarKind() == ScalarKind::Float || a.scalarKind() == ScalarKind::Double);
    if (!floating || !same(b) || !same(c))
      fail(InterpError::Kind::Shape, site,
           fmt::format("fma expects three float or double values of one type, got {}, {} and {}", describe(a),
                       describe(b), describe(c)));
    auto lane = [&](Scalar x, Scalar y, Scalar z) {
      Scalar r{};
      if (a.scalarKind() == ScalarKind::Float)
        r.f = std::fma(x.f, y.f, z.f);
      else
        r.d = std::fma(x.d, y.d, z.d);
      return r;
    };
    if (a.isScalar()) return Value::scalar(a.scalarKind(), lane(a.bits(), b.bits(), c.bits()));
    std::vector<Scalar> lanes;
    for (int i = 0; i < a.width(); ++i) lanes.push_back(lane(a.lane(i), b.lane(i), c.lane(i)));
    return Value::vector(a.scalarKind(), lanes);
  }

  // ----- issue 17: search, early exit, filter and sort (lift17p) -----

  // A predicate's or comparison's result: an int, 0 false.
  bool truth(const ir::PatternNode& p, const Value& v, const ir::ExprNode* site) const {
    if (v.isScalar() && v.scalarKind() == ScalarKind::Int) return v.asInt() != 0;
    fail(InterpError::Kind::Shape, site,
         fmt::format("{}: the predicate must return an int, got {}", ir::patternName(p.pattern()),
                     describe(v)));
  }

  Value one(const Value& v) const {
    ArrayBuilder b(1);
    b.push(v);
    return b.finish();
  }

  // bSearch and lSearch exactly as the generated code runs them (Lift's BSearch and LSearch), so
  // that the element found in an array that is not sorted is the same: the binary search halves
  // [lo, hi) at mid = lo + (hi - lo) / 2; the linear one walks up while cmp > 0.
  Value search(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    expectArgs(args, 2, p, site);
    const Value& in = expectArray(args[1], p, site);
    auto cmp = [&](size_t i) {
      Value c = applyToElement(p.f(), nullptr, in, i, site);
      if (!c.isScalar() || c.scalarKind() != ScalarKind::Int)
        fail(InterpError::Kind::Shape, site,
             fmt::format("{}: the comparison must return an int, got {}", ir::patternName(p.pattern()),
                         describe(c)));
      return c.asInt();
    };
    if (p.pattern() == PatternKind::BSearch) {
      size_t lo = 0, hi = in.size();
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int32_t c = cmp(mid);
        if (c < 0)
          hi = mid;
        else if (c > 0)
          lo = mid + 1;
        else
          return one(in.at(mid));
      }
      return one(args[0]);
    }
    for (size_t i = 0; i < in.size(); ++i) {
      int32_t c = cmp(i);
      if (c < 0) break;
      if (c == 0) return one(in.at(i));
    }
    return one(args[0]);
  }

  // reduceWhileSeq(f, p, z): acc = f(acc, x) for the elements in order while p(acc, x) holds.
  Value reduceWhile(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    expectArgs(args, 2, p, site);
    const Value& in = expectArray(args[1], p, site);
    Value acc = args[0];
    for (size_t i = 0; i < in.size(); ++i) {
      if (!truth(p, applyToElement(p.params().funs.at(1), &acc, in, i, site), site)) break;
      acc = applyToElement(p.f(), &acc, in, i, site);
    }
    return one(acc);
  }

  // filterSeq(p): (the elements x with p(x) in order then the others in order, [count]).
  Value filterSeq(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    expectArgs(args, 1, p, site);
    const Value& in = expectArray(args[0], p, site);
    std::vector<size_t> kept, others;
    for (size_t i = 0; i < in.size(); ++i)
      (truth(p, applyToElement(p.f(), nullptr, in, i, site), site) ? kept : others).push_back(i);
    ArrayBuilder b(in.size());
    for (size_t i : kept) b.push(in.at(i));
    for (size_t i : others) b.push(in.at(i));
    return Value::tuple({b.finish(), one(Value::ofInt(static_cast<int32_t>(kept.size())))});
  }

  // insertionSortSeq(less): each element in turn moved down past the sorted ones it is less than
  // (stable: an equal one stays after).
  Value insertionSort(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    expectArgs(args, 1, p, site);
    const Value& in = expectArray(args[0], p, site);
    std::vector<Value> out;
    out.reserve(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      Value x = in.at(i);
      out.push_back(x);
      size_t j = i;
      for (; j > 0; --j) {
        Value pair[2] = {x, out[j - 1]};
        if (!truth(p, apply(p.f(), pair, site), site)) break;
        out[j] = out[j - 1];
      }
      out[j] = x;
    }
    ArrayBuilder b(out.size());
    for (auto& v : out) b.push(v);
    return b.finish();
  }

  // ----- end of issue 17 (lift17p) -----

  int64_t index(const ir::IndexFun& f, int64_t i, int64_t n, const ir::ExprNode* site) const {
    try {
      return indexFunction(f, i, n, sizes_);
    } catch (const LiftError& err) {
      fail(InterpError::Kind::Unbound, site, err.diagnostic().message);
    }
  }

  Value scatter(const ir::PatternNode& p, const Value& in, const ir::ExprNode* site) {
    expectArray(in, p, site);
    int64_t n = static_cast<int64_t>(in.size());
    checkIndexFun(p, p.params().indexFun, n, site);
    std::vector<std::optional<Value>> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = index(p.params().indexFun, i, n, site);
      if (j < 0 || j >= n)
        fail(InterpError::Kind::OutOfBounds, site,
             fmt::format("scatter: the index function maps {} to {}, outside the array of length {}", i, j,
                         n));
      if (out[static_cast<size_t>(j)])
        fail(InterpError::Kind::OutOfBounds, site, fmt::format("scatter: position {} is written twice", j));
      out[static_cast<size_t>(j)] = in.at(static_cast<size_t>(i));
    }
    ArrayBuilder b(static_cast<size_t>(n));
    for (auto& v : out) b.push(*v);  // n writes to n distinct positions: all are written
    return b.finish();
  }

  Value transpose(const ir::PatternNode& p, const Value& in, const ir::ExprNode* site) {
    expectArray(in, p, site);
    size_t rows = in.size();
    if (rows == 0) return in;
    Value first = in.at(0);
    if (!first.isArray())
      fail(InterpError::Kind::Shape, site,
           fmt::format("transpose expects a two-dimensional array, got {}", describe(in)));
    size_t cols = first.size();
    if (in.isFlat() && in.dims().size() >= 2) {
      // Move blocks of `inner` scalars: element (r, c) goes to (c, r).
      size_t inner = static_cast<size_t>(in.flatWidth());
      for (size_t d = 2; d < in.dims().size(); ++d) inner *= static_cast<size_t>(in.dims()[d]);
      auto src = in.flatData();
      std::vector<Scalar> data(src.size());
      for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c)
          std::copy_n(src.begin() + static_cast<std::ptrdiff_t>((r * cols + c) * inner), inner,
                      data.begin() + static_cast<std::ptrdiff_t>((c * rows + r) * inner));
      std::vector<int64_t> dims(in.dims().begin(), in.dims().end());
      std::swap(dims[0], dims[1]);
      return Value::flatArray(in.flatKind(), in.flatWidth(), std::move(dims), std::move(data));
    }
    std::vector<Value> rowsV;
    for (size_t r = 0; r < rows; ++r) {
      rowsV.push_back(in.at(r));
      if (!rowsV.back().isArray() || rowsV.back().size() != cols)
        fail(InterpError::Kind::Shape, site, "transpose of rows of different lengths");
    }
    ArrayBuilder outer(cols);
    for (size_t c = 0; c < cols; ++c) {
      ArrayBuilder col(rows);
      for (size_t r = 0; r < rows; ++r) col.push(rowsV[r].at(c));
      outer.push(col.finish());
    }
    return outer.finish();
  }

  Value pad(const ir::PatternNode& p, const Value& in, const ir::ExprNode* site) {
    expectArray(in, p, site);
    const auto& ps = p.params();
    int64_t l = size(ps.sizes.at(0), site), r = size(ps.sizes.at(1), site);
    int64_t n = static_cast<int64_t>(in.size());
    if (l < 0 || r < 0)
      fail(InterpError::Kind::Shape, site, fmt::format("pad: negative padding {}, {}", l, r));
    if (n == 0 && ps.padMode != ir::PadMode::Constant)
      fail(InterpError::Kind::Shape, site, "pad of an empty array has nothing to repeat");
    std::optional<Value> constant;
    if (ps.padMode == ir::PadMode::Constant) {
      Value e0 = in.at(0);
      ScalarKind k = e0.isVector() ? e0.scalarKind() : e0.isScalar() ? e0.scalarKind() : ScalarKind::Float;
      auto s = parseScalar(ps.padValue, k);
      if (!s || !(e0.isScalar() || e0.isVector()))
        fail(InterpError::Kind::Shape, site,
             fmt::format("pad: '{}' cannot pad elements of type {}", ps.padValue, describe(e0)));
      constant = e0.isVector() ? Value::filled(Type::vector(k, e0.width()), *s) : Value::scalar(k, *s);
    }
    ArrayBuilder b(static_cast<size_t>(n + l + r));
    for (int64_t j = 0; j < n + l + r; ++j) {
      int64_t src = j - l;
      if (src >= 0 && src < n) {
        b.push(in.at(static_cast<size_t>(src)));
        continue;
      }
      switch (ps.padMode) {
        case ir::PadMode::Constant:
          b.push(*constant);
          continue;
        case ir::PadMode::Clamp:
          src = src < 0 ? 0 : n - 1;
          break;
        case ir::PadMode::Wrap:
          src = ((src % n) + n) % n;
          break;
        case ir::PadMode::Mirror:
          // Lift's mirror: the edge element is repeated (..., x1, x0 | x0, x1, ...).
          if (src < 0) src = -1 - src;
          if (src >= n) src = 2 * n - 1 - src;
          if (src < 0 || src >= n)
            fail(InterpError::Kind::OutOfBounds, site,
                 fmt::format("pad mirror: padding {}, {} is more than the array's length {}", l, r, n));
          break;
      }
      b.push(in.at(static_cast<size_t>(src)));
    }
    return b.finish();
  }

  // md_hom(f, (⊛1, ..., ⊛d)) on the sub-array `a` of dimensions k+1..d (seed 001, Definition 6):
  // f at every point, the results combined along each dimension by its operator, outermost
  // first: ++ gives the array of the parts' results, an operator folds them from the left.
  Value mdHom(const ir::PatternNode& p, const Value& a, size_t k, const ir::ExprNode* site) {
    const auto& ps = p.params();
    if (k == ps.concat.size()) return apply(p.f(), Args(&a, 1), site);
    const Value& in = expectArray(a, p, site);
    if (ps.concat[k]) {
      ArrayBuilder b(in.size());
      for (size_t i = 0; i < in.size(); ++i) b.push(mdHom(p, in.at(i), k + 1, site));
      return b.finish();
    }
    if (in.size() == 0)
      fail(InterpError::Kind::Shape, site,
           fmt::format("md_hom: dimension {} is empty, and its combine operator has no neutral element",
                       k + 1));
    size_t op = 1, kept = 0;
    for (size_t j = 0; j < ps.concat.size(); ++j) {
      if (j < k && !ps.concat[j]) ++op;
      if (j > k && ps.concat[j]) ++kept;
    }
    Value acc = mdHom(p, in.at(0), k + 1, site);
    for (size_t i = 1; i < in.size(); ++i)
      acc = combine(ps.funs.at(op), acc, mdHom(p, in.at(i), k + 1, site), kept, site);
    return acc;
  }

  // x ⊛ y for partial results that keep `depth` dimensions (of ++): op applied point by point,
  // as the seed's element-wise vector (+_vec) and matrix (+_mat) addition for op = +.
  Value combine(const ir::Fun& op, const Value& x, const Value& y, size_t depth, const ir::ExprNode* site) {
    if (depth == 0) {
      std::array<Value, 2> xy{x, y};
      return apply(op, Args(xy.data(), 2), site);
    }
    if (!x.isArray() || !y.isArray() || x.size() != y.size())
      fail(InterpError::Kind::Shape, site,
           fmt::format("md_hom: cannot combine partial results {} and {}", describe(x), describe(y)));
    ArrayBuilder b(x.size());
    for (size_t i = 0; i < x.size(); ++i) b.push(combine(op, x.at(i), y.at(i), depth - 1, site));
    return b.finish();
  }

  // pair_vv, pair_mv and pair_mm (typing rules in PatternTypeRules.cpp).
  Value pairView(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    expectArgs(args, 2, p, site);
    const Value& a = expectArray(args[0], p, site);
    const Value& b = expectArray(args[1], p, site);
    auto pairs = [&](const Value& x, const Value& y) {
      if (x.size() != y.size())
        fail(InterpError::Kind::Shape, site,
             fmt::format("{}: pairing arrays of different lengths, {} and {}", ir::patternName(p.pattern()),
                         x.size(), y.size()));
      return Value::zip({x, y});
    };
    switch (p.pattern()) {
      case PatternKind::PairVV:
        return pairs(a, b);
      case PatternKind::PairMV: {
        ArrayBuilder rows(a.size());
        for (size_t i = 0; i < a.size(); ++i) rows.push(pairs(expectArray(a.at(i), p, site), b));
        return rows.finish();
      }
      default: {
        Value columns = transpose(p, b, site);
        ArrayBuilder rows(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
          Value row = expectArray(a.at(i), p, site);
          ArrayBuilder points(columns.size());
          for (size_t j = 0; j < columns.size(); ++j) points.push(pairs(row, columns.at(j)));
          rows.push(points.finish());
        }
        return rows.finish();
      }
    }
  }

  Value applyPattern(const ir::PatternNode& p, Args args, const ir::ExprNode* site) {
    const auto& ps = p.params();
    switch (p.pattern()) {
      case PatternKind::Map:
      case PatternKind::MapSeq:
      case PatternKind::MapSeqUnroll:
      case PatternKind::MapGlb:
      case PatternKind::MapWrg:
      case PatternKind::MapLcl:
      case PatternKind::MapWarp:
      case PatternKind::MapLane:
      case PatternKind::MapAtomWrg:
      case PatternKind::MapAtomLcl:
        expectArgs(args, 1, p, site);
        return map(p, args[0], site);
      case PatternKind::MapVec: {
        expectArgs(args, 1, p, site);
        if (!args[0].isVector())
          fail(InterpError::Kind::Shape, site,
               fmt::format("mapVec expects a vector, got {}", describe(args[0])));
        return mapLanes(p, args, args[0].width(), site);
      }
      case PatternKind::Vectorize: {
        int64_t w = size(ps.sizes.at(0), site);
        if (!isVectorWidth(w))
          fail(InterpError::Kind::Shape, site, fmt::format("vectorize: invalid width {}", w));
        return mapLanes(p, args, static_cast<int>(w), site);
      }
      case PatternKind::Reduce:
      case PatternKind::ReduceSeq:
      case PatternKind::ReduceSeqUnroll: {
        expectArgs(args, 2, p, site);
        const Value& in = expectArray(args[1], p, site);
        ArrayBuilder b(1);
        b.push(fold(p, args[0], in, 0, in.size(), site));
        return b.finish();
      }
      case PatternKind::Scan:
      case PatternKind::ScanSeq: {
        // Exclusive: element i is the fold of the initial value with the elements before i.
        expectArgs(args, 2, p, site);
        const Value& in = expectArray(args[1], p, site);
        ArrayBuilder b(in.size());
        Value acc = args[0];
        for (size_t i = 0; i < in.size(); ++i) {
          b.push(acc);
          acc = applyToElement(p.f(), &acc, in, i, site);
        }
        return b.finish();
      }
      case PatternKind::PartRed: {
        expectArgs(args, 2, p, site);
        const Value& in = expectArray(args[1], p, site);
        int64_t m = size(ps.sizes.at(0), site);
        int64_t n = static_cast<int64_t>(in.size());
        if (m <= 0 || n % m != 0)
          fail(InterpError::Kind::Shape, site,
               fmt::format("partRed {} of an array of length {}: {} is not divisible by {}", m, n, n, m));
        ArrayBuilder b(static_cast<size_t>(n / m));
        for (int64_t part = 0; part < n / m; ++part)
          b.push(
              fold(p, args[0], in, static_cast<size_t>(part * m), static_cast<size_t>((part + 1) * m), site));
        return b.finish();
      }
      case PatternKind::Zip: {
        if (args.size() < 2) fail(InterpError::Kind::Shape, site, "zip needs at least two arrays");
        size_t n = 0;
        for (size_t i = 0; i < args.size(); ++i) {
          expectArray(args[i], p, site);
          if (i == 0) n = args[i].size();
          if (args[i].size() != n)
            fail(InterpError::Kind::Shape, site,
                 fmt::format("zip of arrays of different lengths: {} and {}", n, args[i].size()));
        }
        return Value::zip(std::vector<Value>(args.begin(), args.end()));
      }
      case PatternKind::Unzip: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        if (in.isZip()) {
          auto parts = in.zipComponents();
          return Value::tuple(std::vector<Value>(parts.begin(), parts.end()));
        }
        if (in.size() == 0) fail(InterpError::Kind::Shape, site, "unzip of an empty array");
        size_t arity = in.at(0).size();
        if (!in.at(0).isTuple())
          fail(InterpError::Kind::Shape, site,
               fmt::format("unzip expects an array of tuples, got {}", describe(in)));
        std::vector<ArrayBuilder> parts(arity, ArrayBuilder(in.size()));
        for (size_t j = 0; j < in.size(); ++j) {
          Value t = in.at(j);
          for (size_t c = 0; c < arity; ++c) parts[c].push(t.at(c));
        }
        std::vector<Value> arrays;
        for (auto& b : parts) arrays.push_back(b.finish());
        return Value::tuple(std::move(arrays));
      }
      case PatternKind::Split: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        int64_t m = size(ps.sizes.at(0), site), n = static_cast<int64_t>(in.size());
        if (m <= 0 || n % m != 0)
          fail(InterpError::Kind::Shape, site,
               fmt::format("split {} of an array of length {}: {} is not divisible by {}", m, n, n, m));
        if (in.isFlat()) {
          std::vector<int64_t> dims{n / m, m};
          dims.insert(dims.end(), in.dims().begin() + 1, in.dims().end());
          return in.reshaped(std::move(dims), in.flatWidth());
        }
        ArrayBuilder outer(static_cast<size_t>(n / m));
        for (int64_t c = 0; c < n / m; ++c) {
          ArrayBuilder chunk(static_cast<size_t>(m));
          for (int64_t i = 0; i < m; ++i) chunk.push(in.at(static_cast<size_t>(c * m + i)));
          outer.push(chunk.finish());
        }
        return outer.finish();
      }
      case PatternKind::Join: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        if (in.isFlat() && in.dims().size() >= 2) {
          std::vector<int64_t> dims{in.dims()[0] * in.dims()[1]};
          dims.insert(dims.end(), in.dims().begin() + 2, in.dims().end());
          return in.reshaped(std::move(dims), in.flatWidth());
        }
        ArrayBuilder b;
        for (size_t i = 0; i < in.size(); ++i) {
          Value row = in.at(i);
          if (!row.isArray())
            fail(InterpError::Kind::Shape, site,
                 fmt::format("join expects an array of arrays, got {}", describe(in)));
          for (size_t j = 0; j < row.size(); ++j) b.push(row.at(j));
        }
        return b.finish();
      }
      case PatternKind::Transpose:
      case PatternKind::TransposeW:
        expectArgs(args, 1, p, site);
        return transpose(p, args[0], site);
      case PatternKind::Head:
      case PatternKind::Tail: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        if (in.size() == 0)
          fail(InterpError::Kind::Shape, site,
               fmt::format("{} of an empty array", ir::patternName(p.pattern())));
        bool head = p.pattern() == PatternKind::Head;
        ArrayBuilder b(head ? 1 : in.size() - 1);
        for (size_t i = head ? 0 : 1; i < (head ? 1 : in.size()); ++i) b.push(in.at(i));
        return b.finish();
      }
      case PatternKind::At:
      case PatternKind::CheckedAt: {
        expectArgs(args, p.pattern() == PatternKind::At ? 2 : 3, p, site);
        const Value& in = expectArray(args[0], p, site);
        int64_t i = indexValue(p, args[1], site);
        if (i >= 0 && i < static_cast<int64_t>(in.size())) return in.at(static_cast<size_t>(i));
        if (p.pattern() == PatternKind::CheckedAt) return args[2];
        fail(InterpError::Kind::OutOfBounds, site,
             fmt::format("at: index {} outside the array of length {}", i, in.size()));
      }
      case PatternKind::Filter: {
        expectArgs(args, 2, p, site);
        const Value& in = expectArray(args[0], p, site);
        const Value& ids = expectArray(args[1], p, site);
        ArrayBuilder b(ids.size());
        for (size_t j = 0; j < ids.size(); ++j) {
          int64_t i = indexValue(p, ids.at(j), site);
          if (i < 0 || i >= static_cast<int64_t>(in.size()))
            fail(InterpError::Kind::OutOfBounds, site,
                 fmt::format("filter: index {} (at position {}) outside the array of length {}", i, j,
                             in.size()));
          b.push(in.at(static_cast<size_t>(i)));
        }
        return b.finish();
      }
      case PatternKind::Gather:
        expectArgs(args, 1, p, site);
        return gather(p, ps.indexFun, args[0], site);
      case PatternKind::ReorderStride:
        expectArgs(args, 1, p, site);
        return gather(p, ir::IndexFun{ir::IndexFun::Kind::ReorderStride, ps.sizes.at(0), {}}, args[0], site);
      case PatternKind::Scatter:
        expectArgs(args, 1, p, site);
        return scatter(p, args[0], site);
      case PatternKind::Slide:
        expectArgs(args, 1, p, site);
        return slide(p, args[0], site);
      // ----- issue 16: MapSeqSlide: the meaning of map(f) o slide(size, step) -----
      case PatternKind::MapSeqSlide:
        expectArgs(args, 1, p, site);
        return map(p, slide(p, args[0], site), site);
      // ----- issue 16: the array generators, every element computed from its indices -----
      case PatternKind::ArrayFromValue: {
        expectArgs(args, 1, p, site);
        int64_t n = size(ps.sizes.at(0), site);
        ArrayBuilder b(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) b.push(args[0]);
        return b.finish();
      }
      case PatternKind::ArrayFromGenerator: {
        expectArgs(args, 0, p, site);
        int64_t n = size(ps.sizes.at(0), site);
        ArrayBuilder b(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
          b.push(Value::ofInt(static_cast<int32_t>(
              size(arith::substitute(ps.sizes.at(2), {{ps.sizes.at(1), arith::cst(i)}}), site))));
        return b.finish();
      }
      case PatternKind::ArrayFromUserFun:
      case PatternKind::Array2DFromUserFun:
      case PatternKind::Array3DFromUserFun: {
        expectArgs(args, 0, p, site);
        size_t dims = static_cast<size_t>(ir::generatorDims(p.pattern()));
        std::vector<Value> fArgs(2 * dims);
        for (size_t d = 0; d < dims; ++d)
          fArgs[dims + d] = Value::ofInt(static_cast<int32_t>(size(ps.sizes.at(d), site)));
        std::function<Value(size_t)> level = [&](size_t d) {
          int64_t n = size(ps.sizes.at(d), site);
          ArrayBuilder b(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) {
            fArgs[d] = Value::ofInt(static_cast<int32_t>(i));
            b.push(d + 1 == dims ? apply(p.f(), Args(fArgs.data(), fArgs.size()), site) : level(d + 1));
          }
          return b.finish();
        };
        return level(0);
      }
      case PatternKind::Pad:
        expectArgs(args, 1, p, site);
        return pad(p, args[0], site);
      case PatternKind::Iterate: {
        expectArgs(args, 1, p, site);
        int64_t n = size(ps.sizes.at(0), site);
        if (n < 0) fail(InterpError::Kind::Shape, site, fmt::format("iterate: negative count {}", n));
        Value cur = args[0];
        for (int64_t i = 0; i < n; ++i) cur = apply(p.f(), Args(&cur, 1), site);
        return cur;
      }
      case PatternKind::Get: {
        expectArgs(args, 1, p, site);
        if (!(args[0].isTuple() || args[0].isArray()) || ps.index < 0 ||
            static_cast<size_t>(ps.index) >= args[0].size())
          fail(InterpError::Kind::Shape, site, fmt::format("get {} of {}", ps.index, describe(args[0])));
        return args[0].at(static_cast<size_t>(ps.index));
      }
      case PatternKind::Tuple:
        return Value::tuple(std::vector<Value>(args.begin(), args.end()));
      case PatternKind::Id:
        expectArgs(args, 1, p, site);
        return args[0];
      case PatternKind::AsVector: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        int64_t w = size(ps.sizes.at(0), site), n = static_cast<int64_t>(in.size());
        if (!isVectorWidth(w))
          fail(InterpError::Kind::Shape, site, fmt::format("asVector {}: invalid width", w));
        if (!in.isFlat() || in.dims().size() != 1 || in.flatWidth() != 1)
          fail(InterpError::Kind::Shape, site,
               fmt::format("asVector {} needs an array of scalars, got {}", w, describe(in)));
        if (n % w != 0)
          fail(InterpError::Kind::Shape, site,
               fmt::format("asVector {} of an array of length {}: {} is not divisible by {}", w, n, n, w));
        return in.reshaped({n / w}, static_cast<int>(w));
      }
      case PatternKind::AsScalar: {
        expectArgs(args, 1, p, site);
        const Value& in = expectArray(args[0], p, site);
        if (!in.isFlat() || in.dims().size() != 1 || in.flatWidth() == 1)
          fail(InterpError::Kind::Shape, site,
               fmt::format("asScalar needs an array of vectors, got {}", describe(in)));
        return in.reshaped({in.dims()[0] * in.flatWidth()}, 1);
      }
      case PatternKind::ToGlobal:
      case PatternKind::ToLocal:
      case PatternKind::ToPrivate:
      case PatternKind::Let:
        return apply(p.f(), args, site);
      case PatternKind::Fma:
        expectArgs(args, 3, p, site);
        return fma(args, site);
      // issue 17 (lift17p)
      case PatternKind::BSearch:
      case PatternKind::LSearch:
        return search(p, args, site);
      case PatternKind::ReduceWhileSeq:
        return reduceWhile(p, args, site);
      case PatternKind::FilterSeq:
        return filterSeq(p, args, site);
      case PatternKind::InsertionSort:
        return insertionSort(p, args, site);
      case PatternKind::Dot: {
        expectArgs(args, 2, p, site);
        const Value &a = args[0], &b = args[1];
        if (!a.isVector() || !b.isVector() || a.width() != b.width() || a.scalarKind() != b.scalarKind() ||
            (a.scalarKind() != ScalarKind::Float && a.scalarKind() != ScalarKind::Double))
          fail(InterpError::Kind::Shape, site,
               fmt::format("dot expects two float vectors of one width, got {} and {}", describe(a),
                           describe(b)));
        if (a.scalarKind() == ScalarKind::Float) {
          float s = 0;
          for (int i = 0; i < a.width(); ++i) s += a.lane(i).f * b.lane(i).f;
          return Value::ofFloat(s);
        }
        double s = 0;
        for (int i = 0; i < a.width(); ++i) s += a.lane(i).d * b.lane(i).d;
        return Value::ofDouble(s);
      }
      case PatternKind::MdHom:
        expectArgs(args, 1, p, site);
        return mdHom(p, args[0], 0, site);
      case PatternKind::PairVV:
      case PatternKind::PairMV:
      case PatternKind::PairMM:
        return pairView(p, args, site);
    }
    fail(InterpError::Kind::Shape, site, "unknown pattern");
  }

  const arith::Env& sizes_;
  const ir::Program* program_;
  const InterpOptions& opts_;
  std::vector<std::pair<const ir::ParamNode*, Value>> env_;  // the bound parameters, innermost last
  uint64_t applications_ = 0;
  std::unordered_map<const ir::LiteralNode*, Value> literals_;
  std::unordered_map<const ir::UserFunDef*, UserFunPlan> plans_;
  std::vector<std::shared_ptr<const cfun::Body>> parsedBodies_;  // bodies of definitions built without one
  // Scratch buffers of user-function calls (which never re-enter the interpreter).
  std::vector<Scalar> slots_, result_;
  std::vector<Value> spread_;
};

}  // namespace

namespace {

// Whether every element of v (not only the first of each array) has the shape of t.
bool conforms(const Value& v, Type t) {
  switch (t.kind()) {
    case Type::Kind::Scalar:
      return v.isScalar() && v.scalarKind() == t.scalarKind();
    case Type::Kind::Vector:
      return v.isVector() && v.scalarKind() == t.scalarKind() && v.width() == t.vectorWidth();
    case Type::Kind::Tuple: {
      if (!v.isTuple() || v.size() != t.tupleElems().size()) return false;
      for (size_t i = 0; i < v.size(); ++i)
        if (!conforms(v.at(i), t.tupleElems()[i])) return false;
      return true;
    }
    case Type::Kind::Array:
      break;
  }
  if (!v.isArray() || static_cast<int64_t>(v.size()) != t.length().value()) return false;
  if (v.isFlat()) return v.type() == t;
  for (size_t i = 0; i < v.size(); ++i)
    if (!conforms(v.at(i), t.elem())) return false;
  return true;
}

}  // namespace

void checkInputs(const ir::Program& p, const std::vector<Value>& inputs, const arith::Env& sizes) {
  const auto& params = p.main->params();
  auto inputError = [&](const ir::Param& where, const std::string& message) {
    throw InterpError(InterpError::Kind::Input,
                      where ? p.diagnosticAt(where->id(), message)
                            : Diagnostic{Diagnostic::Severity::Error, SourceLoc{p.file, 0, 0}, message, ""});
  };
  if (inputs.size() != params.size())
    inputError(nullptr, fmt::format("the program '{}' takes {} input{}, but {} were given", p.name,
                                    params.size(), params.size() == 1 ? "" : "s", inputs.size()));
  for (size_t i = 0; i < params.size(); ++i) {
    Type declared = params[i]->declaredType();
    if (!declared) continue;
    Type expected;
    try {
      expected = concreteType(declared, sizes);
    } catch (const LiftError& err) {
      inputError(params[i], fmt::format("input '{}' of type {}: {}", params[i]->name(), declared.toString(),
                                        err.diagnostic().message));
    }
    Type actual = inputs[i].type();
    if (actual != expected || !conforms(inputs[i], expected))
      inputError(params[i],
                 fmt::format("input '{}' has type {}, but its declared type {} is {} at these sizes",
                             params[i]->name(), actual.toString(), declared.toString(), expected.toString()));
  }
}

Value interpret(const ir::Program& p, const std::vector<Value>& inputs, const arith::Env& sizes,
                const InterpOptions& opts) {
  LIFT_ASSERT(p.main, "program without a main function");
  checkInputs(p, inputs, sizes);
  Interpreter it(sizes, &p, opts);
  return it.apply(p.main, inputs, nullptr);
}

Value applyFunction(const ir::Fun& f, const std::vector<Value>& args, const arith::Env& sizes,
                    const ir::Program* context, const InterpOptions& opts) {
  Interpreter it(sizes, context, opts);
  return it.apply(f, args, nullptr);
}

}  // namespace lift::interp
