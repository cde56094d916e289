// Recursive-descent parser of .lift programs into the IR.
//
// An expression parses to a Term: either a value (an IR expression) or a function (an
// ir::Callable). Composition and `$`/`|>` build call chains directly (the IR has no composition
// node), and a function used as a value, e.g. map's argument, becomes a lambda only where
// needed (ir::Callable::toFun). Binary operators are parsed with loops, not recursion, so a long
// chain cannot exhaust the stack; nesting is bounded by kMaxNesting.
#include "core/lang/Parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_set>

#include "core/cfun/CFun.h"
#include "core/ir/Build.h"
#include "core/ir/Prelude.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Lexer.h"
#include "core/support/FileRead.h"

namespace lift::lang {

using ir::Callable;
using ir::Expr;
using ir::Fun;
using ir::PatternKind;

namespace {

// The largest integer allowed in a size expression or as a size default.
constexpr int64_t kMaxSizeLiteral = INT32_MAX;

// Items of one list: arguments of a call, inputs, parameters, components of a tuple type, sizes.
// Code generation is superlinear in the width of a tuple (a 10,001-way zip took 16 s to
// compile), and no device takes more than a few hundred kernel arguments.
constexpr size_t kMaxListLength = 256;

const char* const kKeywords[] = {"fun", "userfun", "size", "o", "true", "false", "zeros", "fill"};

// Pattern names that take a numeric suffix instead of a parenthesised first argument.
struct SuffixForm {
  const char* base;
  int maxValue;  // inclusive
};
const SuffixForm kSuffixForms[] = {{"split", INT32_MAX}, {"iterate", INT32_MAX}, {"asVector", 16},
                                   {"vectorize", 16},    {"mapGlb", 2},          {"mapWrg", 2},
                                   {"mapLcl", 2},        {"mapAtomWrg", 2},      {"mapAtomLcl", 2}};

// "split128" -> ("split", 128). nullopt unless `name` is a base followed by digits.
std::optional<std::pair<std::string, int64_t>> splitSuffix(const std::string& name) {
  for (const auto& f : kSuffixForms) {
    std::string base = f.base;
    if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0) continue;
    std::string digits = name.substr(base.size());
    if (digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    int64_t v = std::stoll(digits);
    if (v > f.maxValue) continue;
    return std::make_pair(base, v);
  }
  return std::nullopt;
}

// Edit distance counting insertions, deletions, substitutions and swaps of adjacent characters
// (optimal string alignment), so that "mpa" is one edit away from "map".
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// "; did you mean 'map'?" for the closest candidate, or "".
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  if (name.size() > 64) return "";
  size_t bestDist = std::max<size_t>(1, name.size() / 3) + 1;
  for (auto& c : candidates) {
    size_t d = editDistance(name, c);
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
}

std::vector<std::string> patternNames() {
  std::vector<std::string> out;
#define LIFT_PATTERN_NAME(E, name, level) out.emplace_back(name);
  LIFT_PATTERNS(LIFT_PATTERN_NAME)
#undef LIFT_PATTERN_NAME
  for (auto& p : ir::preludeNames()) out.push_back(p);
  return out;
}

std::optional<Type> namedType(const std::string& name) {
  static const std::map<std::string, ScalarKind> scalars = {{"float", ScalarKind::Float},
                                                            {"double", ScalarKind::Double},
                                                            {"int", ScalarKind::Int},
                                                            {"bool", ScalarKind::Bool}};
  if (auto it = scalars.find(name); it != scalars.end()) return Type::scalar(it->second);
  for (auto& [base, kind] : scalars) {
    if (kind == ScalarKind::Bool || name.size() <= base.size() || name.compare(0, base.size(), base) != 0)
      continue;
    std::string w = name.substr(base.size());
    if (w == "2" || w == "3" || w == "4" || w == "8" || w == "16") return Type::vector(kind, std::stoi(w));
  }
  return std::nullopt;
}

std::vector<std::string> typeNames() {
  std::vector<std::string> out;
  for (const char* base : {"float", "double", "int"}) {
    out.emplace_back(base);
    for (const char* w : {"2", "3", "4", "8", "16"}) out.push_back(std::string(base) + w);
  }
  out.emplace_back("bool");
  return out;
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& file) : lex_(text, file), text_(text) {}

  ir::Program program();
  Type typeOnly(const std::vector<ir::SizeDecl>& sizes) {
    for (auto& s : sizes) sizeVars_[s.name] = s.var;
    Type t = type();
    expect(Tok::End, "the end of the type");
    return t;
  }

 private:
  // An expression parsed so far: a value or a function; `tok` is where it starts.
  struct Term {
    Expr value;
    Callable fn;
    Token tok;
    // An upper bound of the depth of the IR it stands for: kept below kMaxProgramDepth while
    // parsing, so that no pass (nor the destructors) recurses too deeply on what is built.
    int depth = 1;
    bool isValue() const { return value != nullptr; }
  };

  // Refuses a list that grew beyond kMaxListLength, at its next item.
  void checkListLength(size_t items, const Token& at, const char* what) {
    if (items >= kMaxListLength) error(at, fmt::format("too many {} (at most {})", what, kMaxListLength));
  }

  struct Nest {
    Nest(Parser& p, const Token& at) : p_(p) {
      if (++p_.nesting_ > kMaxNesting)
        p_.lex_.error(at, fmt::format("nested too deeply (more than {} levels)", kMaxNesting));
    }
    ~Nest() { --p_.nesting_; }
    Parser& p_;
  };

  // ----- tokens ---------------------------------------------------------------------------

  const Token& peek(size_t k = 0) { return lex_.peek(k); }
  Token next() { return lex_.next(); }
  bool atIdent(const char* word, size_t k = 0) { return peek(k).kind == Tok::Ident && peek(k).text == word; }
  bool accept(Tok k) {
    if (peek().kind != k) return false;
    next();
    return true;
  }
  Token expect(Tok k, const std::string& what) {
    if (peek().kind != k) lex_.error(peek(), fmt::format("expected {}, found {}", what, describe(peek())));
    return next();
  }
  Token expectIdent(const std::string& what) { return expect(Tok::Ident, what); }
  [[noreturn]] void error(const Token& at, const std::string& message) { lex_.error(at, message); }
  SourceLoc loc(const Token& t) const { return lex_.locOf(t); }

  // ----- names ----------------------------------------------------------------------------

  void checkNewName(const Token& t, const char* what) {
    std::string name(t.text);
    if (isReservedName(name))
      error(t, fmt::format("'{}' is a reserved name and cannot name a {}", name, what));
  }

  std::vector<std::string> namesInScope() const {
    std::vector<std::string> out = patternNames();
    for (const char* k : kKeywords) out.emplace_back(k);
    for (auto& [n, p] : scope_) out.push_back(n);
    for (auto& u : userFuns_) out.push_back(u->name);
    return out;
  }

  const ir::Param* lookupParam(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

  std::shared_ptr<const ir::UserFunDef> lookupUserFun(const std::string& name) const {
    for (auto& u : userFuns_)
      if (u->name == name) return u;
    return nullptr;
  }

  // ----- top level ------------------------------------------------------------------------

  void sizeDecl();
  void userFunDecl();
  void mainDecl();
  void checkProgramDepth(const ir::Program& p);

  // ----- types and sizes ------------------------------------------------------------------

  Type type();
  arith::Expr sizeExpr();
  arith::Expr sizeTerm();
  arith::Expr sizeFactor();
  int64_t integer(const Token& t, int64_t max, const char* what);

  // ----- expressions ----------------------------------------------------------------------

  Term expr();
  Term pipe();
  Term composition();
  Term application();
  Term primary();
  Term identifier(const Token& t);
  std::optional<Term> pattern(const Token& t);
  std::optional<Term> prelude(const Token& t);
  Term allPairs(const Token& t);
  void locateNew(const ir::NodeRef& root, const Token& t, const std::vector<const ir::Node*>& done);
  void padding(ir::PatternNode::Params& ps);
  Term lambda(const Token& funTok);
  Term literal(const Token& t, bool negative);
  Term castLiteral(const Token& open);
  Term arrayLiteral(const Token& t, bool fill);

  int checkDepth(int depth, const Token& t) {
    if (depth > kMaxProgramDepth)
      error(t, fmt::format("program nested too deeply (more than {} levels)", kMaxProgramDepth));
    return depth;
  }
  Term valueTerm(Expr e, const Token& t, int depth = 1) {
    return Term{std::move(e), {}, t, checkDepth(depth, t)};
  }
  Term fnTerm(Fun f, const Token& t, int depth = 1) {
    locs_[f->id()] = loc(t);
    Callable c(std::move(f));
    c.at(loc(t));
    return Term{nullptr, std::move(c), t, checkDepth(depth, t)};
  }
  Term fnTerm(Callable c, const Token& t, int depth = 1) {
    if (c.decl()) locs_[c.decl()->id()] = loc(t);
    c.at(loc(t));
    return Term{nullptr, std::move(c), t, checkDepth(depth, t)};
  }
  Expr requireValue(const Term& t, const std::string& context) {
    if (!t.isValue()) error(t.tok, fmt::format("{} must be a value, but this is a function", context));
    return t.value;
  }
  const Callable& requireFn(const Term& t, const std::string& context) {
    if (t.isValue()) error(t.tok, fmt::format("{} must be a function, but this is a value", context));
    return t.fn;
  }
  // A built-in function of several arguments used as a value (`map(fma)`, `map(dot)`) becomes the
  // lambda of as many parameters applying it, so that it takes a tuple argument apart as a user
  // function does (`map(fma) $ zip(a, b, c)`); the printer writes that lambda back by name.
  Fun nestedFun(const Term& t, const std::string& context) {
    Fun f = requireFn(t, context).toFun(&locs_);
    const ir::PatternNode* p = ir::asPattern(f);
    if (!p || (p->pattern() != PatternKind::Fma && p->pattern() != PatternKind::Dot)) return f;
    std::vector<ir::Param> params;
    std::vector<Expr> args;
    for (const char* name : {"a", "b", "c"}) {
      if (params.size() == (p->pattern() == PatternKind::Fma ? 3u : 2u)) break;
      params.push_back(ir::param(name));
      args.push_back(params.back());
      locs_[params.back()->id()] = loc(t.tok);
    }
    Expr body = ir::CallNode::make(f, std::move(args));
    ir::Lambda l = ir::LambdaNode::make(std::move(params), body);
    locs_[body->id()] = locs_[l->id()] = loc(t.tok);
    return l;
  }
  Expr apply(const Callable& f, std::vector<Expr> args) { return f.apply(std::move(args), &locs_); }
  Term patternTerm(PatternKind k, ir::PatternNode::Params p, const Token& t, int depth = 1) {
    return fnTerm(ir::pattern(k, std::move(p)), t, depth);
  }
  // A function argument of pattern `name`: `map(<this>)`.
  Term funArg(const std::string& name) {
    Term t = expr();
    requireFn(t, fmt::format("the argument of {}", name));
    return t;
  }
  // Comma-separated values up to ')'; `depth` receives the largest depth among them.
  std::vector<Expr> valueArgs(const std::string& context, int& depth) {
    std::vector<Expr> args;
    depth = 0;
    if (peek().kind != Tok::RParen) {
      do {
        checkListLength(args.size(), peek(), "arguments");
        Term a = expr();
        args.push_back(requireValue(a, fmt::format("an argument of {}", context)));
        depth = std::max(depth, a.depth);
      } while (accept(Tok::Comma));
    }
    expect(Tok::RParen, "')' after the arguments");
    return args;
  }

  Lexer lex_;
  const std::string& text_;
  ir::LocationMap locs_;
  std::vector<ir::SizeDecl> sizes_;
  std::map<std::string, arith::Expr> sizeVars_;
  std::vector<std::shared_ptr<const ir::UserFunDef>> userFuns_;
  std::vector<std::pair<std::string, ir::Param>> scope_;  // innermost last
  ir::Lambda main_;
  std::string mainName_;
  int nesting_ = 0;  // current syntactic nesting (Nest)
};

// ----- top level ---------------------------------------------------------------------------

ir::Program Parser::program() {
  while (peek().kind != Tok::End) {
    const Token& t = peek();
    if (atIdent("size")) {
      sizeDecl();
    } else if (atIdent("userfun")) {
      userFunDecl();
    } else if (atIdent("fun")) {
      if (main_) error(t, "a second program function: a file holds one 'fun NAME(inputs) = expression'");
      mainDecl();
    } else {
      std::string hint =
          t.kind == Tok::Ident ? didYouMean(std::string(t.text), {"size", "userfun", "fun"}) : "";
      error(t, fmt::format("expected 'size', 'userfun' or 'fun', found {}{}", describe(t), hint));
    }
  }
  if (!main_) error(peek(), "no program: expected 'fun NAME(inputs) = expression'");
  ir::Program p;
  p.file = lex_.file();
  p.name = mainName_;
  p.sizes = sizes_;
  p.userFuns = userFuns_;
  p.main = main_;
  p.locations = std::make_shared<const ir::LocationMap>(std::move(locs_));
  p.source = std::make_shared<const std::string>(text_);
  checkProgramDepth(p);
  return p;
}

void Parser::sizeDecl() {
  next();  // size
  do {
    checkListLength(sizes_.size(), peek(), "sizes");
    Token name = expectIdent("a size name");
    checkNewName(name, "size");
    std::string n(name.text);
    for (auto& s : sizes_)
      if (s.name == n)
        error(name, fmt::format("size '{}' is declared twice (first at line {})", n, s.loc.line));
    if (lookupUserFun(n)) error(name, fmt::format("'{}' is already a user function", n));
    ir::SizeDecl d{n, std::nullopt, arith::sizeVar(n), loc(name)};
    if (accept(Tok::Assign)) {
      Token v = expect(Tok::Number, fmt::format("the default value of size '{}'", n));
      d.defaultValue = integer(v, kMaxSizeLiteral, "a size");
      if (*d.defaultValue < 1) error(v, fmt::format("size '{}' must be at least 1", n));
    }
    sizeVars_[n] = d.var;
    sizes_.push_back(std::move(d));
  } while (accept(Tok::Comma));
  expect(Tok::Semi, "';' after the size declaration");
}

void Parser::userFunDecl() {
  next();  // userfun
  Token name = expectIdent("the name of the user function");
  checkNewName(name, "user function");
  std::string n(name.text);
  if (lookupUserFun(n)) error(name, fmt::format("user function '{}' is defined twice", n));
  if (sizeVars_.count(n)) error(name, fmt::format("'{}' is already a size", n));
  auto def = std::make_shared<ir::UserFunDef>();
  def->name = n;
  def->loc = loc(name);
  expect(Tok::LParen, "'(' and the parameters");
  if (peek().kind != Tok::RParen) {
    do {
      Token at = peek();
      checkListLength(def->params.size(), at, "parameters");
      Type t = type();
      if (t.isArray()) error(at, "parameters of user functions are scalars, vectors or tuples, not arrays");
      Token pn = expectIdent("a parameter name after its type");
      checkNewName(pn, "parameter");
      for (auto& [other, ot] : def->params)
        if (other == pn.text) error(pn, fmt::format("parameter '{}' appears twice", pn.text));
      def->params.emplace_back(std::string(pn.text), t);
    } while (accept(Tok::Comma));
  }
  expect(Tok::RParen, "')' after the parameters");
  expect(Tok::Arrow, "'->' and the return type");
  Token at = peek();
  def->returnType = type();
  if (def->returnType.isArray()) error(at, "user functions return scalars, vectors or tuples, not arrays");
  if (peek().kind != Tok::LBrace)
    error(peek(), fmt::format("expected '{{' and the body, found {}", describe(peek())));
  Lexer::RawBlock body = lex_.takeBraceBlock();
  def->bodyText = body.text;
  try {
    def->body = cfun::parseBody(body.text, def->params, def->returnType, lex_.file(), body.line, body.col);
  } catch (const LiftError&) {
    throw;
  } catch (const std::exception& e) {
    // Defensive: whatever goes wrong in the body's parser is still reported at the body.
    lex_.error(body.line, body.col,
               fmt::format("cannot parse the body of user function '{}': {}", n, e.what()));
  }
  userFuns_.push_back(std::move(def));
}

void Parser::mainDecl() {
  next();  // fun
  Token name = expectIdent("the name of the program");
  checkNewName(name, "program");
  mainName_ = std::string(name.text);
  Token open = expect(Tok::LParen, "'(' and the inputs");
  std::vector<ir::Param> params;
  if (peek().kind != Tok::RParen) {
    do {
      checkListLength(params.size(), peek(), "inputs");
      Token pn = expectIdent("an input name");
      checkNewName(pn, "input");
      for (auto& p : params)
        if (p->name() == pn.text) error(pn, fmt::format("input '{}' appears twice", pn.text));
      if (lookupUserFun(std::string(pn.text)))
        error(pn, fmt::format("'{}' is already a user function", pn.text));
      expect(Tok::Colon, fmt::format("':' and the type of input '{}'", pn.text));
      Type t = type();
      ir::Param p = ir::param(std::string(pn.text), t);
      locs_[p->id()] = loc(pn);
      params.push_back(p);
    } while (accept(Tok::Comma));
  }
  expect(Tok::RParen, "')' after the inputs");
  expect(Tok::Assign, "'=' and the program's expression");
  for (auto& p : params) scope_.emplace_back(p->name(), p);
  Term body = expr();
  scope_.clear();
  Expr value = requireValue(body, "the program's body (apply the function to the inputs with '$')");
  main_ = ir::LambdaNode::make(std::move(params), std::move(value));
  locs_[main_->id()] = loc(open);
  accept(Tok::Semi);
}

// Rejects IR deeper than kMaxProgramDepth (possible with very long chains), which recursive
// passes (type checking, printing, hashing) could not handle safely. Iterative.
void Parser::checkProgramDepth(const ir::Program& p) {
  std::vector<std::pair<ir::NodeRef, int>> work{{ir::Fun(p.main), 1}};
  while (!work.empty()) {
    auto [node, depth] = work.back();
    work.pop_back();
    if (depth > kMaxProgramDepth) {
      SourceLoc l = p.locationOf(node.id());
      if (!l.known()) l = SourceLoc{p.file, 1, 1};
      throw LiftError(
          makeDiagnostic(p.file, text_, l.line, l.col,
                         fmt::format("program nested too deeply (more than {} levels)", kMaxProgramDepth)));
    }
    for (auto& c : ir::children(node))
      if (c.edge != ir::Edge::LambdaParam) work.emplace_back(c.node, depth + 1);
  }
}

// ----- types and sizes ---------------------------------------------------------------------

int64_t Parser::integer(const Token& t, int64_t max, const char* what) {
  int64_t v = 0;
  for (char c : t.text) {
    if (c < '0' || c > '9') error(t, fmt::format("expected an integer for {}, found {}", what, describe(t)));
    if (v > (max - (c - '0')) / 10)
      error(t, fmt::format("integer {} too large for {} (at most {})", t.text, what, max));
    v = v * 10 + (c - '0');
  }
  return v;
}

Type Parser::type() {
  Nest nest(*this, peek());
  Token t = peek();
  if (accept(Tok::LBracket)) {
    Type elem = type();
    expect(Tok::RBracket, "']' after the element type");
    Token lenTok = peek();
    if (lenTok.kind != Tok::Number && lenTok.kind != Tok::Ident && lenTok.kind != Tok::LParen)
      error(lenTok, fmt::format("expected the array length after ']', found {}", describe(lenTok)));
    arith::Expr len = sizeExpr();
    if (len.isCst() && len.value() < 1)
      error(lenTok, fmt::format("array length {} must be at least 1", len.value()));
    return Type::array(elem, len);
  }
  if (accept(Tok::LParen)) {
    std::vector<Type> elems{type()};
    while (accept(Tok::Comma)) {
      checkListLength(elems.size(), peek(), "components in a tuple type");
      elems.push_back(type());
    }
    expect(Tok::RParen, "')' after the tuple's types");
    return elems.size() == 1 ? elems[0] : Type::tuple(std::move(elems));
  }
  if (t.kind == Tok::Ident) {
    std::string name(t.text);
    if (auto ty = namedType(name)) {
      next();
      return *ty;
    }
    error(t, fmt::format("unknown type '{}'{}", name, didYouMean(name, typeNames())));
  }
  error(t, fmt::format("expected a type, found {}", describe(t)));
}

arith::Expr Parser::sizeExpr() {
  arith::Expr e = sizeTerm();
  while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
    Token op = next();
    bool plus = op.kind == Tok::Plus;
    arith::Expr r = sizeTerm();
    int64_t result = 0;
    if (e.isCst() && r.isCst() &&
        (plus ? __builtin_add_overflow(e.value(), r.value(), &result)
              : __builtin_sub_overflow(e.value(), r.value(), &result)))
      error(op, "size expression overflows");
    e = plus ? e + r : e - r;
  }
  return e;
}

arith::Expr Parser::sizeTerm() {
  arith::Expr e = sizeFactor();
  while (peek().kind == Tok::Star || peek().kind == Tok::Slash || peek().kind == Tok::Percent) {
    Token op = next();
    arith::Expr r = sizeFactor();
    if (op.kind == Tok::Star) {
      int64_t product = 0;
      if (e.isCst() && r.isCst() && __builtin_mul_overflow(e.value(), r.value(), &product))
        error(op, "size expression overflows");
      e = e * r;
    } else {
      if (r.isCst() && r.value() == 0) error(op, "division by zero in a size expression");
      e = op.kind == Tok::Slash ? e / r : e % r;
    }
  }
  return e;
}

arith::Expr Parser::sizeFactor() {
  Nest nest(*this, peek());
  Token t = peek();
  switch (t.kind) {
    case Tok::Number:
      next();
      return arith::cst(integer(t, kMaxSizeLiteral, "a size expression"));
    case Tok::Minus:
      next();
      return -sizeFactor();
    case Tok::LParen: {
      next();
      arith::Expr e = sizeExpr();
      expect(Tok::RParen, "')' in the size expression");
      return e;
    }
    case Tok::Ident: {
      std::string name(t.text);
      next();
      if ((name == "min" || name == "max" || name == "pow") && peek().kind == Tok::LParen) {
        next();
        arith::Expr a = sizeExpr();
        expect(Tok::Comma, fmt::format("',' between the arguments of {}", name));
        arith::Expr b = sizeExpr();
        expect(Tok::RParen, fmt::format("')' after the arguments of {}", name));
        if (name == "min") return arith::min(a, b);
        if (name == "max") return arith::max(a, b);
        if (!b.isCst() || b.value() < 0 || b.value() > 62) error(t, "pow needs a constant exponent in 0..62");
        if (a.isCst()) {
          int64_t v = 1;
          for (int64_t i = 0; i < b.value(); ++i)
            if (__builtin_mul_overflow(v, a.value(), &v)) error(t, "size expression overflows");
          return arith::cst(v);
        }
        return arith::pow(a, b);
      }
      auto it = sizeVars_.find(name);
      if (it != sizeVars_.end()) return it->second;
      std::vector<std::string> names;
      for (auto& [n, v] : sizeVars_) names.push_back(n);
      std::string hint = didYouMean(name, names);
      if (hint.empty()) hint = fmt::format("; declare it with 'size {};'", name);
      error(t, fmt::format("unknown size '{}'{}", name, hint));
    }
    default:
      error(t, fmt::format("expected a size (a number, a size name or a parenthesised expression), found {}",
                           describe(t)));
  }
}

// ----- expressions -------------------------------------------------------------------------

// expr := pipe ('$' pipe)* : functions applied right to left to the last operand.
Parser::Term Parser::expr() {
  Term t = pipe();
  if (peek().kind != Tok::Dollar) return t;
  std::vector<Term> fns;
  int depth = t.depth;
  while (peek().kind == Tok::Dollar) {
    next();
    if (t.isValue()) error(t.tok, "the left side of '$' must be a function, but this is a value");
    fns.push_back(std::move(t));
    t = pipe();
    depth = checkDepth(depth + t.depth, t.tok);
  }
  Expr v = requireValue(t, "the right side of '$'");
  for (size_t i = fns.size(); i-- > 0;) v = apply(fns[i].fn, {v});
  return valueTerm(std::move(v), fns.front().tok, depth);
}

// pipe := composition (('|>' | '>>') composition)* : a value through functions, left to right.
Parser::Term Parser::pipe() {
  Term t = composition();
  while (peek().kind == Tok::Pipe) {
    Token op = next();
    Expr v = requireValue(t, fmt::format("the left side of '{}'", op.text));
    Term f = composition();
    requireFn(f, fmt::format("the right side of '{}'", op.text));
    t = valueTerm(apply(f.fn, {v}), t.tok, t.depth + f.depth);
  }
  return t;
}

// composition := application ('o' application)*
Parser::Term Parser::composition() {
  Term t = application();
  if (!atIdent("o")) return t;
  std::vector<Callable> chain{requireFn(t, "the left side of 'o'")};
  int depth = t.depth;
  while (atIdent("o")) {
    next();
    Term g = application();
    chain.push_back(requireFn(g, "the right side of 'o'"));
    depth = checkDepth(depth + g.depth, g.tok);
  }
  return fnTerm(Callable::compose(std::move(chain)), t.tok, depth + 1);
}

// application := primary ('(' arguments ')')*
Parser::Term Parser::application() {
  Term t = primary();
  while (peek().kind == Tok::LParen) {
    if (t.isValue()) error(peek(), "a value cannot be called; only functions take arguments");
    Token open = next();
    int argDepth = 0;
    std::vector<Expr> args = valueArgs("a call", argDepth);
    if (args.empty()) error(open, "a call needs at least one argument");
    t = valueTerm(apply(t.fn, std::move(args)), t.tok, t.depth + argDepth + 1);
  }
  return t;
}

Parser::Term Parser::primary() {
  Nest nest(*this, peek());
  Token t = peek();
  switch (t.kind) {
    case Tok::Number:
      next();
      return literal(t, false);
    case Tok::Minus:
      next();
      if (peek().kind != Tok::Number)
        error(peek(), fmt::format("expected a number after '-', found {}", describe(peek())));
      return literal(next(), true);
    case Tok::LParen: {
      next();
      if (peek().kind == Tok::Ident && peek(1).kind == Tok::RParen && namedType(std::string(peek().text)))
        return castLiteral(t);
      Term inner = expr();
      expect(Tok::RParen, "')'");
      return inner;
    }
    case Tok::Ident:
      next();
      return identifier(t);
    default:
      error(t, fmt::format("expected an expression, found {}", describe(t)));
  }
}

Parser::Term Parser::literal(const Token& t, bool negative) {
  std::string text = (negative ? "-" : "") + std::string(t.text);
  Type ty = ir::scalarLiteralType(text);
  if (!ty) error(t, fmt::format("malformed number '{}'", t.text));
  if (ty == Type::int_()) {
    integer(t, negative ? int64_t(INT32_MAX) + 1 : INT32_MAX, "an int literal");
  } else {
    errno = 0;
    double v = std::strtod(text.c_str(), nullptr);
    bool isFloat = ty == Type::float_();
    if (errno == ERANGE || std::isinf(v) || (isFloat && std::fabs(v) > 3.4028234663852886e38))
      error(t, fmt::format("{} literal {} is out of range", ty.toString(), text));
  }
  Expr e = ir::literal(std::move(text), ty);
  locs_[e->id()] = loc(t);
  return valueTerm(std::move(e), t);
}

// (float4)1.0f : a vector whose components all equal the literal.
Parser::Term Parser::castLiteral(const Token& open) {
  Token typeTok = next();
  Type ty = *namedType(std::string(typeTok.text));
  next();  // ')'
  bool negative = accept(Tok::Minus);
  Token num = expect(Tok::Number, fmt::format("a literal after ({})", typeTok.text));
  Term scalar = literal(num, negative);
  Type st = ir::asLiteral(scalar.value)->type();
  if (st != Type::scalar(ty.scalarKind()))
    error(num, fmt::format("a {} literal is needed for ({}), found {}", scalarName(ty.scalarKind()),
                           typeTok.text, st.toString()));
  Expr e = ir::literal(ir::asLiteral(scalar.value)->text(), ty);
  locs_[e->id()] = loc(open);
  return valueTerm(std::move(e), open);
}

// zeros(T), fill(T, literal): a constant of type T all of whose scalars are equal.
Parser::Term Parser::arrayLiteral(const Token& t, bool fill) {
  expect(Tok::LParen, fmt::format("'(' and a type after {}", t.text));
  Token at = peek();
  Type ty = type();
  Type inner = ty.innermost();
  if (!inner.isScalar() && !inner.isVector())
    error(at, fmt::format("{} needs a type made of scalars or vectors, got {}", t.text, ty.toString()));
  std::string text = ir::zeroText(inner.scalarKind());
  if (fill) {
    expect(Tok::Comma, "',' and the value");
    bool negative = accept(Tok::Minus);
    Token num = peek();
    std::string value;
    if (atIdent("true") || atIdent("false")) {
      value = std::string(next().text);
    } else {
      value = ir::asLiteral(literal(expect(Tok::Number, "the value"), negative).value)->text();
    }
    if (ir::scalarLiteralType(value) != Type::scalar(inner.scalarKind()))
      error(num,
            fmt::format("fill: the value {} is not a {} literal", value, scalarName(inner.scalarKind())));
    text = value;
  }
  expect(Tok::RParen, "')'");
  Expr e = ir::literal(text, ty);
  locs_[e->id()] = loc(t);
  return valueTerm(std::move(e), t);
}

Parser::Term Parser::identifier(const Token& t) {
  std::string name(t.text);
  if (name == "fun") return lambda(t);
  if (name == "true" || name == "false") {
    Expr e = ir::literal(name, Type::bool_());
    locs_[e->id()] = loc(t);
    return valueTerm(std::move(e), t);
  }
  if (name == "zeros" || name == "fill") return arrayLiteral(t, name == "fill");
  if (name == "o") error(t, "expected a function before 'o'");
  if (const ir::Param* p = lookupParam(name)) return valueTerm(*p, t);
  if (auto def = lookupUserFun(name)) return fnTerm(ir::userFun(def), t);
  if (auto term = prelude(t)) return *term;
  if (auto term = pattern(t)) return *term;
  if (sizeVars_.count(name))
    error(
        t,
        fmt::format(
            "'{}' is a size: sizes appear in types and in static arguments such as split({}), not as values",
            name, name));
  if (name == "size" || name == "userfun")
    error(t, fmt::format("'{}' declarations belong at the top level, before the program", name));
  error(t, fmt::format("unknown name '{}'{}", name, didYouMean(name, namesInScope())));
}

Parser::Term Parser::lambda(const Token& funTok) {
  expect(Tok::LParen, "'(' after 'fun' (a lambda is written fun(x => body))");
  std::vector<ir::Param> params;
  auto param = [&] {
    checkListLength(params.size(), peek(), "parameters");
    Token pn = expectIdent("a parameter name");
    checkNewName(pn, "parameter");
    for (auto& p : params)
      if (p->name() == pn.text) error(pn, fmt::format("parameter '{}' appears twice", pn.text));
    Type declared;
    if (accept(Tok::Colon)) declared = type();
    ir::Param p = ir::param(std::string(pn.text), declared);
    locs_[p->id()] = loc(pn);
    params.push_back(std::move(p));
  };
  if (accept(Tok::LParen)) {
    do param();
    while (accept(Tok::Comma));
    expect(Tok::RParen, "')' after the parameters");
  } else {
    param();
  }
  expect(Tok::FatArrow, "'=>' after the parameters");
  size_t scopeSize = scope_.size();
  for (auto& p : params) scope_.emplace_back(p->name(), p);
  Term body = expr();
  scope_.resize(scopeSize);
  Expr value = requireValue(body, "the body of a lambda");
  expect(Tok::RParen, "')' at the end of the lambda");
  return fnTerm(ir::lambda(std::move(params), std::move(value)), funTok, body.depth + 1);
}

// The built-in patterns, with their static arguments.
std::optional<Parser::Term> Parser::pattern(const Token& t) {
  std::string name(t.text);
  std::optional<int64_t> suffix;
  if (!ir::patternByName(name)) {
    auto s = splitSuffix(name);
    if (!s) return std::nullopt;
    name = s->first;
    suffix = s->second;
  }
  PatternKind k = *ir::patternByName(name);
  ir::PatternNode::Params ps;
  auto open = [&] { expect(Tok::LParen, fmt::format("'(' after {}", t.text)); };
  auto close = [&] { expect(Tok::RParen, fmt::format("')' after the arguments of {}", t.text)); };
  auto comma = [&] { expect(Tok::Comma, fmt::format("',' between the arguments of {}", t.text)); };
  int depth = 1;  // of the pattern with its nested function
  auto withFun = [&](const Term& f) {
    ps.funs = {nestedFun(f, "the argument of " + name)};
    depth = f.depth + 2;
  };

  switch (k) {
    case PatternKind::Map:
    case PatternKind::MapSeq:
    case PatternKind::MapSeqUnroll:
    case PatternKind::MapVec:
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapWarp:
    case PatternKind::MapLane:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
    case PatternKind::ToGlobal:
    case PatternKind::ToLocal:
    case PatternKind::ToPrivate:
    case PatternKind::Let:
    case PatternKind::FilterSeq:        // issue 17 (lift17p)
    case PatternKind::InsertionSort: {  // issue 17 (lift17p)
      open();
      withFun(funArg(name));
      close();
      if (suffix) ps.index = static_cast<int>(*suffix);
      return patternTerm(k, std::move(ps), t, depth);
    }
    case PatternKind::Reduce:
    case PatternKind::ReduceSeq:
    case PatternKind::ReduceSeqUnroll:
    case PatternKind::PartRed:
    case PatternKind::Scan:
    case PatternKind::ScanSeq:
    case PatternKind::BSearch:    // issue 17 (lift17p): bSearch(cmp, default)
    case PatternKind::LSearch: {  // issue 17 (lift17p): lSearch(cmp, default)
      // reduce(f, init) or reduce(init, f) as in the seeds; reduce(f, init, xs) applies it;
      // partRed(f, init, m). Scans read the same way: scan(f, init), scan(f, init, xs), and so
      // do the searches with their default value: bSearch(cmp, d), bSearch(cmp, d, xs).
      open();
      Term a = expr();
      comma();
      Term b = expr();
      const Term* f = &a;
      const Term* init = &b;
      if (a.isValue() && !b.isValue()) std::swap(f, init);
      bool search = k == PatternKind::BSearch || k == PatternKind::LSearch;
      if ((f->isValue() || !init->isValue()) && search)
        error(a.tok,
              fmt::format("{} takes a comparison and a default value, e.g. {}(cmp, 0.0f)", name, name));
      if (f->isValue() || !init->isValue())
        error(a.tok, fmt::format("{} takes a function and an initial value, e.g. {}(add, 0.0f)", name, name));
      withFun(*f);
      std::optional<Term> xs;
      if (k == PatternKind::PartRed) {
        comma();
        ps.sizes = {sizeExpr()};
      } else if (accept(Tok::Comma)) {
        xs = expr();
        requireValue(*xs, fmt::format("the array {} by {}",
                                      search              ? "searched"
                                      : ir::isScanLike(k) ? "scanned"
                                                          : "reduced",
                                      name));
      }
      close();
      Term red = patternTerm(k, std::move(ps), t, depth);
      Callable partial = Callable::partial(red.fn.decl(), {init->value});
      partial.at(loc(t));
      depth += init->depth;
      if (xs) return valueTerm(apply(partial, {xs->value}), t, depth + xs->depth);
      return Term{nullptr, std::move(partial), t, checkDepth(depth, t)};
    }
    // ----- issue 17 (lift17p) -----
    case PatternKind::ReduceWhileSeq: {
      // reduceWhileSeq(f, p, init), reduceWhileSeq(f, p, init, xs): Lift's argument order.
      open();
      Term f = funArg(name);
      comma();
      Term pred = funArg(name);
      comma();
      Term init = expr();
      if (!init.isValue())
        error(init.tok,
              "reduceWhileSeq takes a function, a predicate and an initial value, e.g. "
              "reduceWhileSeq(add, fun((acc, x) => below(acc)), 0.0f)");
      ps.funs = {nestedFun(f, "the function of reduceWhileSeq"),
                 nestedFun(pred, "the predicate of reduceWhileSeq")};
      depth = std::max(f.depth, pred.depth) + 2;
      std::optional<Term> xs;
      if (accept(Tok::Comma)) {
        xs = expr();
        requireValue(*xs, "the array reduced by reduceWhileSeq");
      }
      close();
      Term red = patternTerm(k, std::move(ps), t, depth);
      Callable partial = Callable::partial(red.fn.decl(), {init.value});
      partial.at(loc(t));
      depth += init.depth;
      if (xs) return valueTerm(apply(partial, {xs->value}), t, depth + xs->depth);
      return Term{nullptr, std::move(partial), t, checkDepth(depth, t)};
    }
    // ----- end of issue 17 (lift17p) -----
    case PatternKind::Split:
    case PatternKind::AsVector:
    case PatternKind::ReorderStride: {
      if (suffix && k != PatternKind::ReorderStride) {
        ps.sizes = {arith::cst(*suffix)};
      } else {
        open();
        ps.sizes = {sizeExpr()};
        close();
      }
      return patternTerm(k, std::move(ps), t);
    }
    case PatternKind::Slide: {
      open();
      arith::Expr size = sizeExpr();
      comma();
      ps.sizes = {size, sizeExpr()};
      close();
      return patternTerm(k, std::move(ps), t);
    }
    case PatternKind::Pad: {
      open();
      arith::Expr l = sizeExpr();
      comma();
      arith::Expr r = sizeExpr();
      comma();
      ps.sizes = {l, r};
      padding(ps);
      close();
      return patternTerm(k, std::move(ps), t);
    }
    case PatternKind::Iterate:
    case PatternKind::Vectorize: {
      open();
      if (suffix) {
        ps.sizes = {arith::cst(*suffix)};
      } else {
        ps.sizes = {sizeExpr()};
        comma();
      }
      withFun(funArg(name));
      close();
      return patternTerm(k, std::move(ps), t, depth);
    }
    // ----- issue 16: MapSeqSlide -----
    case PatternKind::MapSeqSlide: {  // mapSeqSlide(size, step, f), slide's sizes first
      open();
      arith::Expr size = sizeExpr();
      comma();
      ps.sizes = {size, sizeExpr()};
      comma();
      withFun(funArg(name));
      close();
      return patternTerm(k, std::move(ps), t, depth);
    }
    // ----- issue 16: the array generators, values of no input -----
    case PatternKind::ArrayFromValue: {  // arrayFromValue(v, n)
      open();
      Term v = expr();
      Expr value = requireValue(v, "the value of arrayFromValue");
      comma();
      ps.sizes = {sizeExpr()};
      close();
      Term f = patternTerm(k, std::move(ps), t);
      return valueTerm(apply(f.fn, {value}), t, v.depth + 1);
    }
    case PatternKind::ArrayFromGenerator: {  // arrayFromGenerator(n, i => index expression)
      open();
      arith::Expr n = sizeExpr();
      comma();
      Token i = expectIdent("the index's name, as in arrayFromGenerator(N, i => i * 2)");
      std::string iName(i.text);
      if (sizeVars_.count(iName)) error(i, fmt::format("'{}' is already a size", iName));
      expect(Tok::FatArrow, "'=>' after the index's name");
      arith::Expr var = arith::var(iName, arith::cst(0), n);
      sizeVars_[iName] = var;
      arith::Expr e = sizeExpr();
      sizeVars_.erase(iName);
      close();
      ps.sizes = {n, var, e};
      Term f = patternTerm(k, std::move(ps), t);
      return valueTerm(apply(f.fn, {}), t, 1);
    }
    case PatternKind::ArrayFromUserFun:
    case PatternKind::Array2DFromUserFun:
    case PatternKind::Array3DFromUserFun: {  // array2DFromUserFun(f, m, n): f(i, j, m, n)
      open();
      withFun(funArg(name));
      for (int d = 0; d < ir::generatorDims(k); ++d) {
        comma();
        ps.sizes.push_back(sizeExpr());
      }
      close();
      Term f = patternTerm(k, std::move(ps), t, depth);
      return valueTerm(apply(f.fn, {}), t, depth);
    }
    // ----- end issue 16 -----
    case PatternKind::Join:
    case PatternKind::Transpose:
    case PatternKind::Unzip:
    case PatternKind::Id:
    case PatternKind::AsScalar:
    case PatternKind::Dot:
    case PatternKind::Fma:
    case PatternKind::Head:
    case PatternKind::Tail:
    case PatternKind::TransposeW:
    case PatternKind::At:
    case PatternKind::CheckedAt:
    case PatternKind::Filter:
      return patternTerm(k, std::move(ps), t);
    case PatternKind::MdHom: {
      // md_hom(f, (⊛1, ..., ⊛d)): a combine operator per dimension, ++ for concatenation.
      open();
      Term f = funArg(name);
      withFun(f);
      comma();
      expect(Tok::LParen, "'(' and the combine operators, one per dimension, e.g. md_hom(mult, (++, add))");
      do {
        if (peek().kind == Tok::Plus) {
          Token plus = next();
          if (peek().kind != Tok::Plus || peek().offset != plus.offset + 1)
            error(plus, "expected a combine operator: ++ (concatenation) or a binary function such as add");
          next();
          ps.concat.push_back(true);
          continue;
        }
        Term op = expr();
        ps.funs.push_back(nestedFun(op, "a combine operator of md_hom"));
        ps.concat.push_back(false);
        depth = std::max(depth, op.depth + 2);
      } while (accept(Tok::Comma));
      expect(Tok::RParen, "')' after the combine operators");
      close();
      return patternTerm(k, std::move(ps), t, depth);
    }
    case PatternKind::PairVV:
    case PatternKind::PairMV:
    case PatternKind::PairMM:
    case PatternKind::Zip:
    case PatternKind::Tuple: {
      if (peek().kind != Tok::LParen)
        error(peek(), fmt::format("{} needs its arguments: {}(a, b)", name, name));
      open();
      int argDepth = 0;
      std::vector<Expr> args = valueArgs(name, argDepth);
      if (ir::isMdHomView(k)) {
        if (args.size() != 2) error(t, fmt::format("{} takes two arrays, got {}", name, args.size()));
      } else {
        if (args.size() < 2) error(t, fmt::format("{} needs at least two arguments", name));
        ps.index = static_cast<int>(args.size());
      }
      Term f = patternTerm(k, std::move(ps), t);
      return valueTerm(apply(f.fn, std::move(args)), t, argDepth + 1);
    }
    case PatternKind::Get: {
      open();
      Token i = expect(Tok::Number, "the component index of get");
      ps.index = static_cast<int>(integer(i, 1 << 20, "a component index"));
      Term f = patternTerm(k, std::move(ps), t);
      if (accept(Tok::Comma)) {
        Term arg = expr();
        Expr tuple = requireValue(arg, "the argument of get");
        close();
        return valueTerm(apply(f.fn, {tuple}), t, arg.depth + 1);
      }
      close();
      return f;
    }
    case PatternKind::Gather:
    case PatternKind::Scatter: {
      open();
      Token f =
          expectIdent("an index function: reverse, reorderStride(s), transpose(rows, cols) or shift(k)");
      if (f.text == "reverse") {
        ps.indexFun = ir::reverseIndex();
      } else if (f.text == "reorderStride") {
        expect(Tok::LParen, "'(' and the stride");
        ps.indexFun = ir::strideIndex(sizeExpr());
        expect(Tok::RParen, "')' after the stride");
      } else if (f.text == "transpose") {
        expect(Tok::LParen, "'(' and the rows and columns");
        arith::Expr rows = sizeExpr();
        expect(Tok::Comma, "',' between rows and columns");
        arith::Expr cols = sizeExpr();
        expect(Tok::RParen, "')' after the columns");
        ps.indexFun = ir::transposeIndex(rows, cols);
      } else if (f.text == "shift") {
        expect(Tok::LParen, "'(' and the amount");
        ps.indexFun = ir::shiftIndex(sizeExpr());
        expect(Tok::RParen, "')' after the amount");
      } else if (f.text == "id") {
        ps.indexFun = {};
      } else {
        error(f, fmt::format("unknown index function '{}'{}", f.text,
                             didYouMean(std::string(f.text),
                                        {"reverse", "reorderStride", "transpose", "shift", "id"})));
      }
      close();
      return patternTerm(k, std::move(ps), t);
    }
  }
  return std::nullopt;
}

// The padding of pad and pad2D: clamp, mirror, wrap or a scalar literal.
void Parser::padding(ir::PatternNode::Params& ps) {
  Token m = peek();
  if (atIdent("clamp") || atIdent("mirror") || atIdent("wrap")) {
    next();
    ps.padMode = m.text == "clamp"    ? ir::PadMode::Clamp
                 : m.text == "mirror" ? ir::PadMode::Mirror
                                      : ir::PadMode::Wrap;
  } else if (atIdent("true") || atIdent("false")) {
    ps.padMode = ir::PadMode::Constant;
    ps.padValue = std::string(next().text);
  } else if (m.kind == Tok::Number || m.kind == Tok::Minus) {
    bool negative = accept(Tok::Minus);
    ps.padMode = ir::PadMode::Constant;
    ps.padValue = ir::asLiteral(literal(expect(Tok::Number, "the padding value"), negative).value)->text();
  } else {
    error(m, fmt::format("expected the padding: clamp, mirror, wrap or a value, found {}", describe(m)));
  }
}

// The prelude (core/ir/Prelude.h): slide2D(size, step) or slide2D(rowSize, rowStep, colSize,
// colStep); pad2D(l, r, mode) or pad2D(top, bottom, left, right, mode). Compositions of the 1-D
// patterns, whose nodes all get the name's position.
std::optional<Parser::Term> Parser::prelude(const Token& t) {
  if (t.text == "allPairs") return allPairs(t);
  bool slide = t.text == "slide2D";
  if (!slide && t.text != "pad2D") return std::nullopt;
  expect(Tok::LParen, fmt::format("'(' after {}", t.text));
  std::vector<arith::Expr> sizes{sizeExpr()};
  ir::PatternNode::Params ps;
  bool mode = false;
  while (!mode && accept(Tok::Comma)) {
    // The padding comes last: a mode name, a negative literal or a literal before ')'.
    mode = !slide &&
           (atIdent("clamp") || atIdent("mirror") || atIdent("wrap") || atIdent("true") || atIdent("false") ||
            peek().kind == Tok::Minus || (peek().kind == Tok::Number && peek(1).kind == Tok::RParen));
    if (mode) {
      padding(ps);
    } else {
      if (sizes.size() == 4) error(peek(), fmt::format("{} takes at most four sizes", t.text));
      sizes.push_back(sizeExpr());
    }
  }
  expect(Tok::RParen, fmt::format("')' after the arguments of {}", t.text));
  if ((sizes.size() != 2 && sizes.size() != 4) || mode == slide)
    error(t, slide ? "slide2D takes a size and a step, or the rows' and the columns' size and step"
                   : "pad2D takes the left and right padding and the mode, or top, bottom, left, right and "
                     "the mode");
  if (sizes.size() == 2) sizes = {sizes[0], sizes[1], sizes[0], sizes[1]};
  Callable c = slide ? ir::slide2D(sizes[0], sizes[1], sizes[2], sizes[3])
                     : ir::pad2D(sizes[0], sizes[1], sizes[2], sizes[3], ps.padMode, ps.padValue);
  std::vector<Callable> links;
  for (const Callable& link : c.chain()) {
    locs_[link.decl()->id()] = loc(t);
    if (auto* p = ir::asPattern(link.decl()))
      for (auto& f : p->params().funs) locs_[f->id()] = loc(t);
    links.push_back(link);
    links.back().at(loc(t));
  }
  return fnTerm(Callable::compose(std::move(links)), t, 3);
}

// allPairs(f)(X, Y), f a function of two parameters, and allPairs(r, z)(X, Y), r a reduction
// and z a function of two scalars (core/ir/Prelude.h): the nest of two maps, a lambda f's own
// parameters and body in it. Applied to its two arrays at once: it is no function of one argument
// that could be composed or mapped.
Parser::Term Parser::allPairs(const Token& t) {
  const char* usage =
      "allPairs(f)(A, B) with f a function of two parameters (a row of each input), e.g. "
      "allPairs(fun((a, b) => ...))(A, B), or allPairs(r, z)(A, B) with a reduction and a function of two "
      "scalars, e.g. allPairs(reduce(add, 0.0f), mult)(A, B)";
  if (peek().kind != Tok::LParen) error(t, fmt::format("expected '(' after allPairs: {}", usage));
  next();
  Term f = expr();
  std::optional<Term> z;
  if (accept(Tok::Comma)) z = expr();
  if (peek().kind == Tok::Comma)
    error(peek(), fmt::format("allPairs takes one function, or a reduction and a function: {}", usage));
  expect(Tok::RParen, "')' after the function of allPairs");
  if (f.isValue() || (z && z->isValue()))
    error(f.isValue() ? f.tok : z->tok, fmt::format("allPairs takes functions, not values: {}", usage));
  Fun rowFun;
  if (z) {
    rowFun = ir::allPairsZipReduce(f.fn, nestedFun(*z, "the function of allPairs"), &locs_);
  } else {
    rowFun = nestedFun(f, "the function of allPairs");
    size_t n = 0;
    if (auto* l = ir::asLambda(rowFun))
      n = l->params().size();
    else if (auto* u = ir::asUserFun(rowFun))
      n = u->def().params.size();
    else
      n = 1;  // a pattern or a composition: a function of one array
    if (n != 2)
      error(f.tok, fmt::format("the function of allPairs takes two parameters, a row of each input, but this "
                               "one takes {}: {}",
                               n, usage));
  }
  if (peek().kind != Tok::LParen)
    error(t, fmt::format("allPairs(...) is applied to its two arrays at once, as in allPairs(f)(A, B), "
                         "not to {}",
                         describe(peek())));
  next();
  int argDepth = 0;
  std::vector<Expr> args = valueArgs("allPairs", argDepth);
  if (args.size() != 2)
    error(t, fmt::format("allPairs(...) takes two arrays, as in allPairs(f)(A, B), but is given {}",
                         args.size()));
  Expr nest = ir::allPairs(rowFun, args[0], args[1]);
  locateNew(nest, t, {args[0].get(), args[1].get()});
  return valueTerm(std::move(nest), t, std::max(f.depth, z ? z->depth : 0) + argDepth + 8);
}

// Gives the nodes below `root` that have no position yet (those that expand a prelude function)
// the position of its name; `done` are subtrees the parser has placed already.
void Parser::locateNew(const ir::NodeRef& root, const Token& t, const std::vector<const ir::Node*>& done) {
  std::vector<ir::NodeRef> work{root};
  while (!work.empty()) {
    ir::NodeRef n = work.back();
    work.pop_back();
    if (std::find(done.begin(), done.end(), n.get()) != done.end()) continue;
    locs_.emplace(n.id(), loc(t));
    for (auto& c : ir::children(n)) work.push_back(c.node);
  }
}

}  // namespace

bool isReservedName(const std::string& name) {
  for (const char* k : kKeywords)
    if (name == k) return true;
  for (auto& p : ir::preludeNames())
    if (name == p) return true;
  return ir::patternByName(name).has_value() || splitSuffix(name).has_value() || namedType(name).has_value();
}

ir::Program parseProgram(const std::string& text, const std::string& file) {
  return Parser(text, file).program();
}

ir::Program parseFile(const std::string& path) { return parseProgram(readInputFile(path), path); }

Type parseType(const std::string& text, const std::vector<ir::SizeDecl>& sizes, const std::string& file) {
  return Parser(text, file).typeOnly(sizes);
}

}  // namespace lift::lang
