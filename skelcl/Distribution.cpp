// The four distributions and the parts they give each device.
#include "skelcl/Distribution.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

Distribution Distribution::single(int device) { return {Kind::Single, device, 0}; }
Distribution Distribution::copy() { return {Kind::Copy, 0, 0}; }
Distribution Distribution::block() { return {Kind::Block, 0, 0}; }
Distribution Distribution::overlap(size_t halo) { return {Kind::Overlap, 0, halo}; }

std::string Distribution::describe() const {
  switch (kind_) {
    case Kind::Single:
      return fmt::format("single({})", device_);
    case Kind::Copy:
      return "copy";
    case Kind::Block:
      return "block";
    case Kind::Overlap:
      return fmt::format("overlap({})", halo_);
  }
  return "";
}

std::vector<Part> partsOf(const Distribution& d, size_t rows, int deviceCount) {
  std::vector<Part> parts;
  if (d.kind() == Distribution::Kind::Single) {
    if (d.device() < 0 || d.device() >= deviceCount)
      throw LiftError(fmt::format("distribution {}: there is no device {}; the device set has {} (0..{})",
                                  d.describe(), d.device(), deviceCount, deviceCount - 1));
    if (rows > 0) parts.push_back({d.device(), 0, rows, 0, rows});
    return parts;
  }
  if (rows == 0) return parts;
  if (d.kind() == Distribution::Kind::Copy) {
    for (int dev = 0; dev < deviceCount; ++dev) parts.push_back({dev, 0, rows, 0, rows});
    return parts;
  }
  const size_t n = static_cast<size_t>(deviceCount);
  const size_t base = rows / n, extra = rows % n;
  size_t begin = 0;
  for (size_t dev = 0; dev < n; ++dev) {
    size_t end = begin + base + (dev < extra ? 1 : 0);
    if (end > begin) {
      size_t halo = d.kind() == Distribution::Kind::Overlap ? d.halo() : 0;
      parts.push_back(
          {static_cast<int>(dev), begin, end, begin - std::min(begin, halo), std::min(rows, end + halo)});
    }
    begin = end;
  }
  return parts;
}

}  // namespace lift::skelcl
