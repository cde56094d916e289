// Line and column of byte offsets into one text, each in logarithmic time: parsers that locate
// every token (the user functions' C subset) stay linear in the length of their input, where
// counting lines from the start for each token (lineColOf) made a 100 KB body take seconds.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lift {

class LineIndex {
 public:
  explicit LineIndex(const std::string& text);
  // Line and column (1-based) of `offset`, as lineColOf(text, offset) gives them.
  std::pair<int, int> lineColOf(size_t offset) const;

 private:
  std::vector<size_t> lineStarts_;  // byte offset of each line's first character
  size_t size_ = 0;
};

}  // namespace lift
