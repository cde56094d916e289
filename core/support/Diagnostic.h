// Diagnostics about the user's input: what is wrong and where (file:line:col), as a value or an
// exception. Broken internal invariants use LIFT_ASSERT instead.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace lift {

// A position in a source text; line and column are 1-based, 0 means unknown.
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
};

struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  // The offending source line and a caret under the column ("  ^"), when the source is known.
  std::string sourceLine;

  // "file:line:col: error: message" followed by the source line and caret line if present.
  std::string format() const;
};

// Thrown for errors in user input (programs, expressions, sizes, rule names, ...).
class LiftError : public std::runtime_error {
 public:
  explicit LiftError(Diagnostic d);
  explicit LiftError(std::string message, SourceLoc loc = {});
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// Builds a diagnostic for position (line, col) of `text`, with its source line and caret.
Diagnostic makeDiagnostic(const std::string& file, const std::string& text, int line, int col,
                          std::string message);

// Line and column (1-based) of a byte offset into `text`.
std::pair<int, int> lineColOf(const std::string& text, size_t offset);

[[noreturn]] void assertionFailed(const char* expr, const char* file, int line, const std::string& msg);

}  // namespace lift

#define LIFT_ASSERT(cond, msg)                                              \
  do {                                                                      \
    if (!(cond)) ::lift::assertionFailed(#cond, __FILE__, __LINE__, (msg)); \
  } while (0)
