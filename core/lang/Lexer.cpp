// Tokenisation of .lift text, with positions for diagnostics.
#include "core/lang/Lexer.h"

#include <fmt/format.h>

#include <cctype>

namespace lift::lang {

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "end of input";
    case Tok::Number:
      return fmt::format("number '{}'", t.text);
    default:
      return fmt::format("'{}'", t.text);
  }
}

Lexer::Lexer(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {
  // A UTF-8 byte-order mark (some editors start every file with one) is not part of the program;
  // it takes no column.
  if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
}

const Token& Lexer::peek(size_t k) {
  while (ahead_.size() <= k) ahead_.push_back(scan());
  return ahead_[k];
}

Token Lexer::next() {
  peek();
  Token t = ahead_.front();
  ahead_.pop_front();
  return t;
}

void Lexer::error(const Token& at, const std::string& message) const { error(at.line, at.col, message); }

void Lexer::error(int line, int col, const std::string& message) const {
  throw LiftError(makeDiagnostic(file_, text_, line, col, message));
}

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_) {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

void Lexer::skipSpaceAndComments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance();
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') advance();
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      int line = line_, col = col_;
      advance(2);
      while (pos_ < text_.size() &&
             !(text_[pos_] == '*' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/'))
        advance();
      if (pos_ >= text_.size()) error(line, col, "unterminated comment: '/*' without '*/'");
      advance(2);
    } else {
      break;
    }
  }
}

Token Lexer::scan() {
  skipSpaceAndComments();
  Token t;
  t.offset = pos_;
  t.line = line_;
  t.col = col_;
  if (pos_ >= text_.size()) {
    t.kind = Tok::End;
    return t;
  }
  auto finish = [&](Tok kind, size_t len) {
    t.kind = kind;
    t.text = std::string_view(text_).substr(pos_, len);
    advance(len);
    return t;
  };
  char c = text_[pos_];
  char d = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
  if (isIdentStart(c)) {
    size_t n = 1;
    while (pos_ + n < text_.size() && isIdentChar(text_[pos_ + n])) ++n;
    return finish(Tok::Ident, n);
  }
  if (isDigit(c)) {
    size_t n = 0;
    auto digits = [&] {
      while (pos_ + n < text_.size() && isDigit(text_[pos_ + n])) ++n;
    };
    digits();
    if (pos_ + n < text_.size() && text_[pos_ + n] == '.') {
      ++n;
      digits();
    }
    if (pos_ + n < text_.size() && (text_[pos_ + n] == 'e' || text_[pos_ + n] == 'E')) {
      size_t m = n + 1;
      if (pos_ + m < text_.size() && (text_[pos_ + m] == '+' || text_[pos_ + m] == '-')) ++m;
      if (pos_ + m < text_.size() && isDigit(text_[pos_ + m])) {
        n = m;
        digits();
      }
    }
    if (pos_ + n < text_.size() && (text_[pos_ + n] == 'f' || text_[pos_ + n] == 'F')) ++n;
    if (pos_ + n < text_.size() && isIdentChar(text_[pos_ + n]))
      error(line_, col_ + static_cast<int>(n),
            fmt::format("unexpected '{}' after the number '{}'", text_[pos_ + n], text_.substr(pos_, n)));
    return finish(Tok::Number, n);
  }
  switch (c) {
    case '(':
      return finish(Tok::LParen, 1);
    case ')':
      return finish(Tok::RParen, 1);
    case '[':
      return finish(Tok::LBracket, 1);
    case ']':
      return finish(Tok::RBracket, 1);
    case '{':
      return finish(Tok::LBrace, 1);
    case '}':
      return finish(Tok::RBrace, 1);
    case ',':
      return finish(Tok::Comma, 1);
    case ';':
      return finish(Tok::Semi, 1);
    case ':':
      return finish(Tok::Colon, 1);
    case '$':
      return finish(Tok::Dollar, 1);
    case '+':
      return finish(Tok::Plus, 1);
    case '*':
      return finish(Tok::Star, 1);
    case '/':
      return finish(Tok::Slash, 1);
    case '%':
      return finish(Tok::Percent, 1);
    case '=':
      return d == '>' ? finish(Tok::FatArrow, 2) : finish(Tok::Assign, 1);
    case '-':
      return d == '>' ? finish(Tok::Arrow, 2) : finish(Tok::Minus, 1);
    case '|':
      if (d == '>') return finish(Tok::Pipe, 2);
      break;
    case '>':
      if (d == '>') return finish(Tok::Pipe, 2);
      break;
    default:
      break;
  }
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) error(line_, col_, fmt::format("unexpected character '{}'", c));
  error(line_, col_, fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned>(u)));
}

Lexer::RawBlock Lexer::takeBraceBlock() {
  LIFT_ASSERT(ahead_.size() == 1 && ahead_.front().kind == Tok::LBrace,
              "takeBraceBlock needs exactly a peeked '{'");
  Token open = ahead_.front();
  ahead_.clear();
  // The lexer stands just after the '{'.
  RawBlock b;
  b.line = line_;
  b.col = col_;
  size_t start = pos_;
  int depth = 1;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    char d = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    if (c == '/' && d == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') advance();
    } else if (c == '/' && d == '*') {
      advance(2);
      while (pos_ < text_.size() &&
             !(text_[pos_] == '*' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/'))
        advance();
      advance(2);
    } else if (c == '"' || c == '\'') {
      advance();
      while (pos_ < text_.size() && text_[pos_] != c && text_[pos_] != '\n')
        advance(text_[pos_] == '\\' ? 2 : 1);
      advance();
    } else if (c == '{') {
      ++depth;
      advance();
    } else if (c == '}') {
      if (--depth == 0) {
        b.text = text_.substr(start, pos_ - start);
        advance();
        return b;
      }
      advance();
    } else {
      advance();
    }
  }
  error(open, "unterminated body: '{' without a matching '}'");
}

}  // namespace lift::lang
