// Formatting of diagnostics and the internal assertion handler.
#include "core/support/Diagnostic.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "core/support/SourceExcerpt.h"

namespace lift {

std::string Diagnostic::format() const {
  const char* sev = severity == Severity::Error     ? "error"
                    : severity == Severity::Warning ? "warning"
                                                    : "note";
  std::string out;
  if (!loc.file.empty() || loc.known()) {
    out += loc.file.empty() ? "<input>" : loc.file;
    if (loc.known()) out += fmt::format(":{}:{}", loc.line, loc.col);
    out += ": ";
  }
  out += fmt::format("{}: {}", sev, message);
  if (!sourceLine.empty()) out += "\n" + sourceLine;
  return out;
}

LiftError::LiftError(Diagnostic d) : std::runtime_error(d.format()), diag_(std::move(d)) {}

static Diagnostic plain(std::string message, SourceLoc loc) {
  Diagnostic d;
  d.loc = std::move(loc);
  d.message = std::move(message);
  return d;
}

LiftError::LiftError(std::string message, SourceLoc loc)
    : LiftError(plain(std::move(message), std::move(loc))) {}

std::pair<int, int> lineColOf(const std::string& text, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

Diagnostic makeDiagnostic(const std::string& file, const std::string& text, int line, int col,
                          std::string message) {
  Diagnostic d;
  d.loc = {file, line, col};
  d.message = std::move(message);
  // Find the source line.
  size_t start = 0;
  for (int l = 1; l < line && start != std::string::npos; ++l) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start != std::string::npos && start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string src = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line == 1 && src.compare(0, 3, "\xEF\xBB\xBF") == 0) src.erase(0, 3);  // a byte-order mark: no column
    d.sourceLine = sourceExcerpt(std::move(src), col);
  }
  return d;
}

void assertionFailed(const char* expr, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "internal error: %s:%d: assertion '%s' failed: %s\n", file, line, expr, msg.c_str());
  std::abort();
}

}  // namespace lift
