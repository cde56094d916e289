// Printing ArithExprs with minimal parentheses, in two spellings. toString's text parses back
// (with `parse`, or `parse(..., raw=true)` for raw trees) to the same node: "16*wg_id + l_id",
// "i - 1", "(a + b)/c", "-(x/2)", "min(a, b)", "floor(i/4)", "lookup({3, 1}, i)". toOpenCL's
// is OpenCL C with int semantics (floor, ceil, abs and lookup spelled with / % max and ?:, pow
// as a shift or pown).
#include <fmt/format.h>

#include "core/arith/Node.h"

namespace lift::arith {
using namespace detail;

namespace {

// Precedence levels: a sub-expression is parenthesised when its level is below the context's.
constexpr int kTernary = 5;     // a < b ? t : e
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
    case Kind::Ite:
      return kTernary;
    default:
      return kPrimary;
  }
}

const char* cmpText(Cmp c) {
  switch (c) {
    case Cmp::Lt:
      return " < ";
    case Cmp::Le:
      return " <= ";
    case Cmp::Eq:
      return " == ";
    case Cmp::Ne:
      return " != ";
    case Cmp::Gt:
      return " > ";
    case Cmp::Ge:
      return " >= ";
  }
  return " ? ";
}

class Printer {
 public:
  explicit Printer(bool opencl) : opencl_(opencl) {}
  std::string out;

  void print(Expr e, int ctx) {
    bool paren = precedence(e) < ctx;
    if (paren) out += '(';
    body(e);
    if (paren) out += ')';
  }

 private:
  bool opencl_;

  // floor(n/d) or ceil(n/d) in OpenCL C: the truncated quotient corrected by one where the
  // remainder is non-zero and the exact quotient lies below (floor) or above (ceil) it.
  void quotientOpenCL(Expr n, Expr d, bool floor) {
    out += '(';
    print(n, kMul);
    out += '/';
    print(d, kUnary);
    out += floor ? " - (" : " + (";
    print(n, kMul);
    out += '%';
    print(d, kUnary);
    if (provablyPositive(d)) {
      out += floor ? " < 0))" : " > 0))";
      return;
    }
    if (provablyNegative(d)) {
      out += floor ? " > 0))" : " < 0))";
      return;
    }
    out += " != 0 && (";
    print(n, kAdd);
    out += floor ? " < 0) != (" : " < 0) == (";
    print(d, kAdd);
    out += " < 0)))";
  }

  // pow(b, e) in OpenCL C, whose pow takes floating-point arguments only (an int call is
  // ambiguous): a shift for a power of two (`8/pow(2, I)` of an iterate's halving lengths),
  // otherwise pown rounded back to int (exact while the power fits a float's 24 bits).
  void powOpenCL(Expr b, Expr e) {
    if (b.isCst() && b->value >= 2 && (b->value & (b->value - 1)) == 0) {
      int shift = 0;
      while ((int64_t{1} << shift) < b->value) ++shift;
      out += "(1 << ";
      if (shift > 1) out += fmt::format("{}*", shift);
      print(e, shift > 1 ? kUnary : kAdd);
      out += ')';
      return;
    }
    out += "((int)round(pown((float)";
    print(b, kUnary);
    out += ", ";
    print(e, 0);
    out += ")))";
  }

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
      case Kind::Pow:
        if (opencl_) {
          powOpenCL(n->ops[0], n->ops[1]);
          return;
        }
        [[fallthrough]];
      case Kind::Min:
      case Kind::Max:
        out += n->kind == Kind::Min ? "min(" : n->kind == Kind::Max ? "max(" : "pow(";
        print(n->ops[0], 0);
        out += ", ";
        print(n->ops[1], 0);
        out += ')';
        return;
      case Kind::Floor:
      case Kind::Ceil:
        if (opencl_) {
          quotientOpenCL(n->ops[0], n->ops[1], n->kind == Kind::Floor);
          return;
        }
        out += n->kind == Kind::Floor ? "floor(" : "ceil(";
        print(n->ops[0], kMul);
        out += '/';
        print(n->ops[1], kUnary);
        out += ')';
        return;
      case Kind::Abs:
        if (opencl_) {  // OpenCL's abs returns an unsigned type
          out += "max(";
          print(n->ops[0], 0);
          out += ", -";
          print(n->ops[0], kUnary);
          out += ')';
          return;
        }
        out += "abs(";
        print(n->ops[0], 0);
        out += ')';
        return;
      case Kind::Ite:
        print(n->ops[0], kAdd);
        out += cmpText(static_cast<Cmp>(n->value));
        print(n->ops[1], kAdd);
        out += " ? ";
        print(n->ops[2], kAdd);
        out += " : ";
        print(n->ops[3], kTernary);
        return;
      case Kind::Lookup:
        if (opencl_) {
          out += '(';
          for (uint32_t i = 1; i + 1 < n->nOps; ++i) {
            print(n->ops[0], kAdd);
            out += fmt::format(" == {} ? {} : ", i - 1, n->ops[i]->value);
          }
          out += fmt::format("{})", n->ops[n->nOps - 1]->value);
          return;
        }
        out += "lookup({";
        for (uint32_t i = 1; i < n->nOps; ++i)
          out += fmt::format("{}{}", i > 1 ? ", " : "", n->ops[i]->value);
        out += "}, ";
        print(n->ops[0], 0);
        out += ')';
        return;
    }
  }
};

}  // namespace

std::string toString(Expr e) {
  if (!e) return "<null>";
  Printer p(false);
  p.print(e, 0);
  return p.out;
}

std::string toOpenCL(Expr e) {
  if (!e) return "<null>";
  Printer p(true);
  p.print(e, 0);
  return p.out;
}

}  // namespace lift::arith
