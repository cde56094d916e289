// sourceExcerpt: the line made printable and the caret counted in characters.
#include "core/support/SourceExcerpt.h"

namespace lift {
namespace {

// The line with its control characters (other than tab) shown as their Unicode pictures, one
// column each: a NUL byte would otherwise end the message where it is printed, caret and all.
std::string visibleControls(const std::string& line) {
  std::string out;
  for (char c : line) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u == '\t' || (u >= 0x20 && u != 0x7f)) {
      out += c;
    } else {  // U+2400 + u ("␀", "␁", ...), U+2421 ("␡") for DEL
      out += "\xE2\x90";
      out += static_cast<char>(u == 0x7f ? 0xA1 : 0x80 + u);
    }
  }
  return out;
}

}  // namespace

std::string sourceExcerpt(std::string line, int col) {
  if (!line.empty() && line.back() == '\r') line.pop_back();       // a CRLF line end
  if (col > 160 && static_cast<size_t>(col) <= line.size() + 1) {  // far right: show the part around it
    size_t start = static_cast<size_t>(col) - 1 - 80;
    while (start > 0 && (static_cast<unsigned char>(line[start]) & 0xC0) == 0x80) --start;
    line = "…" + line.substr(start);
    col = col - static_cast<int>(start) + 3;  // "…" is three bytes, one column
  }
  if (line.size() > 200) line.resize(200);
  // Columns count bytes: the caret takes one column per character (a UTF-8 continuation byte
  // takes none) and keeps the line's tabs.
  std::string caret;
  for (int i = 1; i < col && i - 1 < static_cast<int>(line.size()); ++i) {
    unsigned char u = static_cast<unsigned char>(line[i - 1]);
    if ((u & 0xC0) != 0x80) caret += u == '\t' ? '\t' : ' ';
  }
  return "  " + visibleControls(line) + "\n  " + caret + "^";
}

}  // namespace lift
