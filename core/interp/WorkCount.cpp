// Work counts of programs (see WorkCount.h): user-function bodies costed from their syntax
// trees, applications counted over the concretely typed program.
#include "core/interp/WorkCount.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunBuiltins.h"
#include "core/interp/Interpreter.h"
#include "core/interp/Sizes.h"
#include "core/ir/TypeCheck.h"

namespace lift::interp {

namespace {

// ----- user-function bodies ------------------------------------------------------------------

struct Cost {
  double flops = 0;
  double intOps = 0;

  Cost& operator+=(const Cost& o) {
    flops += o.flops;
    intOps += o.intOps;
    return *this;
  }
  Cost operator*(double k) const { return {flops * k, intOps * k}; }
  bool operator==(const Cost&) const = default;
  double total() const { return flops + intOps; }
};

bool isFloating(ScalarKind k) { return k == ScalarKind::Float || k == ScalarKind::Double; }

// `n` operations on values of kind k.
Cost ops(ScalarKind k, double n) { return isFloating(k) ? Cost{n, 0} : Cost{0, n}; }

// Lanes of a scalar or vector node (tuples have none: nothing arithmetic happens on them).
double lanes(const cfun::Expr& e) { return e.width; }

class BodyCounter {
 public:
  explicit BodyCounter(const cfun::Body& body) : body_(body) {}

  BodyWork count() {
    Cost c = stmt(*body_.block);
    BodyWork w;
    w.flops = c.flops;
    w.intOps = c.intOps;
    w.exact = inexact_.empty();
    w.inexactReason = inexact_;
    return w;
  }

 private:
  void inexact(cfun::Loc loc, const std::string& why) {
    if (inexact_.empty())
      inexact_ = loc.line ? fmt::format("{} at {}:{} of the body", why, loc.line, loc.col) : why;
  }

  Cost builtin(const cfun::Expr& e) {
    using cfun::BuiltinFn;
    const cfun::Expr& first = *e.operands.at(0);
    double w = std::max(1.0, lanes(first));
    ScalarKind k = first.scalar;
    switch (e.builtin->fn) {
      case BuiltinFn::Mad:
      case BuiltinFn::Fma:
      case BuiltinFn::Clamp:
        return ops(k, 2 * w);
      case BuiltinFn::Mix:
        return ops(k, 3 * w);
      case BuiltinFn::Dot:
        return ops(k, 2 * w - 1);
      case BuiltinFn::Length:
        return ops(k, 2 * w);
      case BuiltinFn::Distance:
      case BuiltinFn::Normalize:
        return ops(k, 3 * w);
      case BuiltinFn::Cross:
        return ops(k, 9);
      case BuiltinFn::Isnan:
      case BuiltinFn::Isinf:
      case BuiltinFn::Isfinite:
      case BuiltinFn::Signbit:
        return {};
      default:
        return ops(k, w);
    }
  }

  Cost expr(const cfun::Expr& e) {
    using K = cfun::Expr::Kind;
    Cost c;
    if (e.kind == K::Cond) {
      c += expr(*e.operands[0]);
      Cost a = expr(*e.operands[1]), b = expr(*e.operands[2]);
      if (!(a == b)) inexact(e.loc, "a conditional expression with branches of different cost");
      c += a.total() >= b.total() ? a : b;
      return c;
    }
    for (auto& o : e.operands)
      if (o) c += expr(*o);
    switch (e.kind) {
      case K::Unary:
        if (e.unaryOp == cfun::UnaryOp::BitNot) c += ops(e.scalar, lanes(e));
        break;
      case K::Binary: {
        if (e.binaryOp == cfun::BinaryOp::LogAnd || e.binaryOp == cfun::BinaryOp::LogOr) break;
        const cfun::Expr& lhs = *e.operands[0];
        c += ops(lhs.scalar, std::max(1.0, lanes(lhs)));
        break;
      }
      case K::Call:
        c += builtin(e);
        break;
      default:
        break;
    }
    return c;
  }

  // The value of an int literal, possibly behind conversions.
  static std::optional<int64_t> intLiteral(const cfun::Expr* e) {
    while (e && e->kind == cfun::Expr::Kind::Convert && !e->operands.empty()) e = e->operands[0].get();
    if (!e || e->kind != cfun::Expr::Kind::Literal || e->scalar != ScalarKind::Int || e->width != 1)
      return std::nullopt;
    return e->value.i;
  }

  static int varOf(const cfun::Expr* e) {
    while (e && e->kind == cfun::Expr::Kind::Convert && !e->operands.empty()) e = e->operands[0].get();
    return e && e->kind == cfun::Expr::Kind::Var ? e->var : -1;
  }

  // Whether `s` assigns variable v, or leaves its loop early (break, return).
  static bool disturbs(const cfun::Stmt& s, int v) {
    using S = cfun::Stmt::Kind;
    if (s.kind == S::Break || s.kind == S::Return) return true;
    if (s.kind == S::Assign && varOf(s.exprs[0].get()) == v) return true;
    for (auto& b : s.body)
      if (b && disturbs(*b, v)) return true;
    return false;
  }

  // Trip count of `for (v = a; v OP b; v STEP c)` with int literals a, b, c and a body that
  // neither assigns v nor leaves the loop early.
  static std::optional<double> tripCount(const cfun::Stmt& s) {
    const cfun::Stmt* init = s.body[0].get();
    if (init && init->kind == cfun::Stmt::Kind::Block && init->body.size() == 1) init = init->body[0].get();
    if (!init || !s.exprs[0] || !s.body[1]) return std::nullopt;
    int v = -1;
    std::optional<int64_t> start;
    if (init->kind == cfun::Stmt::Kind::Decl && !init->exprs.empty()) {
      v = init->var;
      start = intLiteral(init->exprs[0].get());
    } else if (init->kind == cfun::Stmt::Kind::Assign && init->assignOp == cfun::AssignOp::Set) {
      v = varOf(init->exprs[0].get());
      start = intLiteral(init->exprs[2].get());
    }
    if (v < 0 || !start) return std::nullopt;
    const cfun::Expr* c = s.exprs[0].get();
    while (c->kind == cfun::Expr::Kind::Convert && !c->operands.empty()) c = c->operands[0].get();
    const cfun::Expr& cond = *c;
    if (cond.kind != cfun::Expr::Kind::Binary || varOf(cond.operands[0].get()) != v) return std::nullopt;
    std::optional<int64_t> bound = intLiteral(cond.operands[1].get());
    if (!bound) return std::nullopt;
    const cfun::Stmt& step = *s.body[1];
    if (step.kind != cfun::Stmt::Kind::Assign || varOf(step.exprs[0].get()) != v) return std::nullopt;
    int64_t inc = 0;
    switch (step.assignOp) {
      case cfun::AssignOp::Inc:
        inc = 1;
        break;
      case cfun::AssignOp::Dec:
        inc = -1;
        break;
      case cfun::AssignOp::Add:
      case cfun::AssignOp::Sub: {
        auto amount = intLiteral(step.exprs[1].get());
        if (!amount) return std::nullopt;
        inc = step.assignOp == cfun::AssignOp::Add ? *amount : -*amount;
        break;
      }
      default:
        return std::nullopt;
    }
    if (inc == 0 || disturbs(*s.body[2], v)) return std::nullopt;
    int64_t a = *start, b = *bound;
    auto ceilDiv = [](int64_t x, int64_t y) { return x <= 0 ? 0 : (x + y - 1) / y; };
    switch (cond.binaryOp) {
      case cfun::BinaryOp::Lt:
        return inc > 0 ? std::optional<double>(ceilDiv(b - a, inc))
                       : (a < b ? std::nullopt : std::optional(0.0));
      case cfun::BinaryOp::Le:
        return inc > 0 ? std::optional<double>(ceilDiv(b - a + 1, inc))
                       : (a <= b ? std::nullopt : std::optional(0.0));
      case cfun::BinaryOp::Gt:
        return inc < 0 ? std::optional<double>(ceilDiv(a - b, -inc))
                       : (a > b ? std::nullopt : std::optional(0.0));
      case cfun::BinaryOp::Ge:
        return inc < 0 ? std::optional<double>(ceilDiv(a - b + 1, -inc))
                       : (a >= b ? std::nullopt : std::optional(0.0));
      case cfun::BinaryOp::Ne:
        if ((b - a) % inc == 0 && (b - a) / inc >= 0) return static_cast<double>((b - a) / inc);
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  Cost stmt(const cfun::Stmt& s) {
    using S = cfun::Stmt::Kind;
    Cost c;
    switch (s.kind) {
      case S::Block:
        for (auto& b : s.body)
          if (b) c += stmt(*b);
        return c;
      case S::Decl:
      case S::Expr:
      case S::Return:
        if (!s.exprs.empty() && s.exprs[0]) c += expr(*s.exprs[0]);
        return c;
      case S::Assign:
        // exprs[2] is the value stored: for `x += y` the addition itself.
        if (s.exprs.size() > 2 && s.exprs[2]) c += expr(*s.exprs[2]);
        return c;
      case S::If: {
        c += expr(*s.exprs[0]);
        Cost a = s.body[0] ? stmt(*s.body[0]) : Cost{};
        Cost b = s.body.size() > 1 && s.body[1] ? stmt(*s.body[1]) : Cost{};
        if (!(a == b)) inexact(s.loc, "an if with branches of different cost");
        c += a.total() >= b.total() ? a : b;
        return c;
      }
      case S::For: {
        if (s.body[0]) c += stmt(*s.body[0]);
        Cost cond = s.exprs[0] ? expr(*s.exprs[0]) : Cost{};
        Cost iteration = cond;
        iteration += stmt(*s.body[2]);
        if (s.body[1]) iteration += stmt(*s.body[1]);
        std::optional<double> trips = tripCount(s);
        if (!trips) inexact(s.loc, "a loop whose trip count is not a constant (costed as one iteration)");
        c += iteration * trips.value_or(1);
        c += cond;  // the test that ends the loop
        return c;
      }
      case S::While:
        inexact(s.loc, "a while loop (costed as one iteration)");
        c += expr(*s.exprs[0]);
        c += expr(*s.exprs[0]);
        c += stmt(*s.body[0]);
        return c;
      case S::Break:
      case S::Continue:
        return c;
    }
    return c;
  }

  const cfun::Body& body_;
  std::string inexact_;
};

// ----- the program ---------------------------------------------------------------------------

int64_t evalSize(const arith::Expr& e, const arith::Env& sizes) { return arith::evaluate(e, sizes); }

// Copies a program with fresh nodes, every iterate(n, f) unrolled into n fresh copies of f: the
// type checker types each lambda at its one use, and the iterations of an iterate see arrays
// of different lengths (the dot example's iterate halves its array six times).
class Unroller {
 public:
  explicit Unroller(const arith::Env& sizes) : sizes_(sizes) {}

  ir::Expr expr(const ir::Expr& e) {
    switch (e->kind()) {
      case ir::ExprNode::Kind::Literal: {
        auto* l = ir::asLiteral(e);
        return ir::LiteralNode::make(l->text(), l->type());
      }
      case ir::ExprNode::Kind::Param: {
        auto it = rename_.find(ir::asParam(e));
        return it != rename_.end() ? it->second : e;
      }
      case ir::ExprNode::Kind::Call:
        break;
    }
    auto* c = ir::asCall(e);
    std::vector<ir::Expr> args;
    for (auto& a : c->args()) args.push_back(expr(a));
    if (auto* p = ir::asPattern(c->fun());
        p && p->pattern() == ir::PatternKind::Iterate && args.size() == 1) {
      ir::Expr cur = args[0];
      for (int64_t i = 0, n = iterations(*p); i < n; ++i) cur = ir::CallNode::make(fun(p->f()), {cur});
      return cur;
    }
    return ir::CallNode::make(fun(c->fun()), std::move(args));
  }

  ir::Fun fun(const ir::Fun& f) {
    if (auto* l = ir::asLambda(f)) {
      std::vector<ir::Param> params;
      for (auto& p : l->params()) {
        params.push_back(ir::ParamNode::make(p->name(), p->declaredType()));
        rename_[p.get()] = params.back();
      }
      return ir::LambdaNode::make(std::move(params), expr(l->body()));
    }
    if (auto* p = ir::asPattern(f)) {
      if (p->pattern() == ir::PatternKind::Iterate) {
        // Used as a value (map(iterate(2, f))): fun(x => f(f(x))).
        ir::Param x = ir::ParamNode::make("x");
        ir::Expr cur = x;
        for (int64_t i = 0, n = iterations(*p); i < n; ++i) cur = ir::CallNode::make(fun(p->f()), {cur});
        return ir::LambdaNode::make({x}, cur);
      }
      ir::PatternNode::Params params = p->params();
      for (auto& g : params.funs) g = fun(g);
      return ir::PatternNode::make(p->pattern(), std::move(params));
    }
    return f;  // user functions are shared as they are
  }

 private:
  int64_t iterations(const ir::PatternNode& p) {
    int64_t n = evalSize(p.size(0), sizes_);
    copies_ += std::max<int64_t>(n, 0);
    if (copies_ > kMaxCopies)
      throw LiftError(
          fmt::format("work count: the program iterates more than {} times; too many to count", kMaxCopies));
    return n;
  }

  static constexpr int64_t kMaxCopies = 100'000;
  const arith::Env& sizes_;
  std::unordered_map<const ir::ParamNode*, ir::Expr> rename_;
  int64_t copies_ = 0;
};

int64_t lengthOf(Type t, const arith::Env& sizes) {
  return t && t.isArray() ? evalSize(t.length(), sizes) : 0;
}

class ProgramCounter {
 public:
  ProgramCounter(const ir::TypeInfo& info, const arith::Env& sizes, WorkCount& out)
      : info_(info), sizes_(sizes), out_(out) {}

  void expr(const ir::Expr& e, double mult) {
    auto* c = ir::asCall(e);
    if (!c) return;
    std::vector<Type> argTypes;
    for (auto& a : c->args()) {
      expr(a, mult);
      argTypes.push_back(info_.typeOf(a));
    }
    apply(c->fun(), argTypes, mult);
  }

  void apply(const ir::Fun& f, const std::vector<Type>& argTypes, double mult, double lanesPerCall = 1) {
    if (mult <= 0) return;
    out_.applications += mult;
    if (auto* u = ir::asUserFun(f)) {
      userFun(u->def(), mult * lanesPerCall);
      return;
    }
    if (auto* l = ir::asLambda(f)) {
      expr(l->body(), mult);
      return;
    }
    auto* p = ir::asPattern(f);
    if (!p) return;
    using PK = ir::PatternKind;
    auto arrayArg = [&](size_t i) { return i < argTypes.size() ? argTypes[i] : Type(); };
    switch (p->pattern()) {
      case PK::Map:
      case PK::MapGlb:
      case PK::MapWrg:
      case PK::MapLcl:
      case PK::MapWarp:
      case PK::MapLane:
      case PK::MapAtomWrg:
      case PK::MapAtomLcl:
      case PK::MapSeq:
      case PK::MapSeqUnroll: {
        Type in = arrayArg(0);
        if (!in || !in.isArray()) return;
        apply(p->f(), {in.elem()}, mult * static_cast<double>(lengthOf(in, sizes_)));
        return;
      }
      // ----- issue 16: MapSeqSlide: f once per window -----
      case PK::MapSeqSlide: {
        Type in = arrayArg(0);
        if (!in || !in.isArray()) return;
        double n = static_cast<double>(lengthOf(in, sizes_));
        double size = static_cast<double>(evalSize(p->size(0), sizes_));
        double step = static_cast<double>(evalSize(p->size(1), sizes_));
        double windows = step > 0 && n >= size ? std::floor((n - size + step) / step) : 0;
        apply(p->f(), {Type::array(in.elem(), p->size(0))}, mult * windows);
        return;
      }
      // ----- issue 16: a user function generator, f once per element -----
      case PK::ArrayFromUserFun:
      case PK::Array2DFromUserFun:
      case PK::Array3DFromUserFun: {
        double elements = 1;
        for (const arith::Expr& n : p->params().sizes) elements *= static_cast<double>(evalSize(n, sizes_));
        apply(p->f(), std::vector<Type>(2 * p->params().sizes.size(), Type::scalar(ScalarKind::Int)),
              mult * elements);
        return;
      }
      case PK::MapVec: {
        Type in = arrayArg(0);
        if (!in || !in.isVector()) return;
        apply(p->f(), {Type::scalar(in.scalarKind())}, mult * in.vectorWidth());
        return;
      }
      case PK::Vectorize: {
        // The scalar function on every lane: one application, width lanes of work.
        double w = static_cast<double>(evalSize(p->size(0), sizes_));
        apply(p->f(), argTypes, mult, w);
        return;
      }
      case PK::Reduce:
      case PK::ReduceSeq:
      case PK::ReduceSeqUnroll:
      case PK::PartRed:
      case PK::Scan:
      case PK::ScanSeq: {
        Type init = arrayArg(0), in = arrayArg(1);
        if (!in || !in.isArray()) return;
        apply(p->f(), {init, in.elem()}, mult * static_cast<double>(lengthOf(in, sizes_)));
        return;
      }
      case PK::ToGlobal:
      case PK::ToLocal:
      case PK::ToPrivate:
      case PK::Let:
        apply(p->f(), argTypes, mult);
        return;
      // ----- issue 17 (lift17p): data-dependent loops, costed at their longest run -----
      case PK::BSearch:
      case PK::LSearch: {
        Type in = arrayArg(1);
        if (!in || !in.isArray()) return;
        double n = static_cast<double>(lengthOf(in, sizes_));
        double steps = p->pattern() == PK::LSearch ? n : std::ceil(std::log2(n + 1));
        apply(p->f(), {in.elem()}, mult * steps);
        noteInexact("a search costed at its longest run");
        return;
      }
      case PK::ReduceWhileSeq: {
        Type init = arrayArg(0), in = arrayArg(1);
        if (!in || !in.isArray() || p->params().funs.size() != 2) return;
        double n = static_cast<double>(lengthOf(in, sizes_));
        apply(p->params().funs[1], {init, in.elem()}, mult * n);
        apply(p->f(), {init, in.elem()}, mult * n);
        noteInexact("reduceWhileSeq costed as if it never stopped early");
        return;
      }
      case PK::FilterSeq: {
        // The generated code evaluates the predicate twice per element (kept, then the others).
        Type in = arrayArg(0);
        if (!in || !in.isArray()) return;
        apply(p->f(), {in.elem()}, mult * 2.0 * static_cast<double>(lengthOf(in, sizes_)));
        return;
      }
      case PK::InsertionSort: {
        Type in = arrayArg(0);
        if (!in || !in.isArray()) return;
        double n = static_cast<double>(lengthOf(in, sizes_));
        apply(p->f(), {in.elem(), in.elem()}, mult * n * std::max(n - 1, 0.0) / 2);
        noteInexact("insertionSortSeq costed at its longest run (a reversed input)");
        return;
      }
      // ----- end of issue 17 (lift17p) -----
      case PK::Fma: {
        Type a = arrayArg(0);
        if (a && (a.isScalar() || a.isVector()) && isFloating(a.scalarKind()))
          out_.flops += mult * 2.0 * (a.isVector() ? a.vectorWidth() : 1);
        return;
      }
      case PK::Iterate: {
        // Only reached if an iterate survived unrolling (it cannot): cost the first iteration.
        for (int64_t i = 0, n = evalSize(p->size(0), sizes_); i < n; ++i) apply(p->f(), argTypes, mult);
        noteInexact("an iterate costed at its first iteration's types");
        return;
      }
      case PK::MdHom: {
        // f at every point; the operator of reduced dimension k once per pair of neighbouring
        // parts of that dimension, point by point over the dimensions kept inside it.
        const auto& concat = p->params().concat;
        std::vector<double> n;
        Type t = arrayArg(0);
        for (size_t k = 0; k < concat.size() && t && t.isArray(); ++k, t = t.elem())
          n.push_back(static_cast<double>(lengthOf(t, sizes_)));
        if (n.size() != concat.size()) return;
        double points = 1;
        for (double len : n) points *= len;
        apply(p->f(), {t}, mult * points);
        const ir::FunType* ft = info_.funTypeOf(p->f());
        size_t op = 1;
        for (size_t k = 0; k < concat.size(); ++k) {
          if (concat[k]) continue;
          double combines = std::max(n[k] - 1, 0.0);
          for (size_t j = 0; j < concat.size(); ++j)
            if (j < k || (j > k && concat[j])) combines *= n[j];
          if (ft) apply(p->params().funs.at(op), {ft->output, ft->output}, mult * combines);
          ++op;
        }
        return;
      }
      case PK::Dot: {
        Type a = arrayArg(0);
        if (a && a.isVector() && isFloating(a.scalarKind())) out_.flops += mult * (2.0 * a.vectorWidth() - 1);
        return;
      }
      default:
        return;  // data layout: no arithmetic
    }
  }

 private:
  void noteInexact(const std::string& why) {
    if (out_.exact) out_.inexactReason = why;
    out_.exact = false;
  }

  void userFun(const ir::UserFunDef& def, double calls) {
    auto [it, inserted] = bodies_.try_emplace(&def);
    if (inserted) {
      it->second.work = def.body ? countBodyWork(*def.body) : BodyWork{};
      it->second.index = out_.functions.size();
      out_.functions.push_back(FunctionWork{def.name, 0, it->second.work.flops, it->second.work.intOps});
      if (!it->second.work.exact)
        noteInexact(fmt::format("user function {}: {}", def.name, it->second.work.inexactReason));
    }
    const BodyWork& w = it->second.work;
    out_.functions[it->second.index].calls += calls;
    out_.userFunCalls += calls;
    out_.flops += calls * w.flops;
    out_.intOps += calls * w.intOps;
  }

  struct Costed {
    BodyWork work;
    size_t index = 0;
  };
  const ir::TypeInfo& info_;
  const arith::Env& sizes_;
  WorkCount& out_;
  std::unordered_map<const ir::UserFunDef*, Costed> bodies_;
};

double bytesOf(Type t, const arith::Env& sizes) {
  if (!t) return 0;
  return static_cast<double>(evalSize(t.byteSize(), sizes));
}

}  // namespace

BodyWork countBodyWork(const cfun::Body& body) { return BodyCounter(body).count(); }

WorkCount countWork(const ir::Program& p, const arith::Env& sizes) {
  if (auto problem = sizeProblem(p, sizes)) throw LiftError(*problem);
  ir::Program specialized = specialize(p, sizes);
  ir::Program unrolled = specialized;
  Unroller unroller(sizes);
  unrolled.main = std::static_pointer_cast<const ir::LambdaNode>(unroller.fun(specialized.main));
  ir::TypeCheckOptions opts;
  opts.checkParallelNesting = false;  // unrolled iterations are lambdas the nesting rules do not expect
  ir::TypeInfo info = ir::typeCheck(unrolled, opts);

  WorkCount w;
  ProgramCounter counter(info, sizes, w);
  w.applications = 1;  // the program itself
  counter.expr(unrolled.main->body(), 1);
  for (Type t : info.paramTypes) w.bytesRead += bytesOf(t, sizes);
  w.bytesWritten = bytesOf(info.resultType, sizes);
  return w;
}

std::string siPrefixed(double value, const std::string& unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  double v = value;
  size_t i = 0;
  while (std::fabs(v) >= 1000 && i + 1 < std::size(prefixes)) {
    v /= 1000;
    ++i;
  }
  if (i == 0 && v == std::floor(v)) return fmt::format("{:.0f} {}", v, unit);
  return fmt::format("{:.4g} {}{}", v, prefixes[i], unit);
}

std::string WorkCount::summary() const {
  std::string s = fmt::format("{}, {} moved", siPrefixed(flops, "FLOP"), siPrefixed(bytes(), "B"));
  if (bytes() > 0) s += fmt::format(", {:.3g} flop/byte", intensity());
  if (!exact) s += " (an estimate: " + inexactReason + ")";
  return s;
}

}  // namespace lift::interp
