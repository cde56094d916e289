// Parser and checker of user-function bodies: C text -> typed AST (core/cfun/CFunAst.h).
//
// One pass: tokens are read by a recursive-descent parser that resolves names in nested
// scopes, types every expression with C's (and OpenCL C's) rules, inserts the implicit
// conversions as explicit nodes and lays out the evaluation frame. Every error names the
// position in the .lift file.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include "core/cfun/CFun.h"
#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunBuiltins.h"
#include "core/support/LineIndex.h"

namespace lift::cfun {

namespace {

// ----- tokens ------------------------------------------------------------------------------

struct Token {
  enum class Kind { Ident, Int, Float, Punct, End };
  Kind kind = Kind::End;
  std::string text;
  size_t offset = 0;
};

const char* const kPuncts[] = {"<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                               "^=",  "<<",  ">>", "<=", ">=", "==", "!=", "&&", "||", "+",  "-",
                               "*",   "/",   "%",  "<",  ">",  "=",  "!",  "~",  "&",  "|",  "^",
                               "?",   ":",   ";",  ",",  ".",  "(",  ")",  "{",  "}",  "[",  "]"};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// " (did you mean 'x'?)" for the closest candidate, if close enough.
std::string suggestion(std::string_view name, const std::vector<std::string_view>& candidates) {
  std::string_view best;
  size_t bestD = std::max<size_t>(2, name.size() / 3) + 1;
  for (auto c : candidates) {
    size_t d = editDistance(name, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best);
}

int scalarRank(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool:
      return 0;
    case ScalarKind::Int:
      return 1;
    case ScalarKind::Float:
      return 2;
    case ScalarKind::Double:
      return 3;
  }
  return 0;
}

bool isNumeric(Type t) { return t.isScalar() || t.isVector(); }
bool isIntegral(ScalarKind k) { return k == ScalarKind::Int || k == ScalarKind::Bool; }

Type withWidth(ScalarKind k, int w) { return w == 1 ? Type::scalar(k) : Type::vector(k, w); }
int widthOf(Type t) { return t.isVector() ? t.vectorWidth() : 1; }

bool validVectorWidth(int w) { return w == 2 || w == 3 || w == 4 || w == 8 || w == 16; }

// ----- the parser ------------------------------------------------------------------------

class Parser {
 public:
  Parser(const std::string& text, const std::vector<std::pair<std::string, Type>>& params, Type ret,
         const std::string& file, int line, int col)
      : text_(text), lines_(text), file_(file), line0_(line), col0_(col) {
    body_ = std::make_shared<Body>();
    body_->file = file;
    body_->text = text;
    body_->start = {line, col};
    body_->returnType = ret;
    tokenize();
    if (!ret) fail(0, "the user function has no return type");
    checkValueType(ret, 0, "return type");
    scopes_.emplace_back();
    for (auto& [name, type] : params) {
      if (!type) fail(0, fmt::format("parameter '{}' has no type", name));
      checkValueType(type, 0, fmt::format("type of parameter '{}'", name));
      if (scopes_.back().count(name)) fail(0, fmt::format("two parameters are called '{}'", name));
      declare(name, type, 0, /*isParam=*/true, /*isConst=*/false);
      paramTypes_.push_back(type);
    }
    body_->paramCount = params.size();
    body_->paramSlots = nextSlot_;
  }

  std::shared_ptr<const Body> parse() {
    auto block = std::make_unique<Stmt>();
    block->kind = Stmt::Kind::Block;
    block->loc = locAt(0);
    while (peek().kind != Token::Kind::End) block->body.push_back(statement());
    if (!returns(*block)) {
      size_t end = text_.size();
      while (end > 0 && std::isspace(static_cast<unsigned char>(text_[end - 1]))) --end;
      fail(end, fmt::format("the user function can reach its end without returning a {}",
                            cTypeName(body_->returnType)));
    }
    body_->block = std::move(block);
    body_->frameSize = nextSlot_;
    body_->resultSlots = slotCount(body_->returnType);
    return body_;
  }

 private:
  // ----- positions and errors -----

  Loc locAt(size_t offset) const {
    auto [l, c] = lines_.lineColOf(offset);
    return {line0_ + l - 1, l == 1 ? col0_ + c - 1 : c};
  }

  [[noreturn]] void fail(size_t offset, std::string message) const {
    throw LiftError(bodyDiagnostic(file_, text_, {line0_, col0_}, locAt(offset), std::move(message)));
  }

  // Bounds the parser's recursion (and so the evaluator's and printer's), so that hostile
  // input gives an error rather than a stack overflow.
  static constexpr int kMaxNesting = 256;
  struct Nest {
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxNesting)
        p_.fail(p_.peek().offset,
                fmt::format("the body is nested too deeply (more than {} levels)", kMaxNesting));
    }
    ~Nest() { --p_.nesting_; }
    Parser& p_;
  };
  // Operator chains (`x + x + ...`, `c ? x : c ? x : ...`) build deep trees without deep
  // nesting; bounding the nodes of one full expression bounds their depth too (a 50,000-term
  // sum crashed the code generator, a 100,000-fold `?:` the parser).
  static constexpr size_t kMaxExpressionNodes = 10000;

  // ----- lexing -----

  void tokenize() {
    size_t i = 0, n = text_.size();
    while (true) {
      while (i < n) {
        if (std::isspace(static_cast<unsigned char>(text_[i]))) {
          ++i;
        } else if (text_.compare(i, 2, "//") == 0) {
          while (i < n && text_[i] != '\n') ++i;
        } else if (text_.compare(i, 2, "/*") == 0) {
          size_t e = text_.find("*/", i + 2);
          if (e == std::string::npos) fail(i, "unterminated comment");
          i = e + 2;
        } else {
          break;
        }
      }
      Token t;
      t.offset = i;
      if (i >= n) {
        tokens_.push_back(t);
        return;
      }
      char c = text_[i];
      if (isIdentStart(c)) {
        size_t s = i;
        while (i < n && isIdentChar(text_[i])) ++i;
        t.kind = Token::Kind::Ident;
        t.text = text_.substr(s, i - s);
      } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(text_[i + 1]))) {
        size_t s = i;
        bool hex = c == '0' && i + 1 < n && (text_[i + 1] == 'x' || text_[i + 1] == 'X');
        bool isFloat = false;
        if (hex) i += 2;
        while (i < n) {
          char d = text_[i];
          if (!hex && (d == 'e' || d == 'E')) {
            isFloat = true;
            ++i;
            if (i < n && (text_[i] == '+' || text_[i] == '-')) ++i;
          } else if (d == '.') {
            isFloat = true;
            ++i;
          } else if (isIdentChar(d)) {
            ++i;
          } else {
            break;
          }
        }
        t.text = text_.substr(s, i - s);
        if (!hex && (t.text.back() == 'f' || t.text.back() == 'F')) isFloat = true;
        t.kind = isFloat ? Token::Kind::Float : Token::Kind::Int;
      } else {
        t.kind = Token::Kind::Punct;
        for (const char* p : kPuncts) {
          if (text_.compare(i, std::strlen(p), p) == 0) {
            t.text = p;
            break;
          }
        }
        if (t.text.empty()) fail(i, fmt::format("unexpected character '{}'", c));
        i += t.text.size();
      }
      tokens_.push_back(std::move(t));
    }
  }

  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool isPunct(const char* p, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == Token::Kind::Punct && t.text == p;
  }
  bool isKeyword(const char* k, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == Token::Kind::Ident && t.text == k;
  }
  bool accept(const char* p) {
    if (!isPunct(p)) return false;
    next();
    return true;
  }
  const Token& expect(const char* p, const char* what = nullptr) {
    if (!isPunct(p)) {
      const Token& t = peek();
      std::string found = t.kind == Token::Kind::End ? "the end of the body" : "'" + t.text + "'";
      fail(t.offset,
           fmt::format("expected '{}'{} but found {}", p, what ? fmt::format(" {}", what) : "", found));
    }
    return next();
  }
  std::string describe(const Token& t) const {
    return t.kind == Token::Kind::End ? "the end of the body" : "'" + t.text + "'";
  }

  // ----- types -----

  void checkValueType(Type t, size_t offset, const std::string& what) const {
    if (t.isArray())
      fail(offset, fmt::format("{} is the array type {}; user functions take and return scalars, vectors "
                               "and tuples",
                               what, t.toString()));
    if (t.isTuple())
      for (Type e : t.tupleElems()) checkValueType(e, offset, what);
  }

  // Parses a type name spelled in C: float, int4, Tuple2_float_int, Tuple (the tuple type of
  // the signature). Returns nullopt (consuming nothing) if the next token is not a type.
  std::optional<Type> tryTypeName(size_t ahead = 0) const {
    const Token& t = peek(ahead);
    if (t.kind != Token::Kind::Ident || lookup(t.text) >= 0) return std::nullopt;
    return typeFromName(t.text, t.offset);
  }

  std::optional<Type> typeFromName(const std::string& name, size_t offset) const {
    if (auto s = scalarOrVector(name)) return s;
    if (name == "Tuple") {
      // Lift's alias inside user functions: the (only) tuple type of the signature.
      std::vector<Type> tuples;
      auto add = [&](Type t) {
        if (t.isTuple() && std::find(tuples.begin(), tuples.end(), t) == tuples.end()) tuples.push_back(t);
      };
      add(body_->returnType);
      for (Type p : paramTypes_) add(p);
      if (tuples.size() == 1) return tuples[0];
      fail(offset, tuples.empty() ? "'Tuple' names the tuple type of the signature, but there is none"
                                  : "'Tuple' is ambiguous: the signature has several tuple types; write "
                                    "their names, e.g. " +
                                        tupleStructName(tuples[0]));
    }
    if (name.rfind("Tuple", 0) == 0) {
      std::string_view rest(name);
      rest.remove_prefix(5);
      if (auto t = tupleFromName(rest); t && rest.empty()) return t;
      fail(offset, fmt::format("'{}' is not a tuple type name (write e.g. Tuple2_float_int)", name));
    }
    static const char* unsupported[] = {"uint",  "unsigned", "long", "ulong",  "char", "uchar",
                                        "short", "ushort",   "half", "size_t", "void", "signed"};
    for (const char* u : unsupported)
      if (name.rfind(u, 0) == 0 && (name.size() == std::strlen(u) || isDigit(name[std::strlen(u)])))
        fail(offset, fmt::format("type '{}' is not supported in user functions (use int, float, double or "
                                 "bool, their vectors, or tuples)",
                                 name));
    return std::nullopt;
  }

  static std::optional<Type> scalarOrVector(std::string_view name) {
    static const std::pair<std::string_view, ScalarKind> kinds[] = {{"float", ScalarKind::Float},
                                                                    {"double", ScalarKind::Double},
                                                                    {"int", ScalarKind::Int},
                                                                    {"bool", ScalarKind::Bool}};
    for (auto& [base, kind] : kinds) {
      if (name.rfind(base, 0) != 0) continue;
      std::string_view w = name.substr(base.size());
      if (w.empty()) return Type::scalar(kind);
      if (kind == ScalarKind::Bool) return std::nullopt;
      if (w == "2" || w == "3" || w == "4" || w == "8" || w == "16")
        return Type::vector(kind, std::stoi(std::string(w)));
    }
    return std::nullopt;
  }

  // "2_float_int" (after "Tuple"); consumes what it parses from `s`.
  static std::optional<Type> tupleFromName(std::string_view& s) {
    size_t digits = 0;
    while (digits < s.size() && isDigit(s[digits])) ++digits;
    if (digits == 0 || digits > 3) return std::nullopt;  // no tuple has a thousand components
    int n = std::stoi(std::string(s.substr(0, digits)));
    s.remove_prefix(digits);
    if (n < 2) return std::nullopt;
    std::vector<Type> elems;
    for (int i = 0; i < n; ++i) {
      if (s.empty() || s[0] != '_') return std::nullopt;
      s.remove_prefix(1);
      if (s.rfind("Tuple", 0) == 0) {
        s.remove_prefix(5);
        auto t = tupleFromName(s);
        if (!t) return std::nullopt;
        elems.push_back(*t);
      } else {
        size_t e = s.find('_');
        auto t = scalarOrVector(s.substr(0, e));
        if (!t) return std::nullopt;
        elems.push_back(*t);
        s.remove_prefix(e == std::string_view::npos ? s.size() : e);
      }
    }
    return Type::tuple(std::move(elems));
  }

  // ----- variables and scopes -----

  int declare(const std::string& name, Type type, size_t offset, bool isParam, bool isConst) {
    Variable v;
    v.name = name;
    v.type = type;
    v.slot = allocate(type);
    v.numSlots = slotCount(type);
    v.isParam = isParam;
    v.isConst = isConst;
    v.loc = locAt(offset);
    body_->vars.push_back(v);
    int idx = static_cast<int>(body_->vars.size()) - 1;
    scopes_.back()[name] = idx;
    return idx;
  }

  int lookup(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (auto it = s->find(name); it != s->end()) return it->second;
    return -1;
  }

  std::vector<std::string_view> visibleNames() const {
    std::vector<std::string_view> names;
    for (auto& s : scopes_)
      for (auto& [n, i] : s) names.push_back(n);
    return names;
  }

  uint32_t allocate(Type t) {
    uint32_t s = nextSlot_;
    nextSlot_ += slotCount(t);
    return s;
  }

  // ----- node construction -----

  std::unique_ptr<Expr> node(Expr::Kind k, Type t, size_t offset) {
    if (fullExpressions_ > 0 && ++expressionNodes_ > kMaxExpressionNodes)
      fail(peek().offset, fmt::format("the expression is too long (more than {} operations and operands)",
                                      kMaxExpressionNodes));
    auto e = std::make_unique<Expr>();
    e->kind = k;
    setType(*e, t);
    e->loc = locAt(offset);
    e->slot = allocate(t);
    return e;
  }

  // Whether a value of type `from` converts implicitly to `to` (assignment, argument, return).
  static bool convertible(Type from, Type to) {
    if (from == to) return true;
    if (from.isScalar() && (to.isScalar() || to.isVector())) return true;  // C / OpenCL splat
    return false;
  }

  // `e` converted to `to` (an implicit conversion node unless the types agree).
  ExprPtr convert(ExprPtr e, Type to, bool implicit = true) {
    if (e->type == to) return e;
    auto c = node(Expr::Kind::Convert, to, 0);
    c->loc = e->loc;
    c->implicit = implicit;
    c->operands.push_back(std::move(e));
    return c;
  }

  ExprPtr convertOrFail(ExprPtr e, Type to, size_t offset, const std::string& context) {
    if (!convertible(e->type, to))
      fail(offset, fmt::format("{}: cannot convert {} to {}", context, cTypeName(e->type), cTypeName(to)));
    return convert(std::move(e), to);
  }

  ExprPtr toCondition(ExprPtr e, size_t offset, const char* what) {
    if (!e->type.isScalar())
      fail(offset, fmt::format("{} must be a scalar, not {}", what, cTypeName(e->type)));
    return convert(std::move(e), Type::bool_());
  }

  // The type both operands of an arithmetic operator are converted to (C's usual arithmetic
  // conversions, extended to OpenCL vectors), or null.
  static Type commonType(Type a, Type b) {
    if (!isNumeric(a) || !isNumeric(b)) return {};
    if (a.isVector() && b.isVector()) return a == b ? a : Type{};
    if (a.isVector()) return a;
    if (b.isVector()) return b;
    ScalarKind k = scalarRank(a.scalarKind()) >= scalarRank(b.scalarKind()) ? a.scalarKind() : b.scalarKind();
    if (k == ScalarKind::Bool) k = ScalarKind::Int;  // bool promotes to int
    return Type::scalar(k);
  }

  // ----- statements -----

  static bool returns(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::Return:
        return true;
      case Stmt::Kind::Block:
        for (auto& b : s.body)
          if (returns(*b)) return true;
        return false;
      case Stmt::Kind::If:
        return s.body.size() > 1 && s.body[1] && returns(*s.body[0]) && returns(*s.body[1]);
      default:
        return false;
    }
  }

  StmtPtr statement() {
    Nest nest(*this);
    const Token& t = peek();
    if (isPunct("{")) {
      next();
      auto b = std::make_unique<Stmt>();
      b->kind = Stmt::Kind::Block;
      b->loc = locAt(t.offset);
      scopes_.emplace_back();
      while (!isPunct("}")) {
        if (peek().kind == Token::Kind::End) fail(peek().offset, "expected '}' to close the block");
        b->body.push_back(statement());
      }
      next();
      scopes_.pop_back();
      return b;
    }
    if (isPunct(";")) {
      next();
      auto b = std::make_unique<Stmt>();
      b->kind = Stmt::Kind::Block;
      b->loc = locAt(t.offset);
      return b;
    }
    if (isKeyword("if")) return ifStatement();
    if (isKeyword("for")) return forStatement();
    if (isKeyword("while")) return whileStatement();
    if (isKeyword("do")) fail(t.offset, "do-while loops are not supported; use while or for");
    if (isKeyword("switch") || isKeyword("goto"))
      fail(t.offset, fmt::format("'{}' is not supported in user functions", t.text));
    if (isKeyword("return")) {
      next();
      auto s = std::make_unique<Stmt>();
      s->kind = Stmt::Kind::Return;
      s->loc = locAt(t.offset);
      if (isPunct(";"))
        fail(peek().offset, fmt::format("return needs a value of type {}", cTypeName(body_->returnType)));
      size_t at = peek().offset;
      auto v = expression();
      s->exprs.push_back(convertOrFail(std::move(v), body_->returnType, at, "return value"));
      expect(";", "after the return value");
      return s;
    }
    if (isKeyword("break") || isKeyword("continue")) {
      bool isBreak = t.text == "break";
      next();
      if (loopDepth_ == 0) fail(t.offset, fmt::format("'{}' outside of a loop", t.text));
      auto s = std::make_unique<Stmt>();
      s->kind = isBreak ? Stmt::Kind::Break : Stmt::Kind::Continue;
      s->loc = locAt(t.offset);
      expect(";");
      return s;
    }
    StmtPtr s = simpleStatement();
    expect(";", "after the statement");
    return s;
  }

  // A declaration, assignment, increment or call (no trailing ';').
  StmtPtr simpleStatement() {
    if (isKeyword("const") || tryTypeName()) return declaration();
    return assignment();
  }

  StmtPtr declaration() {
    const Token& first = peek();
    bool isConst = false;
    if (isKeyword("const")) {
      next();
      isConst = true;
    }
    const Token& typeTok = peek();
    auto type = tryTypeName();
    if (!type) fail(typeTok.offset, fmt::format("expected a type but found {}", describe(typeTok)));
    next();
    // One statement per declarator, grouped in a block that opens no scope.
    auto group = std::make_unique<Stmt>();
    group->kind = Stmt::Kind::Block;
    group->declGroup = true;
    group->loc = locAt(first.offset);
    do {
      const Token& nameTok = peek();
      if (nameTok.kind != Token::Kind::Ident)
        fail(nameTok.offset, fmt::format("expected a variable name but found {}", describe(nameTok)));
      next();
      if (scalarOrVector(nameTok.text) || nameTok.text.rfind("Tuple", 0) == 0)
        fail(nameTok.offset, fmt::format("'{}' is a type name, not a variable name", nameTok.text));
      if (scopes_.back().count(nameTok.text)) {
        const Variable& prev = body_->vars[scopes_.back()[nameTok.text]];
        fail(nameTok.offset,
             fmt::format("'{}' is already declared {}", nameTok.text,
                         prev.isParam ? "as a parameter" : fmt::format("on line {}", prev.loc.line)));
      }
      if (isPunct("[")) fail(peek().offset, "arrays are not supported in user functions");
      auto s = std::make_unique<Stmt>();
      s->kind = Stmt::Kind::Decl;
      s->loc = locAt(nameTok.offset);
      // In scope from its declarator on, as in C; using it in its own initialiser is an error.
      s->var = declare(nameTok.text, *type, nameTok.offset, false, isConst);
      initialising_ = s->var;
      ExprPtr init;
      if (accept("=")) {
        size_t at = peek().offset;
        if (isPunct("{")) {
          init = braceInitialiser(*type);
        } else {
          init = convertOrFail(expression(), *type, at, fmt::format("initialiser of '{}'", nameTok.text));
        }
      } else if (isConst) {
        fail(nameTok.offset, fmt::format("const variable '{}' needs an initialiser", nameTok.text));
      }
      initialising_ = -1;
      if (init) s->exprs.push_back(std::move(init));
      group->body.push_back(std::move(s));
    } while (accept(","));
    if (group->body.size() == 1) return std::move(group->body[0]);
    return group;
  }

  // `{a, b}` initialising a tuple or vector variable.
  ExprPtr braceInitialiser(Type type) {
    const Token& open = expect("{");
    std::vector<ExprPtr> items;
    std::vector<size_t> at;
    if (!isPunct("}")) {
      do {
        at.push_back(peek().offset);
        items.push_back(expression());
      } while (accept(","));
    }
    expect("}", "to close the initialiser");
    if (type.isTuple()) return tupleCons(type, std::move(items), at, open.offset);
    if (type.isVector()) return vectorCons(type, std::move(items), at, open.offset);
    fail(open.offset,
         fmt::format("a brace initialiser needs a tuple or vector type, not {}", cTypeName(type)));
  }

  StmtPtr assignment() {
    const Token& first = peek();
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::Assign;
    s->loc = locAt(first.offset);
    if (isPunct("++") || isPunct("--")) {
      s->assignOp = next().text == "++" ? AssignOp::Inc : AssignOp::Dec;
      s->postfix = false;
      size_t at = peek().offset;
      auto target = postfixExpression();
      return finishIncrement(std::move(s), std::move(target), at);
    }
    if (first.kind != Token::Kind::Ident)
      fail(first.offset, fmt::format("expected a statement but found {}", describe(first)));
    auto target = postfixExpression();
    if (target->kind == Expr::Kind::Call) {
      // A call statement; legal C, but its value is lost.
      s->kind = Stmt::Kind::Expr;
      s->exprs.push_back(std::move(target));
      return s;
    }
    const Token& op = peek();
    if (isPunct("++") || isPunct("--")) {
      next();
      s->assignOp = op.text == "++" ? AssignOp::Inc : AssignOp::Dec;
      return finishIncrement(std::move(s), std::move(target), first.offset);
    }
    static const std::pair<const char*, AssignOp> ops[] = {
        {"=", AssignOp::Set},  {"+=", AssignOp::Add}, {"-=", AssignOp::Sub},  {"*=", AssignOp::Mul},
        {"/=", AssignOp::Div}, {"%=", AssignOp::Mod}, {"<<=", AssignOp::Shl}, {">>=", AssignOp::Shr},
        {"&=", AssignOp::And}, {"|=", AssignOp::Or},  {"^=", AssignOp::Xor}};
    const AssignOp* aop = nullptr;
    for (auto& [text, o] : ops)
      if (isPunct(text)) aop = &o;
    if (!aop)
      fail(op.offset, fmt::format("expected an assignment ('=', '+=', ...) but found {}", describe(op)));
    next();
    s->assignOp = *aop;
    checkAssignable(*target, first.offset);
    size_t at = peek().offset;
    ExprPtr rhs = expression();
    ExprPtr value;
    if (*aop == AssignOp::Set) {
      value = convertOrFail(std::move(rhs), target->type, at, "assignment");
    } else {
      static const std::pair<AssignOp, BinaryOp> binOf[] = {
          {AssignOp::Add, BinaryOp::Add},  {AssignOp::Sub, BinaryOp::Sub},
          {AssignOp::Mul, BinaryOp::Mul},  {AssignOp::Div, BinaryOp::Div},
          {AssignOp::Mod, BinaryOp::Mod},  {AssignOp::Shl, BinaryOp::Shl},
          {AssignOp::Shr, BinaryOp::Shr},  {AssignOp::And, BinaryOp::BitAnd},
          {AssignOp::Or, BinaryOp::BitOr}, {AssignOp::Xor, BinaryOp::BitXor}};
      BinaryOp bop{};
      for (auto& [a, b] : binOf)
        if (a == *aop) bop = b;
      auto combined = binary(bop, cloneRvalue(*target), cloneRvalue(*rhs), op.offset);
      value = convertOrFail(std::move(combined), target->type, at, fmt::format("'{}'", op.text));
    }
    s->targetSlots = lvalueSlots(*target);
    s->exprs.push_back(std::move(target));
    s->exprs.push_back(std::move(rhs));
    s->exprs.push_back(std::move(value));
    return s;
  }

  StmtPtr finishIncrement(std::unique_ptr<Stmt> s, ExprPtr target, size_t at) {
    checkAssignable(*target, at);
    if (!target->type.isScalar() && !target->type.isVector())
      fail(at, fmt::format("cannot increment a value of type {}", cTypeName(target->type)));
    auto one = node(Expr::Kind::Literal, Type::int_(), at);
    one->text = "1";
    one->value.i = 1;
    auto combined = binary(s->assignOp == AssignOp::Inc ? BinaryOp::Add : BinaryOp::Sub, cloneRvalue(*target),
                           std::move(one), at);
    ExprPtr value = convert(std::move(combined), target->type);
    s->targetSlots = lvalueSlots(*target);
    s->exprs.push_back(std::move(target));
    s->exprs.push_back(nullptr);
    s->exprs.push_back(std::move(value));
    return s;
  }

  void checkAssignable(const Expr& e, size_t offset) const {
    switch (e.kind) {
      case Expr::Kind::Var: {
        const Variable& v = body_->vars[e.var];
        if (v.isConst) fail(offset, fmt::format("cannot assign to const variable '{}'", v.name));
        return;
      }
      case Expr::Kind::Field:
        checkAssignable(*e.operands[0], offset);
        return;
      case Expr::Kind::Component: {
        checkAssignable(*e.operands[0], offset);
        for (size_t i = 0; i < e.lanes.size(); ++i)
          for (size_t j = i + 1; j < e.lanes.size(); ++j)
            if (e.lanes[i] == e.lanes[j])
              fail(offset, fmt::format("cannot assign to '{}': it names a component twice", e.text));
        return;
      }
      default:
        fail(offset,
             "the left-hand side of an assignment must be a variable, a vector component or a tuple field");
    }
  }

  std::vector<uint32_t> lvalueSlots(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::Var: {
        const Variable& v = body_->vars[e.var];
        std::vector<uint32_t> s(slotCount(v.type));
        for (uint32_t i = 0; i < s.size(); ++i) s[i] = v.slot + i;
        return s;
      }
      case Expr::Kind::Field: {
        auto base = lvalueSlots(*e.operands[0]);
        uint32_t off = fieldOffset(e.operands[0]->type, e.lanes[0]);
        return std::vector<uint32_t>(base.begin() + off, base.begin() + off + slotCount(e.type));
      }
      case Expr::Kind::Component: {
        auto base = lvalueSlots(*e.operands[0]);
        std::vector<uint32_t> s;
        for (int l : e.lanes) s.push_back(base[l]);
        return s;
      }
      default:
        break;
    }
    LIFT_ASSERT(false, "not an lvalue");
  }

  // A copy of an expression tree with fresh slots (variables keep theirs).
  ExprPtr cloneRvalue(const Expr& e) {
    auto c = std::make_unique<Expr>();
    c->kind = e.kind;
    setType(*c, e.type);
    c->loc = e.loc;
    c->slot = e.kind == Expr::Kind::Var ? e.slot : allocate(e.type);
    c->offset = e.offset;
    c->text = e.text;
    c->value = e.value;
    c->var = e.var;
    c->unaryOp = e.unaryOp;
    c->binaryOp = e.binaryOp;
    c->builtin = e.builtin;
    c->lanes = e.lanes;
    c->implicit = e.implicit;
    for (auto& o : e.operands) c->operands.push_back(o ? cloneRvalue(*o) : nullptr);
    return c;
  }

  StmtPtr ifStatement() {
    const Token& kw = next();
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::If;
    s->loc = locAt(kw.offset);
    expect("(", "after 'if'");
    size_t at = peek().offset;
    s->exprs.push_back(toCondition(expression(), at, "the condition of 'if'"));
    expect(")", "to close the condition");
    s->body.push_back(scopedStatement());
    if (isKeyword("else")) {
      next();
      s->body.push_back(scopedStatement());
    }
    return s;
  }

  // A statement in its own scope (a declaration as the body of an if or loop stays local).
  StmtPtr scopedStatement() {
    scopes_.emplace_back();
    auto s = statement();
    scopes_.pop_back();
    return s;
  }

  StmtPtr forStatement() {
    const Token& kw = next();
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::For;
    s->loc = locAt(kw.offset);
    expect("(", "after 'for'");
    scopes_.emplace_back();
    s->body.push_back(isPunct(";") ? nullptr : simpleStatement());
    expect(";", "after the loop's initialisation");
    if (isPunct(";")) {
      s->exprs.push_back(nullptr);
    } else {
      size_t at = peek().offset;
      s->exprs.push_back(toCondition(expression(), at, "the loop condition"));
    }
    expect(";", "after the loop condition");
    s->body.push_back(isPunct(")") ? nullptr : assignment());
    expect(")", "to close the loop header");
    ++loopDepth_;
    s->body.push_back(scopedStatement());
    --loopDepth_;
    scopes_.pop_back();
    return s;
  }

  StmtPtr whileStatement() {
    const Token& kw = next();
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::While;
    s->loc = locAt(kw.offset);
    expect("(", "after 'while'");
    size_t at = peek().offset;
    s->exprs.push_back(toCondition(expression(), at, "the loop condition"));
    expect(")", "to close the loop condition");
    ++loopDepth_;
    s->body.push_back(scopedStatement());
    --loopDepth_;
    return s;
  }

  // ----- expressions -----

  ExprPtr expression() {
    Nest nest(*this);
    if (fullExpressions_++ == 0) expressionNodes_ = 0;
    struct Leave {
      int& level;
      ~Leave() { --level; }
    } leave{fullExpressions_};
    return conditional();
  }

  ExprPtr conditional() {
    size_t at = peek().offset;
    auto c = binaryLevel(0);
    if (!isPunct("?")) return c;
    const Token& q = next();
    c = toCondition(std::move(c), at, "the condition of '?:'");
    size_t atThen = peek().offset;
    auto a = expression();
    expect(":", "in the conditional expression");
    size_t atElse = peek().offset;
    auto b = conditional();
    Type t;
    if (a->type == b->type)
      t = a->type;
    else if (!(t = commonType(a->type, b->type)))
      fail(q.offset, fmt::format("the branches of '?:' have incompatible types {} and {}", cTypeName(a->type),
                                 cTypeName(b->type)));
    auto e = node(Expr::Kind::Cond, t, q.offset);
    e->operands.push_back(std::move(c));
    e->operands.push_back(convertOrFail(std::move(a), t, atThen, "'?:'"));
    e->operands.push_back(convertOrFail(std::move(b), t, atElse, "'?:'"));
    return e;
  }

  // Binary operators by precedence level, loosest first.
  struct OpInfo {
    const char* text;
    BinaryOp op;
  };
  static const std::vector<std::vector<OpInfo>>& levels() {
    static const std::vector<std::vector<OpInfo>> l = {
        {{"||", BinaryOp::LogOr}},
        {{"&&", BinaryOp::LogAnd}},
        {{"|", BinaryOp::BitOr}},
        {{"^", BinaryOp::BitXor}},
        {{"&", BinaryOp::BitAnd}},
        {{"==", BinaryOp::Eq}, {"!=", BinaryOp::Ne}},
        {{"<", BinaryOp::Lt}, {"<=", BinaryOp::Le}, {">", BinaryOp::Gt}, {">=", BinaryOp::Ge}},
        {{"<<", BinaryOp::Shl}, {">>", BinaryOp::Shr}},
        {{"+", BinaryOp::Add}, {"-", BinaryOp::Sub}},
        {{"*", BinaryOp::Mul}, {"/", BinaryOp::Div}, {"%", BinaryOp::Mod}},
    };
    return l;
  }

  ExprPtr binaryLevel(size_t level) {
    if (level == levels().size()) return unary();
    auto lhs = binaryLevel(level + 1);
    while (true) {
      const OpInfo* found = nullptr;
      for (auto& o : levels()[level])
        if (isPunct(o.text)) found = &o;
      if (!found) return lhs;
      const Token& op = next();
      auto rhs = binaryLevel(level + 1);
      lhs = binary(found->op, std::move(lhs), std::move(rhs), op.offset);
    }
  }

  ExprPtr binary(BinaryOp op, ExprPtr a, ExprPtr b, size_t offset) {
    static const char* const names[] = {"+", "-", "*",  "/", "%",  "<<", ">>", "&",  "|",
                                        "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    const char* name = names[static_cast<int>(op)];
    auto incompatible = [&] {
      fail(offset,
           fmt::format("invalid operands to '{}': {} and {}", name, cTypeName(a->type), cTypeName(b->type)));
    };
    if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr) {
      if (!a->type.isScalar() || !b->type.isScalar()) incompatible();
      auto e = node(Expr::Kind::Binary, Type::int_(), offset);
      e->binaryOp = op;
      e->operands.push_back(convert(std::move(a), Type::bool_()));
      e->operands.push_back(convert(std::move(b), Type::bool_()));
      return e;
    }
    Type t = commonType(a->type, b->type);
    if (!t) incompatible();
    bool integral = isIntegral(t.scalarKind());
    bool intOnly = op == BinaryOp::Mod || op == BinaryOp::Shl || op == BinaryOp::Shr ||
                   op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
    if (intOnly && !integral)
      fail(offset, fmt::format("'{}' needs integer operands, not {} and {}{}", name, cTypeName(a->type),
                               cTypeName(b->type), op == BinaryOp::Mod ? " (use fmod for floats)" : ""));
    bool comparison = op >= BinaryOp::Lt && op <= BinaryOp::Ne;
    Type result = comparison ? withWidth(ScalarKind::Int, widthOf(t)) : t;
    auto e = node(Expr::Kind::Binary, result, offset);
    e->binaryOp = op;
    e->operands.push_back(convert(std::move(a), t));
    e->operands.push_back(convert(std::move(b), t));
    return e;
  }

  ExprPtr unary() {
    Nest nest(*this);
    const Token& t = peek();
    if (isPunct("-") || isPunct("+") || isPunct("!") || isPunct("~")) {
      next();
      auto operand = unary();
      UnaryOp op = t.text == "-"   ? UnaryOp::Neg
                   : t.text == "+" ? UnaryOp::Plus
                   : t.text == "!" ? UnaryOp::Not
                                   : UnaryOp::BitNot;
      if (!isNumeric(operand->type))
        fail(t.offset, fmt::format("invalid operand to '{}': {}", t.text, cTypeName(operand->type)));
      if (op == UnaryOp::Not) {
        if (!operand->type.isScalar())
          fail(t.offset, fmt::format("invalid operand to '!': {}", cTypeName(operand->type)));
        auto e = node(Expr::Kind::Unary, Type::int_(), t.offset);
        e->unaryOp = op;
        e->operands.push_back(convert(std::move(operand), Type::bool_()));
        return e;
      }
      Type rt = operand->type;
      if (rt.scalarKind() == ScalarKind::Bool) rt = Type::int_();
      if (op == UnaryOp::BitNot && !isIntegral(rt.scalarKind()))
        fail(t.offset, fmt::format("'~' needs an integer operand, not {}", cTypeName(operand->type)));
      auto e = node(Expr::Kind::Unary, rt, t.offset);
      e->unaryOp = op;
      e->operands.push_back(convert(std::move(operand), rt));
      return e;
    }
    if (isPunct("++") || isPunct("--"))
      fail(t.offset, fmt::format("'{}' is a statement here, not part of an expression", t.text));
    if (isPunct("(")) {
      if (auto type = tryTypeName(1); type && isPunct(")", 2)) return castOrConstructor(*type);
    }
    return postfixExpression();
  }

  // After '(' TYPE ')': a cast, a vector literal (float4)(a, b, c, d) or a tuple literal
  // (Tuple2_float_int){a, b}.
  ExprPtr castOrConstructor(Type type) {
    const Token& open = next();
    next();
    expect(")");
    if (type.isTuple()) {
      if (!isPunct("{"))
        fail(peek().offset, fmt::format("a tuple is built with braces: ({}){{a, b}}", cTypeName(type)));
      const Token& brace = next();
      std::vector<ExprPtr> items;
      std::vector<size_t> at;
      if (!isPunct("}")) {
        do {
          at.push_back(peek().offset);
          items.push_back(expression());
        } while (accept(","));
      }
      expect("}", "to close the tuple");
      return tupleCons(type, std::move(items), at, brace.offset);
    }
    if (type.isVector() && isPunct("(")) {
      next();
      std::vector<ExprPtr> items;
      std::vector<size_t> at;
      do {
        at.push_back(peek().offset);
        items.push_back(expression());
      } while (accept(","));
      expect(")", "to close the vector literal");
      return vectorCons(type, std::move(items), at, open.offset);
    }
    size_t at = peek().offset;
    auto operand = unary();
    if (type.isVector() && operand->type.isVector() && operand->type != type)
      fail(at, fmt::format("cannot cast {} to {}; use convert_{}", cTypeName(operand->type), cTypeName(type),
                           cTypeName(type)));
    if (!operand->type.isScalar() && operand->type != type)
      fail(at, fmt::format("cannot cast {} to {}", cTypeName(operand->type), cTypeName(type)));
    auto c = node(Expr::Kind::Convert, type, open.offset);
    c->operands.push_back(std::move(operand));
    return c;
  }

  ExprPtr vectorCons(Type type, std::vector<ExprPtr> items, const std::vector<size_t>& at, size_t offset) {
    Type elem = Type::scalar(type.scalarKind());
    if (items.size() == 1 && items[0]->type.isScalar()) {
      auto e = node(Expr::Kind::VectorCons, type, offset);
      e->operands.push_back(convert(std::move(items[0]), elem));
      return e;
    }
    int lanes = 0;
    auto e = node(Expr::Kind::VectorCons, type, offset);
    for (size_t i = 0; i < items.size(); ++i) {
      Type t = items[i]->type;
      if (t.isScalar()) {
        e->operands.push_back(convert(std::move(items[i]), elem));
        lanes += 1;
      } else if (t.isVector()) {
        e->operands.push_back(convert(std::move(items[i]), withWidth(type.scalarKind(), t.vectorWidth())));
        lanes += t.vectorWidth();
      } else {
        fail(at[i], fmt::format("a {} cannot be a component of {}", cTypeName(t), cTypeName(type)));
      }
    }
    if (lanes != type.vectorWidth())
      fail(offset, fmt::format("{} needs {} components, but {} were given", cTypeName(type),
                               type.vectorWidth(), lanes));
    return e;
  }

  ExprPtr tupleCons(Type type, std::vector<ExprPtr> items, const std::vector<size_t>& at, size_t offset) {
    auto elems = type.tupleElems();
    if (items.size() != elems.size())
      fail(offset, fmt::format("{} has {} fields, but {} values were given", cTypeName(type), elems.size(),
                               items.size()));
    auto e = node(Expr::Kind::TupleCons, type, offset);
    for (size_t i = 0; i < items.size(); ++i)
      e->operands.push_back(convertOrFail(std::move(items[i]), elems[i], at[i], fmt::format("field _{}", i)));
    return e;
  }

  ExprPtr postfixExpression() {
    auto e = primary();
    while (isPunct(".")) {
      next();
      const Token& m = peek();
      if (m.kind != Token::Kind::Ident && m.kind != Token::Kind::Int)
        fail(m.offset, fmt::format("expected a component name after '.' but found {}", describe(m)));
      next();
      e = member(std::move(e), m);
    }
    if (isPunct("[")) fail(peek().offset, "indexing is not supported in user functions");
    return e;
  }

  ExprPtr member(ExprPtr base, const Token& m) {
    const std::string& name = m.text;
    if (base->type.isTuple()) {
      auto elems = base->type.tupleElems();
      if (name.size() >= 2 && name[0] == '_' && std::all_of(name.begin() + 1, name.end(), isDigit)) {
        size_t k = 0;
        auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), k);
        if (ec == std::errc() && end == name.data() + name.size() && k < elems.size()) {
          auto e = node(Expr::Kind::Field, elems[k], m.offset);
          e->lanes = {static_cast<int>(k)};
          e->offset = fieldOffset(base->type, k);
          e->text = "." + name;
          e->operands.push_back(std::move(base));
          return e;
        }
      }
      fail(m.offset, fmt::format("{} has no field '{}' (its fields are _0 .. _{})", cTypeName(base->type),
                                 name, elems.size() - 1));
    }
    if (!base->type.isVector())
      fail(m.offset, fmt::format("a value of type {} has no component '{}'", cTypeName(base->type), name));
    int w = base->type.vectorWidth();
    std::vector<int> lanes;
    auto bad = [&] { fail(m.offset, fmt::format("{} has no component '{}'", cTypeName(base->type), name)); };
    if (name == "lo" || name == "hi" || name == "even" || name == "odd") {
      int half = (w + 1) / 2;  // a float3 behaves as a float4 here
      for (int i = 0; i < half; ++i) {
        int l = name == "lo" ? i : name == "hi" ? half + i : name == "even" ? 2 * i : 2 * i + 1;
        lanes.push_back(l);
      }
    } else if ((name[0] == 's' || name[0] == 'S') && name.size() > 1) {
      for (size_t i = 1; i < name.size(); ++i) {
        char c = static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
        int l = isDigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? 10 + c - 'a' : -1;
        if (l < 0) bad();
        lanes.push_back(l);
      }
    } else {
      for (char c : name) {
        const char* xyzw = "xyzw";
        const char* p = std::strchr(xyzw, c);
        if (!p || c == 0) bad();
        lanes.push_back(static_cast<int>(p - xyzw));
      }
    }
    for (int l : lanes)
      if (l >= w)
        fail(m.offset, fmt::format("component '{}' is out of range for {}", name, cTypeName(base->type)));
    int n = static_cast<int>(lanes.size());
    if (n != 1 && !validVectorWidth(n))
      fail(m.offset, fmt::format("'{}' selects {} components; a vector has 2, 3, 4, 8 or 16", name, n));
    auto e = node(Expr::Kind::Component, withWidth(base->type.scalarKind(), n), m.offset);
    e->lanes = std::move(lanes);
    e->text = "." + name;
    e->operands.push_back(std::move(base));
    return e;
  }

  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Token::Kind::Int:
        return intLiteral(next());
      case Token::Kind::Float:
        return floatLiteral(next());
      case Token::Kind::End:
        fail(t.offset, "expected an expression but the body ends here");
      case Token::Kind::Punct:
        if (t.text == "(") {
          next();
          auto e = expression();
          expect(")", "to close the parenthesis");
          return e;
        }
        fail(t.offset, fmt::format("expected an expression but found '{}'", t.text));
      case Token::Kind::Ident:
        break;
    }
    next();
    if (t.text == "true" || t.text == "false") {
      auto e = node(Expr::Kind::Literal, Type::bool_(), t.offset);
      e->text = t.text;
      e->value.b = t.text == "true";
      return e;
    }
    if (isPunct("(")) return call(t);
    int v = lookup(t.text);
    if (v >= 0 && v == initialising_)
      fail(t.offset, fmt::format("'{}' is used in its own initialiser", t.text));
    if (v < 0) {
      if (typeFromName(t.text, t.offset))
        fail(t.offset, fmt::format("unexpected type name '{}' (a cast is written ({})x)", t.text, t.text));
      if (findBuiltin(t.text))
        fail(t.offset, fmt::format("'{}' is a function; call it with arguments", t.text));
      fail(t.offset, fmt::format("unknown name '{}'{}", t.text, suggestion(t.text, visibleNames())));
    }
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Var;
    setType(*e, body_->vars[v].type);
    e->loc = locAt(t.offset);
    e->var = v;
    e->slot = body_->vars[v].slot;
    e->text = t.text;
    return e;
  }

  ExprPtr call(const Token& name) {
    expect("(");
    std::vector<ExprPtr> args;
    std::vector<size_t> at;
    if (!isPunct(")")) {
      do {
        at.push_back(peek().offset);
        args.push_back(expression());
      } while (accept(","));
    }
    expect(")", "to close the argument list");
    // convert_T(x): an explicit conversion, element-wise for vectors.
    if (name.text.rfind("convert_", 0) == 0) {
      std::string target = name.text.substr(8);
      for (const char* suffix : {"_rte", "_rtz", "_rtp", "_rtn", "_sat"})
        if (target.size() > 4 && target.compare(target.size() - 4, 4, suffix) == 0)
          fail(name.offset, fmt::format("rounding and saturation modes are not supported: {}", name.text));
      auto to = scalarOrVector(target);
      if (!to) fail(name.offset, fmt::format("unknown conversion '{}'", name.text));
      if (args.size() != 1) fail(name.offset, fmt::format("{} takes one argument", name.text));
      Type from = args[0]->type;
      if (!isNumeric(from) || widthOf(from) != widthOf(*to))
        fail(at[0], fmt::format("{} cannot convert a {}", name.text, cTypeName(from)));
      auto c = node(Expr::Kind::Convert, *to, name.offset);
      c->text = name.text;
      c->operands.push_back(std::move(args[0]));
      return c;
    }
    const BuiltinFunction* b = findBuiltin(name.text);
    if (!b) {
      if (lookup(name.text) >= 0)
        fail(name.offset, fmt::format("'{}' is a variable, not a function", name.text));
      if (auto t = scalarOrVector(name.text))
        fail(name.offset,
             fmt::format("a vector literal is written ({})(...), a cast ({})x", name.text, name.text));
      fail(name.offset,
           fmt::format("unknown function '{}'{}", name.text, suggestion(name.text, builtinNames())));
    }
    std::vector<Type> argTypes;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!isNumeric(args[i]->type))
        fail(at[i], fmt::format("{} cannot take a {}", name.text, cTypeName(args[i]->type)));
      argTypes.push_back(args[i]->type);
    }
    BuiltinTyping typing = typeBuiltin(*b, argTypes);
    if (!typing.error.empty()) fail(name.offset, typing.error);
    auto e = node(Expr::Kind::Call, typing.result, name.offset);
    e->builtin = b;
    e->text = name.text;
    for (size_t i = 0; i < args.size(); ++i)
      e->operands.push_back(convert(std::move(args[i]), typing.params[i]));
    return e;
  }

  ExprPtr intLiteral(const Token& t) {
    const std::string& s = t.text;
    bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t digitsEnd = hex ? 2 : 0;
    while (digitsEnd < s.size() &&
           (hex ? std::isxdigit(static_cast<unsigned char>(s[digitsEnd])) : isDigit(s[digitsEnd])))
      ++digitsEnd;
    if (digitsEnd != s.size() || (hex && s.size() == 2)) {
      std::string suffix = s.substr(digitsEnd);
      if (!suffix.empty() &&
          std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::strchr("uUlL", c); }))
        fail(t.offset,
             fmt::format("'{}': unsigned and long literals are not supported (types are 32-bit int)", s));
      fail(t.offset, fmt::format("malformed number '{}'", s));
    }
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, hex ? 16 : 10);
    bool octal = !hex && s.size() > 1 && s[0] == '0';
    if (octal) fail(t.offset, fmt::format("octal literal '{}' is not supported; remove the leading 0", s));
    if (errno == ERANGE || v > static_cast<unsigned long long>(std::numeric_limits<int32_t>::max()))
      fail(t.offset, fmt::format("integer literal {} does not fit in a 32-bit int", s));
    auto e = node(Expr::Kind::Literal, Type::int_(), t.offset);
    e->text = s;
    e->value.i = static_cast<int32_t>(v);
    return e;
  }

  ExprPtr floatLiteral(const Token& t) {
    std::string s = t.text;
    bool isFloat = s.back() == 'f' || s.back() == 'F';
    std::string digits = isFloat ? s.substr(0, s.size() - 1) : s;
    char* end = nullptr;
    errno = 0;
    double d = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() ||
        digits.find_first_of("xX") != std::string::npos || digits.find_first_of(".eE") == std::string::npos)
      fail(t.offset, fmt::format("malformed number '{}'", s));
    auto e = node(Expr::Kind::Literal, isFloat ? Type::float_() : Type::double_(), t.offset);
    e->text = s;
    if (isFloat) {
      float f = std::strtof(digits.c_str(), nullptr);
      if (std::isinf(f)) fail(t.offset, fmt::format("float literal {} is out of range", s));
      e->value.f = f;
    } else {
      if (std::isinf(d)) fail(t.offset, fmt::format("double literal {} is out of range", s));
      e->value.d = d;
    }
    return e;
  }

  const std::string& text_;
  LineIndex lines_;  // positions of the text's offsets, for every token's location
  std::string file_;
  int line0_, col0_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::shared_ptr<Body> body_;
  std::vector<std::map<std::string, int>> scopes_;
  std::vector<Type> paramTypes_;
  uint32_t nextSlot_ = 0;
  int loopDepth_ = 0;
  int initialising_ = -1;  // the variable whose initialiser is being parsed
  int nesting_ = 0;
  int fullExpressions_ = 0;     // expression() calls under way: > 0 inside a full expression
  size_t expressionNodes_ = 0;  // nodes of the current full expression
};

}  // namespace

std::shared_ptr<const Body> parseBody(const std::string& text,
                                      const std::vector<std::pair<std::string, Type>>& params,
                                      Type returnType, const std::string& file, int line, int col) {
  Parser p(text, params, returnType, file, std::max(line, 1), std::max(col, 1));
  return p.parse();
}

}  // namespace lift::cfun
