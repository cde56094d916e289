// FNV-1a, 64 bits: a stable hash of text (the same on every machine and run, unlike std::hash),
// for the file names of the on-disk caches. (ResultStore's hashText keeps its own offset basis,
// 1469598103934665603, a digit short of FNV's: stores already hold its hashes.)
#pragma once

#include <cstdint>
#include <string_view>

namespace lift::support {

inline uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;  // 14695981039346656037
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;  // 1099511628211
  }
  return h;
}

}  // namespace lift::support
