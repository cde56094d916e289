// Printing ArithExprs as OpenCL C with minimal parentheses. The text parses back (with
// `parse`, or `parse(..., raw=true)` for raw trees) to the same node: "16*wg_id + l_id",
// "i - 1", "(a + b)/c", "-(x/2)", "min(a, b)".
#include <fmt/format.h>

#include "core/arith/Node.h"

namespace lift::arith {
using namespace detail;

namespace {

// Precedence levels: a sub-expression is parenthesised when its level is below the context's.
constexpr int kAdd = 10;        // a + b
constexpr int kAddRight = 11;   // right operand of + and - (left associative)
constexpr int kMul = 20;        // a*b, a/b, a%b
constexpr int kLeadMinus = 25;  // "-a", "-2*a": parenthesised as a right operand, "x*(-a)"
constexpr int kUnary = 30;      // operand of unary minus, right operand of * / %
constexpr int kPrimary = 40;

bool leadingCst(Expr e) { return e.kind() == Kind::Prod && e->nOps >= 2 && e->ops[0].isCst(); }

int precedence(Expr e) {
  switch (e.kind()) {
    case Kind::Cst:
      return e->value < 0 ? kLeadMinus : kPrimary;
    case Kind::Sum:
      return kAdd;
    case Kind::Prod:
      return leadingCst(e) && e->ops[0]->value < 0 ? kLeadMinus : kMul;
    case Kind::Div:
    case Kind::Mod:
      return kMul;
    default:
      return kPrimary;
  }
}

class Printer {
 public:
  std::string out;

  void print(Expr e, int ctx) {
    bool paren = precedence(e) < ctx;
    if (paren) out += '(';
    body(e);
    if (paren) out += ')';
  }

 private:
  void factors(std::span<const Expr> fs, int firstCtx) {
    for (size_t i = 0; i < fs.size(); ++i) {
      if (i) out += '*';
      print(fs[i], i == 0 ? firstCtx : kUnary);
    }
  }

  // A sum term printed as " - abs": a negative constant, or a product with a negative leading
  // constant whose absolute value reads back the same way (see parse: binary minus folds the
  // sign into a literal or a leading constant).
  static bool negativeTerm(Expr t) {
    if (t.isCst()) return t->value < 0 && t->value != INT64_MIN;
    if (!leadingCst(t)) return false;
    int64_t c = t->ops[0]->value;
    if (c >= 0 || c == INT64_MIN) return false;
    if (c == -1 && t->nOps == 2) {
      Expr r = t->ops[1];
      if (r.isCst() || leadingCst(r)) return false;
    }
    return true;
  }

  void absTerm(Expr t) {
    if (t.isCst()) {
      out += fmt::format("{}", -t->value);
      return;
    }
    int64_t c = -t->ops[0]->value;
    std::span<const Expr> rest(t->ops + 1, t->nOps - 1);
    if (c == 1) {
      if (rest.size() == 1)
        print(rest[0], kAddRight);
      else
        factors(rest, kMul);
      return;
    }
    out += fmt::format("{}*", c);
    factors(rest, kUnary);
  }

  void body(Expr e) {
    const Node* n = e.node();
    switch (n->kind) {
      case Kind::Cst:
        out += fmt::format("{}", n->value);
        return;
      case Kind::Var:
        out += *n->name;
        return;
      case Kind::Sum:
        for (uint32_t i = 0; i < n->nOps; ++i) {
          Expr t = n->ops[i];
          if (i == 0) {
            print(t, kAdd);
          } else if (negativeTerm(t)) {
            out += " - ";
            absTerm(t);
          } else {
            out += " + ";
            print(t, kAddRight);
          }
        }
        return;
      case Kind::Prod: {
        std::span<const Expr> ops(n->ops, n->nOps);
        if (ops[0].isCst() && ops[0]->value == -1) {
          out += '-';
          factors(ops.subspan(1), kUnary);
        } else {
          factors(ops, kMul);
        }
        return;
      }
      case Kind::Div:
      case Kind::Mod:
        print(n->ops[0], kMul);
        out += n->kind == Kind::Div ? '/' : '%';
        print(n->ops[1], kUnary);
        return;
      case Kind::Min:
      case Kind::Max:
      case Kind::Pow:
        out += n->kind == Kind::Min ? "min(" : n->kind == Kind::Max ? "max(" : "pow(";
        print(n->ops[0], 0);
        out += ", ";
        print(n->ops[1], 0);
        out += ')';
        return;
    }
  }
};

}  // namespace

std::string toString(Expr e) {
  if (!e) return "<null>";
  Printer p;
  p.print(e, 0);
  return p.out;
}

}  // namespace lift::arith
