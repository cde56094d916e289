// The lexer of the .lift language: identifiers, numbers, punctuation and comments, tokenised on
// demand so that the parser can take the body of a user function (C code) as raw text.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "core/support/Diagnostic.h"

namespace lift::lang {

enum class Tok : uint8_t {
  End,
  Ident,
  Number,    // 12, 1.5f, 2.0, 1e-3f (the sign is a separate token)
  LParen,    // (
  RParen,    // )
  LBracket,  // [
  RBracket,  // ]
  LBrace,    // {
  RBrace,    // }
  Comma,     // ,
  Semi,      // ;
  Colon,     // :
  Assign,    // =
  FatArrow,  // =>
  Arrow,     // ->
  Dollar,    // $
  Pipe,      // |> or >>
  Plus,      // +
  Minus,     // -
  Star,      // *
  Slash,     // /
  Percent,   // %
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // points into the lexer's source
  size_t offset = 0;
  int line = 1, col = 1;
};

// How a token is named in messages: "'map'", "number '12'", "end of input".
std::string describe(const Token& t);

class Lexer {
 public:
  // `text` must outlive the lexer and its tokens.
  Lexer(const std::string& text, std::string file);

  // The k-th token ahead (0: the next one).
  const Token& peek(size_t k = 0);
  Token next();

  // The text between a '{' (the next token, which must have been peeked and nothing after it)
  // and its matching '}', both consumed. Comments, strings and character literals in the text
  // do not count for brace matching. Errors at the '{' when there is no matching '}'.
  struct RawBlock {
    std::string text;
    int line = 1, col = 1;  // position of the first character of `text`
  };
  RawBlock takeBraceBlock();

  [[noreturn]] void error(const Token& at, const std::string& message) const;
  [[noreturn]] void error(int line, int col, const std::string& message) const;
  const std::string& text() const { return text_; }
  const std::string& file() const { return file_; }
  SourceLoc locOf(const Token& t) const { return SourceLoc{file_, t.line, t.col}; }

 private:
  Token scan();
  void skipSpaceAndComments();
  void advance(size_t n = 1);

  const std::string& text_;
  std::string file_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
  std::deque<Token> ahead_;
};

}  // namespace lift::lang
