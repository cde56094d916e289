// Text the user gave, shortened for a message that quotes it: a 5,000-level location or a pasted
// program must not turn one error into 20 KB of output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lift {

// `text` itself when at most `max` bytes, else its start and end around " … (N bytes) … ".
std::string elided(std::string_view text, size_t max = 100);

}  // namespace lift
