// The syntax of size arguments (see SizeList.h).
#include "core/interp/SizeList.h"

#include <fmt/format.h>

#include <cctype>

#include "core/support/Diagnostic.h"

namespace lift::interp {

namespace {

bool isName(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool allDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A piece of the argument as typed, shortened when it is long.
std::string shortened(const std::string& s) {
  constexpr size_t kShown = 40;
  return s.size() > kShown ? s.substr(0, kShown) + "..." : s;
}
std::string quoted(const std::string& s) { return "'" + shortened(s) + "'"; }

}  // namespace

void parseSizeList(const std::string& text, arith::Env& into, const std::string& example) {
  size_t start = 0;
  while (true) {
    size_t end = text.find(',', start);
    std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw LiftError(fmt::format("expected NAME=VALUE (e.g. N={}), got {}", example, quoted(item)));
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    if (!isName(name))
      throw LiftError(fmt::format("expected NAME=VALUE (e.g. N={}): {} is not a size name in {}", example,
                                  quoted(name), quoted(item)));
    if (!allDigits(value))
      throw LiftError(fmt::format("the value of {} must be a positive integer, got {}", name, quoted(value)));
    size_t digits = value.find_first_not_of('0');
    if (digits == std::string::npos) throw LiftError(fmt::format("{} must be at least 1, got 0", name));
    if (value.size() - digits > 10 || std::stoll(value.substr(digits)) > kMaxSize)
      throw LiftError(fmt::format("{} = {} is too large (at most {})", name, shortened(value), kMaxSize));
    int64_t v = std::stoll(value.substr(digits));
    if (auto it = into.find(name); it != into.end())
      throw LiftError(fmt::format("{} is given twice, as {} and {}", name, it->second, v));
    into[name] = v;
    if (end == std::string::npos) return;
    start = end + 1;
  }
}

}  // namespace lift::interp
