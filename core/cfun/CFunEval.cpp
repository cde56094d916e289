// The evaluator of user-function bodies: a tree walk over the typed AST writing into a frame
// of scalar slots laid out by the parser.
#include "core/cfun/CFunEval.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/cfun/CFunBuiltins.h"

namespace lift::cfun {

Scalar convertScalar(Scalar v, ScalarKind from, ScalarKind to) {
  Scalar r{};
  if (from == to) return v;
  auto toInt = [](double x) -> int32_t {
    if (std::isnan(x)) return 0;
    if (x >= 2147483647.0) return std::numeric_limits<int32_t>::max();
    if (x <= -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(x);  // truncation toward zero
  };
  switch (from) {
    case ScalarKind::Float:
      switch (to) {
        case ScalarKind::Double:
          r.d = v.f;
          break;
        case ScalarKind::Int:
          r.i = toInt(v.f);
          break;
        case ScalarKind::Bool:
          r.b = v.f != 0.0f;
          break;
        case ScalarKind::Float:
          break;
      }
      break;
    case ScalarKind::Double:
      switch (to) {
        case ScalarKind::Float:
          r.f = static_cast<float>(v.d);
          break;
        case ScalarKind::Int:
          r.i = toInt(v.d);
          break;
        case ScalarKind::Bool:
          r.b = v.d != 0.0;
          break;
        case ScalarKind::Double:
          break;
      }
      break;
    case ScalarKind::Int:
      switch (to) {
        case ScalarKind::Float:
          r.f = static_cast<float>(v.i);
          break;
        case ScalarKind::Double:
          r.d = v.i;
          break;
        case ScalarKind::Bool:
          r.b = v.i != 0;
          break;
        case ScalarKind::Int:
          break;
      }
      break;
    case ScalarKind::Bool:
      switch (to) {
        case ScalarKind::Float:
          r.f = v.b ? 1.0f : 0.0f;
          break;
        case ScalarKind::Double:
          r.d = v.b ? 1.0 : 0.0;
          break;
        case ScalarKind::Int:
          r.i = v.b ? 1 : 0;
          break;
        case ScalarKind::Bool:
          break;
      }
      break;
  }
  return r;
}

namespace {

int32_t wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

class Evaluator {
 public:
  Evaluator(const Body& b, Scalar* frame, const EvalLimits& limits) : b_(b), frame_(frame), limits_(limits) {}

  enum class Flow { Normal, Break, Continue, Return };

  Flow exec(const Stmt& s) {
    tick(s.loc);
    switch (s.kind) {
      case Stmt::Kind::Block:
        for (auto& st : s.body) {
          Flow f = exec(*st);
          if (f != Flow::Normal) return f;
        }
        return Flow::Normal;
      case Stmt::Kind::Decl: {
        const Variable& v = b_.vars[s.var];
        uint32_t n = v.numSlots;
        if (s.exprs.empty()) {
          for (uint32_t i = 0; i < n; ++i) frame_[v.slot + i] = Scalar{};
        } else {
          const Scalar* val = eval(*s.exprs[0]);
          std::copy(val, val + n, frame_ + v.slot);
        }
        return Flow::Normal;
      }
      case Stmt::Kind::Assign: {
        const Scalar* val = eval(*s.exprs[2]);
        // Copy first: the value may alias the target (v.xy = v.yx).
        std::array<Scalar, 64> tmp;
        std::vector<Scalar> big;
        Scalar* buf = tmp.data();
        if (s.targetSlots.size() > tmp.size()) {
          big.resize(s.targetSlots.size());
          buf = big.data();
        }
        std::copy(val, val + s.targetSlots.size(), buf);
        for (size_t i = 0; i < s.targetSlots.size(); ++i) frame_[s.targetSlots[i]] = buf[i];
        return Flow::Normal;
      }
      case Stmt::Kind::Expr:
        eval(*s.exprs[0]);
        return Flow::Normal;
      case Stmt::Kind::If:
        if (eval(*s.exprs[0])->b) return exec(*s.body[0]);
        if (s.body.size() > 1 && s.body[1]) return exec(*s.body[1]);
        return Flow::Normal;
      case Stmt::Kind::For: {
        if (s.body[0]) exec(*s.body[0]);
        while (!s.exprs[0] || eval(*s.exprs[0])->b) {
          tick(s.loc);
          Flow f = exec(*s.body[2]);
          if (f == Flow::Return) return f;
          if (f == Flow::Break) break;
          if (s.body[1]) exec(*s.body[1]);
        }
        return Flow::Normal;
      }
      case Stmt::Kind::While:
        while (eval(*s.exprs[0])->b) {
          tick(s.loc);
          Flow f = exec(*s.body[0]);
          if (f == Flow::Return) return f;
          if (f == Flow::Break) break;
        }
        return Flow::Normal;
      case Stmt::Kind::Return: {
        const Scalar* val = eval(*s.exprs[0]);
        result_ = val;
        return Flow::Return;
      }
      case Stmt::Kind::Break:
        return Flow::Break;
      case Stmt::Kind::Continue:
        return Flow::Continue;
    }
    return Flow::Normal;
  }

  const Scalar* result() const { return result_; }

 private:
  void tick(Loc loc) {
    if (++steps_ > limits_.maxSteps)
      throw LiftError(
          bodyDiagnostic(b_.file, b_.text, b_.start, loc,
                         fmt::format("the user function did not finish within {} steps (an endless loop?)",
                                     limits_.maxSteps)));
  }

  [[noreturn]] void fail(Loc loc, std::string message) const {
    throw LiftError(bodyDiagnostic(b_.file, b_.text, b_.start, loc, std::move(message)));
  }

  Scalar* out(const Expr& e) { return frame_ + e.slot; }

  const Scalar* eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Literal:
        *out(e) = e.value;
        return out(e);
      case Expr::Kind::Var:
        return frame_ + e.slot;
      case Expr::Kind::Unary:
        return unary(e);
      case Expr::Kind::Binary:
        return binary(e);
      case Expr::Kind::Cond: {
        const Scalar* v = eval(*e.operands[0])->b ? eval(*e.operands[1]) : eval(*e.operands[2]);
        std::copy(v, v + e.numSlots, out(e));
        return out(e);
      }
      case Expr::Kind::Call: {
        std::array<const Scalar*, 3> args{};
        std::array<Type, 3> types{};
        size_t n = e.operands.size();
        for (size_t i = 0; i < n; ++i) {
          args[i] = eval(*e.operands[i]);
          types[i] = e.operands[i]->type;
        }
        evalBuiltin(*e.builtin, std::span<const Type>(types.data(), n), e.type,
                    std::span<const Scalar* const>(args.data(), n), out(e));
        return out(e);
      }
      case Expr::Kind::Component: {
        const Scalar* v = eval(*e.operands[0]);
        Scalar* o = out(e);
        for (size_t i = 0; i < e.lanes.size(); ++i) o[i] = v[e.lanes[i]];
        return o;
      }
      case Expr::Kind::Field:
        return eval(*e.operands[0]) + e.offset;
      case Expr::Kind::VectorCons: {
        Scalar* o = out(e);
        if (e.operands.size() == 1 && e.operands[0]->type.isScalar()) {
          Scalar v = *eval(*e.operands[0]);
          for (int i = 0; i < e.width; ++i) o[i] = v;
          return o;
        }
        [[fallthrough]];
      }
      case Expr::Kind::TupleCons: {
        Scalar* o = out(e);
        for (auto& op : e.operands) {
          const Scalar* v = eval(*op);
          std::copy(v, v + op->numSlots, o);
          o += op->numSlots;
        }
        return out(e);
      }
      case Expr::Kind::Convert:
        return convert(e);
    }
    LIFT_ASSERT(false, "unknown expression kind");
  }

  const Scalar* convert(const Expr& e) {
    const Expr& from = *e.operands[0];
    const Scalar* v = eval(from);
    Scalar* o = out(e);
    if (from.type == e.type) {
      std::copy(v, v + e.numSlots, o);
      return o;
    }
    ScalarKind fk = from.scalar, tk = e.scalar;
    int n = e.width;
    if (from.width == 1) {
      Scalar c = convertScalar(*v, fk, tk);
      for (int i = 0; i < n; ++i) o[i] = c;
    } else {
      for (int i = 0; i < n; ++i) o[i] = convertScalar(v[i], fk, tk);
    }
    return o;
  }

  const Scalar* unary(const Expr& e) {
    const Scalar* v = eval(*e.operands[0]);
    Scalar* o = out(e);
    if (e.unaryOp == UnaryOp::Not) {
      o->i = v->b ? 0 : 1;
      return o;
    }
    int n = e.width;
    ScalarKind k = e.scalar;
    for (int i = 0; i < n; ++i) {
      switch (e.unaryOp) {
        case UnaryOp::Plus:
          o[i] = v[i];
          break;
        case UnaryOp::Neg:
          if (k == ScalarKind::Float)
            o[i].f = -v[i].f;
          else if (k == ScalarKind::Double)
            o[i].d = -v[i].d;
          else
            o[i].i = wrap(-static_cast<int64_t>(v[i].i));
          break;
        case UnaryOp::BitNot:
          o[i].i = ~v[i].i;
          break;
        case UnaryOp::Not:
          break;
      }
    }
    return o;
  }

  template <class T>
  static bool compare(BinaryOp op, T a, T b) {
    switch (op) {
      case BinaryOp::Lt:
        return a < b;
      case BinaryOp::Le:
        return a <= b;
      case BinaryOp::Gt:
        return a > b;
      case BinaryOp::Ge:
        return a >= b;
      case BinaryOp::Eq:
        return a == b;
      case BinaryOp::Ne:
        return a != b;
      default:
        return false;
    }
  }

  template <class T>
  static T arith(BinaryOp op, T a, T b) {
    switch (op) {
      case BinaryOp::Add:
        return a + b;
      case BinaryOp::Sub:
        return a - b;
      case BinaryOp::Mul:
        return a * b;
      case BinaryOp::Div:
        return a / b;
      default:
        return T(0);
    }
  }

  int32_t intOp(const Expr& e, int32_t a, int32_t b) const {
    switch (e.binaryOp) {
      case BinaryOp::Add:
        return wrap(int64_t(a) + b);
      case BinaryOp::Sub:
        return wrap(int64_t(a) - b);
      case BinaryOp::Mul:
        return wrap(int64_t(a) * b);
      case BinaryOp::Div:
      case BinaryOp::Mod:
        if (b == 0)
          fail(e.loc, e.binaryOp == BinaryOp::Div ? "integer division by zero" : "integer remainder by zero");
        if (a == std::numeric_limits<int32_t>::min() && b == -1)
          fail(e.loc, fmt::format("integer overflow: {} {} -1", a, e.binaryOp == BinaryOp::Div ? "/" : "%"));
        return e.binaryOp == BinaryOp::Div ? a / b : a % b;
      case BinaryOp::Shl:
        return static_cast<int32_t>(static_cast<uint32_t>(a) << (b & 31));
      case BinaryOp::Shr:
        return a >> (b & 31);
      case BinaryOp::BitAnd:
        return a & b;
      case BinaryOp::BitOr:
        return a | b;
      case BinaryOp::BitXor:
        return a ^ b;
      default:
        return 0;
    }
  }

  const Scalar* binary(const Expr& e) {
    Scalar* o = out(e);
    if (e.binaryOp == BinaryOp::LogAnd || e.binaryOp == BinaryOp::LogOr) {
      bool a = eval(*e.operands[0])->b;
      bool r =
          e.binaryOp == BinaryOp::LogAnd ? (a && eval(*e.operands[1])->b) : (a || eval(*e.operands[1])->b);
      o->i = r ? 1 : 0;
      return o;
    }
    const Scalar* a = eval(*e.operands[0]);
    const Scalar* b = eval(*e.operands[1]);
    const Expr& operand = *e.operands[0];
    int n = operand.width;
    ScalarKind k = operand.scalar;
    bool cmp = e.binaryOp >= BinaryOp::Lt && e.binaryOp <= BinaryOp::Ne;
    int32_t truth = n > 1 ? -1 : 1;  // OpenCL: vector comparisons give -1 for true
    for (int i = 0; i < n; ++i) {
      switch (k) {
        case ScalarKind::Float:
          if (cmp)
            o[i].i = compare(e.binaryOp, a[i].f, b[i].f) ? truth : 0;
          else
            o[i].f = arith(e.binaryOp, a[i].f, b[i].f);
          break;
        case ScalarKind::Double:
          if (cmp)
            o[i].i = compare(e.binaryOp, a[i].d, b[i].d) ? truth : 0;
          else
            o[i].d = arith(e.binaryOp, a[i].d, b[i].d);
          break;
        case ScalarKind::Int:
          if (cmp)
            o[i].i = compare(e.binaryOp, a[i].i, b[i].i) ? truth : 0;
          else
            o[i].i = intOp(e, a[i].i, b[i].i);
          break;
        case ScalarKind::Bool:  // operands are promoted to int; kept for completeness
          if (cmp)
            o[i].i = compare(e.binaryOp, a[i].b, b[i].b) ? truth : 0;
          else
            o[i].i = intOp(e, a[i].b, b[i].b);
          break;
      }
    }
    return o;
  }

  const Body& b_;
  Scalar* frame_;
  const EvalLimits& limits_;
  uint64_t steps_ = 0;
  const Scalar* result_ = nullptr;
};

}  // namespace

void evaluate(const Body& body, std::span<const Scalar> args, std::span<Scalar> result,
              const EvalLimits& limits) {
  LIFT_ASSERT(
      args.size() == body.paramSlots,
      fmt::format("user function called with {} argument slots, expects {}", args.size(), body.paramSlots));
  uint32_t resultSlots = body.resultSlots;
  LIFT_ASSERT(result.size() == resultSlots, "result buffer has the wrong size");
  // Small frames live on the stack: most bodies need a few dozen slots.
  std::array<Scalar, 256> small;
  std::vector<Scalar> large;
  Scalar* frame = small.data();
  if (body.frameSize > small.size()) {
    large.resize(body.frameSize);
    frame = large.data();
  }
  std::copy(args.begin(), args.end(), frame);
  Evaluator ev(body, frame, limits);
  ev.exec(*body.block);
  LIFT_ASSERT(ev.result(), "the parser guarantees a return on every path");
  std::copy(ev.result(), ev.result() + resultSlots, result.begin());
}

}  // namespace lift::cfun
