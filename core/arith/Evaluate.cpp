// Evaluation of an expression on concrete values with C semantics (truncating / and %),
// checked for division by zero and for 64-bit overflow.
#include <fmt/format.h>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

[[noreturn]] void overflow(Expr e) {
  throw LiftError(fmt::format("integer overflow evaluating '{}'", toString(e)));
}

int64_t eval(Expr e, const Env& env) {
  const Node* n = e.node();
  switch (n->kind) {
    case Kind::Cst:
      return n->value;
    case Kind::Var: {
      auto it = env.find(*n->name);
      if (it == env.end()) throw LiftError(fmt::format("no value for variable '{}'", *n->name));
      return it->second;
    }
    case Kind::Sum: {
      int64_t r = 0;
      for (Expr o : e.operands())
        if (__builtin_add_overflow(r, eval(o, env), &r)) overflow(e);
      return r;
    }
    case Kind::Prod: {
      int64_t r = 1;
      for (Expr o : e.operands())
        if (__builtin_mul_overflow(r, eval(o, env), &r)) overflow(e);
      return r;
    }
    case Kind::Div:
    case Kind::Mod: {
      int64_t a = eval(n->ops[0], env), b = eval(n->ops[1], env);
      if (b == 0) throw LiftError(fmt::format("division by zero evaluating '{}'", toString(e)));
      if (a == INT64_MIN && b == -1) {
        if (n->kind == Kind::Mod) return 0;
        overflow(e);
      }
      return n->kind == Kind::Div ? a / b : a % b;
    }
    case Kind::Pow: {
      int64_t b = eval(n->ops[0], env), x = eval(n->ops[1], env);
      if (x < 0 && b == 0) throw LiftError(fmt::format("division by zero evaluating '{}'", toString(e)));
      int64_t r = 1;
      if (x >= 0) {
        for (int64_t i = 0; i < x; ++i) {
          if (__builtin_mul_overflow(r, b, &r)) overflow(e);
          if (r == 0 || r == 1) break;
          if (r == -1) return (x - i - 1) % 2 == 0 ? -1 : 1;
        }
        return r;
      }
      return *foldPow(b, x);
    }
    case Kind::Min:
      return std::min(eval(n->ops[0], env), eval(n->ops[1], env));
    case Kind::Max:
      return std::max(eval(n->ops[0], env), eval(n->ops[1], env));
    case Kind::Floor:
    case Kind::Ceil: {
      int64_t a = eval(n->ops[0], env), b = eval(n->ops[1], env);
      if (b == 0) throw LiftError(fmt::format("division by zero evaluating '{}'", toString(e)));
      auto q = n->kind == Kind::Floor ? floorQuotient(a, b) : ceilQuotient(a, b);
      if (!q) overflow(e);
      return *q;
    }
    case Kind::Abs: {
      int64_t a = eval(n->ops[0], env);
      if (a == INT64_MIN) overflow(e);
      return a < 0 ? -a : a;
    }
    case Kind::Ite: {
      bool holds = compareValues(static_cast<Cmp>(n->value), eval(n->ops[0], env), eval(n->ops[1], env));
      return eval(n->ops[holds ? 2 : 3], env);  // only the selected branch, as C's ?:
    }
    case Kind::Lookup: {
      int64_t i = eval(n->ops[0], env);
      if (i < 0 || i >= static_cast<int64_t>(n->nOps) - 1)
        throw LiftError(fmt::format("lookup index {} outside the table of {} entries evaluating '{}'", i,
                                    n->nOps - 1, toString(e)));
      return n->ops[i + 1]->value;
    }
  }
  return 0;
}

}  // namespace

int64_t evaluate(Expr e, const Env& env) {
  LIFT_ASSERT(e, "evaluate of a null expression");
  return eval(e, env);
}

}  // namespace lift::arith
