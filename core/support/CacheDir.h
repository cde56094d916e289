// Where Lift Studio keeps what it caches on disk for a user: `$XDG_CACHE_HOME/lift-studio/<what>`
// (an absolute XDG_CACHE_HOME only), else `~/.cache/lift-studio/<what>`; empty when neither
// variable is set. The build cache (kernels) and the reference cache (references) live there.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace lift::support {

inline std::filesystem::path userCacheDir(const char* what) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::filesystem::path(xdg) / "lift-studio" / what;
  const char* home = std::getenv("HOME");
  if (home && *home) return std::filesystem::path(home) / ".cache" / "lift-studio" / what;
  return {};
}

}  // namespace lift::support
