// The work-group shape of a skeleton's kernel whose program leaves the local size open.
#include "skelcl/WorkGroupShape.h"

#include <algorithm>
#include <cstdint>

namespace lift::skelcl {

namespace {

constexpr uint64_t kPreferredItems = 256;
constexpr uint64_t kFewestItems = 32;  // a warp; fewer than that, the runtime knows better

// The largest divisor of n that is at most limit (at least 1).
uint64_t largestDivisor(uint64_t n, uint64_t limit) {
  for (uint64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

}  // namespace

std::vector<uint64_t> workGroupShapeFor(const std::vector<uint64_t>& global, uint64_t maxItems) {
  const uint64_t items = std::min(kPreferredItems, maxItems);
  if (global.empty() || global.size() > 2 || items < kFewestItems) return {};
  if (global.size() == 1) {
    uint64_t l = largestDivisor(global[0], items);
    return l >= kFewestItems ? std::vector<uint64_t>{l} : std::vector<uint64_t>{};
  }
  // Square tiles first (16 x 16 of 256 work-items), then wider ones (32 x 8, ..., 256 x 1), then
  // taller ones: the first whose both sides divide the global size.
  std::vector<uint64_t> widths;
  for (uint64_t w = 1; w * w <= items; w *= 2) widths.push_back(w);
  std::reverse(widths.begin(), widths.end());  // 16, 8, 4, 2, 1 for 256
  std::vector<uint64_t> order;
  uint64_t square = widths.front();
  for (uint64_t w = square; w <= items; w *= 2) order.push_back(w);         // 16, 32, ..., 256
  for (uint64_t i = 1; i < widths.size(); ++i) order.push_back(widths[i]);  // 8, 4, 2, 1
  for (uint64_t w : order) {
    uint64_t h = items / w;
    if (global[0] % w == 0 && global[1] % h == 0) return {w, h};
  }
  // No full shape divides: the largest divisors, rows first.
  uint64_t w = largestDivisor(global[0], std::min<uint64_t>(items, 32));
  uint64_t h = largestDivisor(global[1], items / w);
  if (w * h >= kFewestItems) return {w, h};
  return {};
}

}  // namespace lift::skelcl
