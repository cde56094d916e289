// Distribution: how a container's rows are laid out over the devices of a DeviceSet (SkelCL's
// single, copy, block and overlap), and the parts it gives each device. A vector's rows are its
// elements; a matrix is distributed by whole rows.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lift::skelcl {

class Distribution {
 public:
  enum class Kind { Single, Copy, Block, Overlap };

  // All rows on one device.
  static Distribution single(int device = 0);
  // All rows on every device.
  static Distribution copy();
  // Consecutive blocks of rows, one per device, as equal as possible (the first devices get one
  // more row when the count does not divide).
  static Distribution block();
  // Blocks as block(), each extended by `halo` rows of its neighbours on both sides (fewer at
  // the ends): what a stencil reads across a block boundary.
  static Distribution overlap(size_t halo);

  Kind kind() const { return kind_; }
  int device() const { return device_; }  // Single: which device
  size_t halo() const { return halo_; }   // Overlap: rows on each side
  std::string describe() const;           // "single(1)", "block", "overlap(2)"
  bool operator==(const Distribution&) const = default;

 private:
  Distribution(Kind k, int device, size_t halo) : kind_(k), device_(device), halo_(halo) {}
  Kind kind_ = Kind::Block;
  int device_ = 0;
  size_t halo_ = 0;
};

// One device's part of a distributed container, in rows. The device stores rows
// [storedBegin, storedEnd): its own rows [begin, end) and, for overlap, the halo around them.
struct Part {
  int device = 0;
  size_t begin = 0, end = 0;
  size_t storedBegin = 0, storedEnd = 0;

  size_t rows() const { return end - begin; }
  size_t storedRows() const { return storedEnd - storedBegin; }
  bool operator==(const Part&) const = default;
};

// The parts of `rows` rows distributed by `d` over `deviceCount` devices, in device order.
// Devices left without rows (more devices than rows) get no part. Throws LiftError when `d`
// names a device outside 0..deviceCount-1.
std::vector<Part> partsOf(const Distribution& d, size_t rows, int deviceCount);

}  // namespace lift::skelcl
