// The excerpt under a diagnostic: the source line and a caret under the column, shown so that
// what the line holds (control bytes, UTF-8, tabs) cannot cut the message or move the caret.
#pragma once

#include <string>

namespace lift {

// "  LINE\n  ^": a source line (without a CRLF's '\r', control characters shown as their Unicode
// pictures: a NUL byte would end the message where it is printed; at most 200 bytes of it, from
// "…" and 80 bytes before the column when the column is further right) and a caret under its byte
// column `col` (1-based), one column per character, tabs kept.
std::string sourceExcerpt(std::string line, int col);

}  // namespace lift
