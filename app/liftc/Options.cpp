// Option values shared by liftc's subcommands (see Options.h).
#include "app/liftc/Options.h"

#include <fmt/format.h>

#include <stdexcept>

namespace lift::liftc {

void badArgument(const std::string& message) { throw std::invalid_argument(message); }

std::optional<int64_t> parseInteger(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  return std::stoll(s);
}

arith::Env parseSizeOptions(const std::vector<std::string>& specs, const ir::Program& p,
                            const std::string& example) {
  std::string names;
  for (auto& s : p.sizes) names += (names.empty() ? "" : ", ") + s.name;
  arith::Env sizes;
  for (const std::string& spec : specs) {
    size_t start = 0;
    while (true) {
      size_t end = spec.find(',', start);
      std::string item = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        badArgument(fmt::format("--size: expected NAME=VALUE (e.g. --size N={}), got '{}'", example, item));
      std::string name = item.substr(0, eq), value = item.substr(eq + 1);
      if (!p.findSize(name))
        badArgument(fmt::format("--size: the program has no size '{}' (its sizes: {})", name,
                                names.empty() ? "none" : names));
      auto v = parseInteger(value);
      if (!v)
        badArgument(fmt::format("--size: the value of {} must be a positive integer, got '{}'", name, value));
      if (*v < 1) badArgument(fmt::format("--size: {} must be at least 1, got {}", name, *v));
      if (*v > kMaxSize)
        badArgument(fmt::format("--size: {} = {} is too large (at most {})", name, *v, kMaxSize));
      if (auto it = sizes.find(name); it != sizes.end() && it->second != *v)
        badArgument(fmt::format("--size: {} is given twice, as {} and {}", name, it->second, *v));
      sizes[name] = *v;
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return sizes;
}

}  // namespace lift::liftc
