// LineIndex: the offsets where lines start, searched by bisection.
#include "core/support/LineIndex.h"

#include <algorithm>

namespace lift {

LineIndex::LineIndex(const std::string& text) : size_(text.size()) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lineStarts_.push_back(i + 1);
}

std::pair<int, int> LineIndex::lineColOf(size_t offset) const {
  offset = std::min(offset, size_);
  auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  size_t line = static_cast<size_t>(after - lineStarts_.begin());  // 1-based
  return {static_cast<int>(line), static_cast<int>(offset - lineStarts_[line - 1]) + 1};
}

}  // namespace lift
