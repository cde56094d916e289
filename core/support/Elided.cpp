// elided: keep both ends of a long text, cut on UTF-8 character boundaries.
#include "core/support/Elided.h"

#include <fmt/format.h>

namespace lift {
namespace {

// The largest cut at or below `at` that does not split a UTF-8 character.
size_t characterBoundary(std::string_view text, size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace

std::string elided(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t head = characterBoundary(text, max * 2 / 3);
  size_t tail = characterBoundary(text, text.size() - max / 3);
  return fmt::format("{} … ({} bytes) … {}", text.substr(0, head), text.size(), text.substr(tail));
}

}  // namespace lift
