// Line diff by longest common subsequence; see TextDiff.h. Programs and kernels are at most a
// few thousand lines, so the quadratic table is fine; beyond that the common prefix and suffix
// are stripped first, which keeps typical single-rewrite diffs small.
#include "core/support/TextDiff.h"

#include <algorithm>

namespace lift {

static std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    lines.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<DiffLine> diffLines(const std::string& before, const std::string& after) {
  std::vector<std::string> a = splitLines(before), b = splitLines(after);
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  std::vector<DiffLine> out;
  for (size_t i = 0; i < prefix; ++i) out.push_back({DiffLine::Kind::Same, a[i]});
  if (n * m > 25'000'000) {
    // Too large for the table: report the middle as replaced.
    for (size_t i = 0; i < n; ++i) out.push_back({DiffLine::Kind::Removed, a[prefix + i]});
    for (size_t j = 0; j < m; ++j) out.push_back({DiffLine::Kind::Added, b[prefix + j]});
  } else {
    // lcs[i][j]: length of the LCS of a[prefix+i..] and b[prefix+j..].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] =
            a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        out.push_back({DiffLine::Kind::Same, a[prefix + i]});
        ++i, ++j;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        out.push_back({DiffLine::Kind::Added, b[prefix + j]});
        ++j;
      } else {
        out.push_back({DiffLine::Kind::Removed, a[prefix + i]});
        ++i;
      }
    }
  }
  for (size_t k = a.size() - suffix; k < a.size(); ++k) out.push_back({DiffLine::Kind::Same, a[k]});
  return out;
}

std::string unifiedDiff(const std::vector<DiffLine>& diff) {
  std::string out;
  for (auto& l : diff) {
    out += l.kind == DiffLine::Kind::Same ? "  " : l.kind == DiffLine::Kind::Removed ? "- " : "+ ";
    out += l.text;
    out += '\n';
  }
  return out;
}

}  // namespace lift
