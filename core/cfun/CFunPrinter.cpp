// OpenCL C printer for user-function bodies.
#include "core/cfun/CFunPrinter.h"

#include <fmt/format.h>

#include <algorithm>

namespace lift::cfun {

namespace {

// C precedence levels, tightest first (1 = postfix and primary).
constexpr int kPrimary = 1, kUnary = 2, kCond = 13, kAny = 14;

int binaryPrecedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
      return 3;
    case BinaryOp::Add:
    case BinaryOp::Sub:
      return 4;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
      return 5;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      return 6;
    case BinaryOp::Eq:
    case BinaryOp::Ne:
      return 7;
    case BinaryOp::BitAnd:
      return 8;
    case BinaryOp::BitXor:
      return 9;
    case BinaryOp::BitOr:
      return 10;
    case BinaryOp::LogAnd:
      return 11;
    case BinaryOp::LogOr:
      return 12;
  }
  return kAny;
}

const char* binaryText(BinaryOp op) {
  static const char* const names[] = {"+", "-", "*",  "/", "%",  "<<", ">>", "&",  "|",
                                      "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
  return names[static_cast<int>(op)];
}

const char* assignText(AssignOp op) {
  switch (op) {
    case AssignOp::Set:
      return "=";
    case AssignOp::Add:
      return "+=";
    case AssignOp::Sub:
      return "-=";
    case AssignOp::Mul:
      return "*=";
    case AssignOp::Div:
      return "/=";
    case AssignOp::Mod:
      return "%=";
    case AssignOp::Shl:
      return "<<=";
    case AssignOp::Shr:
      return ">>=";
    case AssignOp::And:
      return "&=";
    case AssignOp::Or:
      return "|=";
    case AssignOp::Xor:
      return "^=";
    case AssignOp::Inc:
      return "++";
    case AssignOp::Dec:
      return "--";
  }
  return "=";
}

// The product of a floating-point `a + b * c` (either order of the sum), or null: both sides of
// the sum and the product's operands of one floating-point type, nothing converted in between.
const Expr* fusableProduct(const Expr& sum, const Expr** addend) {
  if (sum.kind != Expr::Kind::Binary || sum.binaryOp != BinaryOp::Add) return nullptr;
  if (sum.scalar != ScalarKind::Float && sum.scalar != ScalarKind::Double) return nullptr;
  for (int i : {1, 0}) {
    const Expr& p = *sum.operands[i];
    if (p.kind == Expr::Kind::Binary && p.binaryOp == BinaryOp::Mul && p.type == sum.type &&
        p.operands[0]->type == sum.type && p.operands[1]->type == sum.type &&
        sum.operands[1 - i]->type == sum.type) {
      *addend = sum.operands[1 - i].get();
      return &p;
    }
  }
  return nullptr;
}

class Printer {
 public:
  explicit Printer(const Body& b, const PrintOptions& o = {}) : b_(b), o_(o) {}

  // The expression with the precedence level it binds at.
  std::pair<std::string, int> expr(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::Literal:
        return {e.text, kPrimary};
      case Expr::Kind::Var:
        return {b_.vars[e.var].name, kPrimary};
      case Expr::Kind::Unary: {
        static const char* const ops[] = {"-", "+", "!", "~"};
        std::string op = ops[static_cast<int>(e.unaryOp)];
        std::string operand = sub(*e.operands[0], kUnary);
        if (!operand.empty() && (operand[0] == '-' || operand[0] == '+') && operand[0] == op[0])
          operand = "(" + operand + ")";  // never "--x"
        return {op + operand, kUnary};
      }
      case Expr::Kind::Binary: {
        const Expr* addend = nullptr;
        if (o_.fusedMultiplyAdd)
          if (const Expr* product = fusableProduct(e, &addend))
            return {fmt::format("fma({}, {}, {})", sub(*product->operands[0], kAny),
                                sub(*product->operands[1], kAny), sub(*addend, kAny)),
                    kPrimary};
        int p = binaryPrecedence(e.binaryOp);
        return {fmt::format("{} {} {}", sub(*e.operands[0], p), binaryText(e.binaryOp),
                            sub(*e.operands[1], p - 1)),
                p};
      }
      case Expr::Kind::Cond:
        return {fmt::format("{} ? {} : {}", sub(*e.operands[0], kCond - 1), sub(*e.operands[1], kAny),
                            sub(*e.operands[2], kCond)),
                kCond};
      case Expr::Kind::Call:
        return {fmt::format("{}({})", e.text, list(e.operands)), kPrimary};
      case Expr::Kind::Component:
      case Expr::Kind::Field:
        return {sub(*e.operands[0], kPrimary) + e.text, kPrimary};
      case Expr::Kind::VectorCons:
        return {fmt::format("({})({})", cTypeName(e.type), list(e.operands)), kPrimary};
      case Expr::Kind::TupleCons:
        return {fmt::format("({}){{{}}}", cTypeName(e.type), list(e.operands)), kPrimary};
      case Expr::Kind::Convert:
        if (e.implicit) return expr(*e.operands[0]);
        if (!e.text.empty()) return {fmt::format("{}({})", e.text, sub(*e.operands[0], kAny)), kPrimary};
        return {fmt::format("({}){}", cTypeName(e.type), sub(*e.operands[0], kUnary)), kUnary};
    }
    return {"?", kPrimary};
  }

  // `e` printed where a precedence of at most `allowed` binds without parentheses.
  std::string sub(const Expr& e, int allowed) const {
    auto [s, p] = expr(e);
    return p <= allowed ? s : "(" + s + ")";
  }

  std::string list(const std::vector<ExprPtr>& es) const {
    std::string s;
    for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + sub(*es[i], kAny);
    return s;
  }

  // A statement that fits in a for header or on one line: declaration, assignment, call.
  std::string simple(const Stmt& s) const {
    switch (s.kind) {
      case Stmt::Kind::Decl: {
        const Variable& v = b_.vars[s.var];
        return fmt::format("{}{} {}", v.isConst ? "const " : "", cTypeName(v.type), declarator(s));
      }
      case Stmt::Kind::Block: {  // a declaration group
        std::string out;
        for (size_t i = 0; i < s.body.size(); ++i)
          out += i == 0 ? simple(*s.body[i]) : ", " + declarator(*s.body[i]);
        return out;
      }
      case Stmt::Kind::Assign: {
        std::string target = sub(*s.exprs[0], kUnary);
        if (s.assignOp == AssignOp::Inc || s.assignOp == AssignOp::Dec)
          return s.postfix ? target + assignText(s.assignOp) : assignText(s.assignOp) + target;
        const Expr& rhs = s.assignOp == AssignOp::Set ? *s.exprs[2] : *s.exprs[1];
        return fmt::format("{} {} {}", target, assignText(s.assignOp), sub(rhs, kAny));
      }
      case Stmt::Kind::Expr:
        return sub(*s.exprs[0], kAny);
      default:
        break;
    }
    return "";
  }

  std::string declarator(const Stmt& s) const {
    const Variable& v = b_.vars[s.var];
    if (s.exprs.empty()) return v.name;
    return fmt::format("{} = {}", v.name, sub(*s.exprs[0], kAny));
  }

  void stmt(const Stmt& s, int indent, std::vector<std::string>& lines) const {
    std::string pad(static_cast<size_t>(indent), ' ');
    switch (s.kind) {
      case Stmt::Kind::Block:
        if (s.declGroup) {
          lines.push_back(pad + simple(s) + ";");
          return;
        }
        lines.push_back(pad + "{");
        for (auto& st : s.body) stmt(*st, indent + 2, lines);
        lines.push_back(pad + "}");
        return;
      case Stmt::Kind::Decl:
      case Stmt::Kind::Assign:
      case Stmt::Kind::Expr:
        lines.push_back(pad + simple(s) + ";");
        return;
      case Stmt::Kind::If: {
        std::string head = pad + fmt::format("if ({})", sub(*s.exprs[0], kAny));
        nested(head, *s.body[0], indent, lines);
        if (s.body.size() > 1 && s.body[1]) {
          if (s.body[1]->kind == Stmt::Kind::If) {  // else if
            std::vector<std::string> inner;
            stmt(*s.body[1], indent, inner);
            inner[0] = pad + "else " + inner[0].substr(pad.size());
            appendElse(lines, inner, pad);
          } else {
            std::vector<std::string> inner;
            nested(pad + "else", *s.body[1], indent, inner);
            appendElse(lines, inner, pad);
          }
        }
        return;
      }
      case Stmt::Kind::For: {
        std::string init = s.body[0] ? simple(*s.body[0]) : "";
        std::string cond = s.exprs[0] ? sub(*s.exprs[0], kAny) : "";
        std::string step = s.body[1] ? simple(*s.body[1]) : "";
        nested(pad + fmt::format("for ({}; {}; {})", init, cond, step), *s.body[2], indent, lines);
        return;
      }
      case Stmt::Kind::While:
        nested(pad + fmt::format("while ({})", sub(*s.exprs[0], kAny)), *s.body[0], indent, lines);
        return;
      case Stmt::Kind::Return:
        lines.push_back(pad + "return " + sub(*s.exprs[0], kAny) + ";");
        return;
      case Stmt::Kind::Break:
        lines.push_back(pad + "break;");
        return;
      case Stmt::Kind::Continue:
        lines.push_back(pad + "continue;");
        return;
    }
  }

  // "head {" ... "}" for a block body, "head" + indented statement otherwise.
  void nested(const std::string& head, const Stmt& body, int indent, std::vector<std::string>& lines) const {
    if (body.kind == Stmt::Kind::Block && !body.declGroup) {
      lines.push_back(head + " {");
      for (auto& st : body.body) stmt(*st, indent + 2, lines);
      lines.push_back(std::string(static_cast<size_t>(indent), ' ') + "}");
    } else {
      lines.push_back(head);
      stmt(body, indent + 2, lines);
    }
  }

  // Joins "} else {" onto the closing brace of the then-branch.
  static void appendElse(std::vector<std::string>& lines, std::vector<std::string>& inner,
                         const std::string& pad) {
    if (!lines.empty() && lines.back() == pad + "}") {
      lines.back() += " " + inner[0].substr(pad.size());
      lines.insert(lines.end(), inner.begin() + 1, inner.end());
    } else {
      lines.insert(lines.end(), inner.begin(), inner.end());
    }
  }

 private:
  const Body& b_;
  PrintOptions o_;
};

void collectTuples(Type t, std::vector<Type>& out) {
  if (!t || !t.isTuple()) return;
  for (Type e : t.tupleElems()) collectTuples(e, out);
  if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
}

void collectTuples(const Expr& e, std::vector<Type>& out) {
  collectTuples(e.type, out);
  for (auto& o : e.operands)
    if (o) collectTuples(*o, out);
}

void collectTuples(const Stmt& s, std::vector<Type>& out) {
  for (auto& e : s.exprs)
    if (e) collectTuples(*e, out);
  for (auto& b : s.body)
    if (b) collectTuples(*b, out);
}

}  // namespace

std::string printSignature(const std::string& name, const Body& body) {
  std::string s = fmt::format("{} {}(", cTypeName(body.returnType), name);
  for (size_t i = 0; i < body.paramCount; ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", cTypeName(body.vars[i].type), body.vars[i].name);
  return s + ")";
}

std::string printStatements(const Body& body, int indent, const PrintOptions& options) {
  Printer p(body, options);
  std::vector<std::string> lines;
  for (auto& st : body.block->body) p.stmt(*st, indent, lines);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

std::string printFunction(const std::string& name, const Body& body, const PrintOptions& options) {
  std::string sig = printSignature(name, body);
  const auto& stmts = body.block->body;
  if (stmts.size() == 1 && stmts[0]->kind == Stmt::Kind::Return)
    return sig + " { " + printStatements(body, 0, options) + " }";
  return sig + " {\n" + printStatements(body, 2, options) + "\n}";
}

std::string printExpr(const Body& body, const Expr& e) { return Printer(body).sub(e, kAny); }

std::string tupleStructDefinition(Type tuple) {
  std::string s = "typedef struct {";
  auto elems = tuple.tupleElems();
  for (size_t i = 0; i < elems.size(); ++i) s += fmt::format(" {} _{};", cTypeName(elems[i]), i);
  return s + " } " + tupleStructName(tuple) + ";";
}

std::vector<Type> tupleTypesUsed(const Body& body) {
  std::vector<Type> out;
  collectTuples(body.returnType, out);
  for (auto& v : body.vars) collectTuples(v.type, out);
  collectTuples(*body.block, out);
  return out;
}

}  // namespace lift::cfun
