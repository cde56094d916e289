// Parser for C-like integer expressions (liftc simplify, tests, the GUI's index view): integer
// literals, identifiers, + - * / % with C precedence, unary minus, parentheses, min, max, pow,
// abs, floor and ceil of a quotient, lookup in a constant table, and `a < b ? t : e`.
// Errors are LiftErrors whose location is the 1-based line and column of the problem.
#include <fmt/format.h>

#include <cstring>
#include <optional>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

constexpr int kMaxNesting = 200;      // parentheses, unary operators and calls
constexpr uint32_t kMaxDepth = 2000;  // depth of the built tree (long raw chains)

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

class Parser {
 public:
  Parser(const std::string& text, const std::map<std::string, Expr>& vars, const std::string& file, bool raw)
      : text_(text), vars_(vars), file_(file), raw_(raw) {}

  Expr run() {
    Expr e = expression();
    skipSpace();
    if (pos_ < text_.size()) unexpected();
    return e;
  }

 private:
  const std::string& text_;
  const std::map<std::string, Expr>& vars_;
  const std::string& file_;
  bool raw_;
  bool exactDivisions_ = false;  // in floor's or ceil's argument: raw / is not folded
  size_t pos_ = 0;
  int nesting_ = 0;

  [[noreturn]] void fail(size_t offset, const std::string& msg) {
    auto [line, col] = lineColOf(text_, offset);
    throw LiftError(makeDiagnostic(file_, text_, line, col, msg));
  }

  [[noreturn]] void unexpected() {
    if (pos_ >= text_.size()) fail(pos_, "unexpected end of expression");
    char c = text_[pos_];
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127)
      fail(pos_, fmt::format("unexpected character (byte 0x{:02x})", static_cast<unsigned char>(c)));
    fail(pos_, fmt::format("unexpected '{}'", c));
  }

  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool peek(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  Expr checkDepth(Expr e, size_t at) {
    if (e->depth > kMaxDepth) fail(at, "expression is nested too deeply");
    return e;
  }

  // Runs a constructor, reporting its errors (division by zero found by simplification) at
  // the operator.
  template <typename F>
  Expr build(size_t at, F&& f) {
    try {
      return checkDepth(f(), at);
    } catch (const LiftError& e) {
      if (e.diagnostic().loc.known()) throw;
      fail(at, e.diagnostic().message);
    }
  }

  // -t as binary minus reads it: the sign folds into a literal or a leading constant, so that
  // "a - 2*b" is a + (-2)*b (raw mode; simplified mode negates through the constructors).
  Expr negateTerm(Expr t) {
    if (t.isCst()) {
      if (auto v = checkedNeg(t->value)) return cst(*v);
    } else if (t.kind() == Kind::Prod && t->nOps == 2 && t->ops[0].isCst()) {
      if (auto v = checkedNeg(t->ops[0]->value)) return intern2(Kind::Prod, cst(*v), t->ops[1]);
    }
    return rawMul(cst(-1), t);
  }

  // The comparison at pos_, consumed; nullopt (nothing consumed) when there is none.
  std::optional<Cmp> comparison() {
    skipSpace();
    auto at = [&](const char* op) { return text_.compare(pos_, std::strlen(op), op) == 0; };
    static const std::pair<const char*, Cmp> kOps[] = {{"<=", Cmp::Le}, {">=", Cmp::Ge}, {"==", Cmp::Eq},
                                                       {"!=", Cmp::Ne}, {"<", Cmp::Lt},  {">", Cmp::Gt}};
    for (auto& [text, cmp] : kOps)
      if (at(text)) {
        pos_ += std::strlen(text);
        return cmp;
      }
    return std::nullopt;
  }

  // `a cmp b ? t : e` (the lowest precedence, right associative as in C) or an additive
  // expression.
  Expr expression() {
    Expr lhs = additive();
    skipSpace();
    size_t at = pos_;
    auto cmp = comparison();
    if (!cmp) {
      if (peek('?')) fail(pos_, "expected a comparison before '?'");
      return lhs;
    }
    if (++nesting_ > kMaxNesting) fail(at, "expression is nested too deeply");
    Expr rhs = additive();
    expect('?', "after the comparison");
    Expr then = expression();
    expect(':', "after the first branch of '?'");
    Expr otherwise = expression();
    --nesting_;
    return build(at, [&] {
      return raw_ ? rawIfThenElse(lhs, *cmp, rhs, then, otherwise)
                  : ifThenElse(lhs, *cmp, rhs, then, otherwise);
    });
  }

  void expect(char c, const char* where) {
    if (peek(c)) {
      ++pos_;
      return;
    }
    if (pos_ >= text_.size()) fail(pos_, fmt::format("expected '{}' {}", c, where));
    fail(pos_, fmt::format("expected '{}' {}, found '{}'", c, where, text_[pos_]));
  }

  Expr additive() {
    Expr first = term();
    if (raw_) {
      Expr acc = first;
      for (;;) {
        skipSpace();
        if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return acc;
        size_t at = pos_;
        bool minus = text_[pos_++] == '-';
        Expr rhs = term();
        acc = build(at, [&] { return rawAdd(acc, minus ? negateTerm(rhs) : rhs); });
      }
    }
    std::vector<Expr> terms{first};
    size_t firstOp = std::string::npos;
    for (;;) {
      skipSpace();
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) break;
      size_t at = pos_;
      if (firstOp == std::string::npos) firstOp = at;
      bool minus = text_[pos_++] == '-';
      Expr rhs = term();
      terms.push_back(minus ? build(at, [&] { return neg(rhs); }) : rhs);
    }
    if (terms.size() == 1) return first;
    return build(firstOp, [&] { return addMany(std::move(terms)); });
  }

  bool minusBeforeNonLiteral() {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '-') return false;
    size_t p = pos_ + 1;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r'))
      ++p;
    return !(p < text_.size() && isDigit(text_[p]));
  }

  // A multiplicative chain. In simplified mode a run of '*' operands is multiplied at once, and
  // a leading unary minus joins the run: -a*b*c is mulMany(-1, a, b, c), equal in value to
  // (-a)*b*c and the same node as the printed product (and long chains stay linear).
  Expr term() {
    if (raw_) return rawTerm();
    bool negate = minusBeforeNonLiteral();
    size_t chainAt = pos_;
    if (negate) {
      ++pos_;
      if (++nesting_ > kMaxNesting) fail(chainAt, "expression is nested too deeply");
    }
    std::vector<Expr> chain{unary()};
    if (negate) --nesting_;
    auto flush = [&]() -> Expr {
      if (negate) chain.insert(chain.begin(), cst(-1));
      negate = false;
      if (chain.size() == 1) return chain[0];
      return build(chainAt, [&] { return mulMany(std::move(chain)); });
    };
    for (;;) {
      skipSpace();
      if (pos_ >= text_.size()) break;
      char op = text_[pos_];
      if (op != '*' && op != '/' && op != '%') break;
      size_t at = pos_++;
      if (op == '*') {
        if (chain.size() == 1 && !negate) chainAt = at;
        chain.push_back(unary());
        continue;
      }
      Expr acc = flush();
      Expr rhs = unary();
      if (isCst(rhs, 0)) fail(at, op == '/' ? "division by zero" : "modulo by zero");
      acc = build(at, [&] { return op == '/' ? div(acc, rhs) : mod(acc, rhs); });
      chain.assign(1, acc);
    }
    return flush();
  }

  Expr rawTerm() {
    Expr acc = unary();
    for (;;) {
      skipSpace();
      if (pos_ >= text_.size()) break;
      char op = text_[pos_];
      if (op != '*' && op != '/' && op != '%') break;
      size_t at = pos_++;
      Expr rhs = unary();
      if (op == '*') {
        acc = build(at, [&] { return rawMul(acc, rhs); });
        continue;
      }
      if (isCst(rhs, 0)) fail(at, op == '/' ? "division by zero" : "modulo by zero");
      if (op == '/' && exactDivisions_) {  // floor(-7/2): the quotient is exact, not C's -3
        acc = build(at, [&] { return intern2(Kind::Div, acc, rhs); });
        continue;
      }
      acc = build(at, [&] { return op == '/' ? rawDiv(acc, rhs) : rawMod(acc, rhs); });
    }
    return acc;
  }

  Expr unary() {
    skipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      size_t at = pos_;
      bool minus = text_[pos_++] == '-';
      if (++nesting_ > kMaxNesting) fail(at, "expression is nested too deeply");
      skipSpace();
      Expr r;
      if (minus && pos_ < text_.size() && isDigit(text_[pos_])) {
        r = literal(true);  // "-2*x" is (-2)*x, as in C
      } else {
        Expr operand = unary();
        if (!minus)
          r = operand;
        else
          r = build(at, [&] { return raw_ ? rawMul(cst(-1), operand) : neg(operand); });
      }
      --nesting_;
      return r;
    }
    return primary();
  }

  Expr literal(bool negative) {
    size_t start = pos_;
    uint64_t v = 0;
    bool overflow = false;
    while (pos_ < text_.size() && isDigit(text_[pos_])) {
      uint64_t d = static_cast<uint64_t>(text_[pos_] - '0');
      if (v > (UINT64_MAX - d) / 10)
        overflow = true;
      else
        v = v * 10 + d;
      ++pos_;
    }
    uint64_t limit = negative ? static_cast<uint64_t>(INT64_MAX) + 1 : static_cast<uint64_t>(INT64_MAX);
    if (overflow || v > limit)
      fail(start, fmt::format("integer literal {}{} does not fit in 64 bits", negative ? "-" : "",
                              text_.substr(start, pos_ - start)));
    if (pos_ < text_.size() && isIdentStart(text_[pos_]))
      fail(pos_, fmt::format("unexpected '{}'", text_[pos_]));
    if (negative)
      return cst(v == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(v));
    return cst(static_cast<int64_t>(v));
  }

  Expr primary() {
    skipSpace();
    if (pos_ >= text_.size()) fail(pos_, "expected an expression");
    char c = text_[pos_];
    if (isDigit(c)) return literal(false);
    if (c == '(') {
      size_t open = pos_++;
      if (++nesting_ > kMaxNesting) fail(open, "expression is nested too deeply");
      Expr e = expression();
      if (!peek(')')) {
        if (pos_ >= text_.size()) fail(open, "unclosed '('");
        unexpected();
      }
      ++pos_;
      --nesting_;
      return e;
    }
    if (isIdentStart(c)) {
      size_t start = pos_;
      while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
      std::string name = text_.substr(start, pos_ - start);
      if (peek('(')) return call(name, start);
      auto it = vars_.find(name);
      if (it != vars_.end()) return it->second;
      return sizeVar(name);
    }
    if (c == ')') fail(pos_, "expected an expression before ')'");
    unexpected();
  }

  Expr call(const std::string& name, size_t at) {
    if (name == "floor" || name == "ceil") return quotient(name == "floor" ? Kind::Floor : Kind::Ceil, at);
    if (name == "lookup") return lookupCall(at);
    Kind k;
    if (name == "min")
      k = Kind::Min;
    else if (name == "max")
      k = Kind::Max;
    else if (name == "pow")
      k = Kind::Pow;
    else if (name == "abs")
      k = Kind::Abs;
    else
      fail(at,
           fmt::format("unknown function '{}' (expected min, max, pow, abs, floor, ceil or lookup)", name));
    size_t open = pos_++;
    if (++nesting_ > kMaxNesting) fail(open, "expression is nested too deeply");
    std::vector<Expr> args;
    if (!peek(')')) {
      for (;;) {
        args.push_back(expression());
        if (peek(',')) {
          ++pos_;
          continue;
        }
        if (peek(')')) break;
        if (pos_ >= text_.size()) fail(open, "unclosed '('");
        unexpected();
      }
    }
    ++pos_;
    --nesting_;
    size_t want = k == Kind::Abs ? 1 : 2;
    if (args.size() != want)
      fail(at,
           fmt::format("'{}' takes {} argument{}, got {}", name, want, want == 1 ? "" : "s", args.size()));
    return build(at, [&] {
      if (k == Kind::Abs) return raw_ ? rawAbs(args[0]) : abs(args[0]);
      if (raw_ || k == Kind::Pow) {
        if (raw_) return intern2(k, args[0], args[1]);
        return pow(args[0], args[1]);
      }
      return k == Kind::Min ? min(args[0], args[1]) : max(args[0], args[1]);
    });
  }

  // A division at the rational level of a quotient's argument (inside its sums and products).
  static bool hasInnerDivision(Expr e) {
    if (e.kind() == Kind::Div) return true;
    if (e.kind() != Kind::Sum && e.kind() != Kind::Prod) return false;
    for (Expr o : e.operands())
      if (hasInnerDivision(o)) return true;
    return false;
  }

  // floor(n/d) and ceil(n/d): the argument's outermost / is exact division (n and d are
  // integer expressions, their own / truncating); an argument without one is an integer and
  // its own floor. The argument is read raw and simplified afterwards, so that the outermost
  // division survives (simplified, (4*i)/4 would already be i).
  Expr quotient(Kind k, size_t at) {
    const char* name = k == Kind::Floor ? "floor" : "ceil";
    size_t open = pos_++;
    if (++nesting_ > kMaxNesting) fail(open, "expression is nested too deeply");
    bool wasRaw = raw_, wasExact = exactDivisions_;
    raw_ = exactDivisions_ = true;
    Expr a = expression();
    raw_ = wasRaw;
    exactDivisions_ = wasExact;
    if (peek(',')) fail(pos_, fmt::format("'{}' takes 1 argument", name));
    if (!peek(')')) {
      if (pos_ >= text_.size()) fail(open, "unclosed '('");
      unexpected();
    }
    ++pos_;
    --nesting_;
    if (a.kind() != Kind::Div) {
      if (hasInnerDivision(a))
        fail(at,
             fmt::format("the argument of '{}' divides inside a sum or product: write it as one quotient, "
                         "{}(n/d)",
                         name, name));
      return raw_ ? a : build(at, [&] { return simplify(a); });
    }
    Expr n = a->ops[0], d = a->ops[1];
    return build(at, [&] {
      if (raw_) return k == Kind::Floor ? rawFloorDiv(n, d) : rawCeilDiv(n, d);
      return k == Kind::Floor ? floorDiv(simplify(n), simplify(d)) : ceilDiv(simplify(n), simplify(d));
    });
  }

  // lookup({c0, c1, ...}, index) with integer literals in the table.
  Expr lookupCall(size_t at) {
    size_t open = pos_++;
    if (++nesting_ > kMaxNesting) fail(open, "expression is nested too deeply");
    expect('{', "to open lookup's table");
    std::vector<int64_t> table;
    for (;;) {
      skipSpace();
      bool negative = pos_ < text_.size() && text_[pos_] == '-';
      if (negative) ++pos_;
      skipSpace();
      if (pos_ >= text_.size() || !isDigit(text_[pos_]))
        fail(pos_, "expected an integer literal in lookup's table");
      table.push_back(literal(negative)->value);
      if (peek(',')) {
        ++pos_;
        continue;
      }
      expect('}', "to close lookup's table");
      break;
    }
    expect(',', "after lookup's table");
    Expr index = expression();
    if (!peek(')')) {
      if (pos_ >= text_.size()) fail(open, "unclosed '('");
      unexpected();
    }
    ++pos_;
    --nesting_;
    return build(at, [&] { return raw_ ? rawLookup(table, index) : lookup(table, index); });
  }
};

}  // namespace

Expr parse(const std::string& text, const std::map<std::string, Expr>& vars, const std::string& file,
           bool raw) {
  Parser p(text, vars, file, raw);
  return p.run();
}

}  // namespace lift::arith
