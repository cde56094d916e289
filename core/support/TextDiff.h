// Line diff of two texts (longest common subsequence), for rewrite previews, kernel diffs
// between derivation steps and derivation reports.
#pragma once

#include <string>
#include <vector>

namespace lift {

struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind;
  std::string text;
};

// The lines of `before` and `after` in order, each marked same, removed or added.
std::vector<DiffLine> diffLines(const std::string& before, const std::string& after);

// A unified-style rendering: "  same", "- removed", "+ added".
std::string unifiedDiff(const std::vector<DiffLine>& diff);

}  // namespace lift
