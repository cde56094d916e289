// Address-space inference: where a value is stored when it needs storage of its own (a value
// consumed by another pattern rather than written straight into its consumer's memory).
//
//  * toGlobal / toLocal / toPrivate decide for the user functions they wrap; the innermost
//    wrapper wins, and a map, reduction or iterate is stored where its function's result is.
//  * Without a wrapper: a value made by one work-item for itself (inside mapLcl or mapGlb, or
//    in a kernel without parallel maps) is private when its size is a small constant; a value
//    a work-group makes together (inside mapWrg, outside mapLcl) is local when its size is a
//    small constant; anything else is global.
//  * Kernel inputs and the kernel's result are global; a reduction's accumulator is private
//    when it is small (EmitReduce.cpp), whatever its result's destination.
//
// A private value a work-group's mapLcl makes (toPrivate(mapLcl1(mapLcl0(...))), or a
// work-group-level reduceSeq whose initial value or function is such a mapLcl) is split over the
// work-items: each stores only its own slice (Memory::lclDims, TemporaryStorage).
//
// A value written directly into its destination (a map's body writing element i of the map's
// result, a reduction's function writing the accumulator) goes where the destination is.
#pragma once

#include <optional>
#include <unordered_map>

#include "codegen/AddressSpace.h"
#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

// Where code runs: by the whole NDRange, by a work-group, by one work-item.
enum class Level : uint8_t { Kernel, WorkGroup, Thread };

class AddressSpaceInference {
 public:
  // The space given by the program for the value of `e` (a producing call), if any.
  std::optional<AddressSpace> explicitSpace(const ir::Expr& e);
  // The same for the result of applying f.
  std::optional<AddressSpace> explicitSpaceOf(const ir::Fun& f);

  // Default space of a temporary made at `level` of type t.
  static AddressSpace defaultSpace(Level level, Type t);

 private:
  std::unordered_map<const ir::Node*, std::optional<AddressSpace>> memo_;
};

// Private and local arrays larger than these (in scalars) are not made by default.
constexpr int64_t kMaxDefaultPrivateScalars = 256;
constexpr int64_t kMaxDefaultLocalScalars = 4096;

}  // namespace lift::codegen
