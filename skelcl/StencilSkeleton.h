// StencilSkeleton: the untyped implementation of Stencil — a user function of an element's
// neighbourhood (up to `halo` elements away in each dimension; rows and columns for a matrix)
// applied to every element, reading outside the container either a neutral value or the nearest
// element (SkelCL's out-of-bound modes). The user function reads its neighbourhood SkelCL's way,
// get(in, dx) for a vector and get(in, dx, dy) for a matrix (dx the column offset, dy the row
// offset, integer constants; `in` alone is the element itself). Each read becomes a parameter of
// a .lift user function, applied to the neighbourhoods of
//   pad2D(top, bottom, halo, halo, mode) |> slide2D(2 halo + 1, 1)   (a vector: pad and slide)
// one work-item per element; the Lift compiler generates the kernel. Over several devices the
// input is overlap(halo)-distributed (each device also stores `halo` rows of its neighbours; a
// block or other overlap input is redistributed to it) and the output block-distributed; a device
// whose part ends at the matrix's edge pads there (top, bottom = halo), elsewhere it reads its halo
// rows (0), so there is one kernel per pair (top, bottom) met, compiled when first needed. When
// the device set has a result store holding kernels of the high-level program for a part's
// padding (top, bottom), the same with map for mapGlb,
//   x |> pad2D(top, bottom, halo, halo, mode) |> slide2D(2 halo + 1, 1) |> map(map(fun(nbh => ...)))
// (x: [[T]C]R; `liftc explore` on storedKernels(...).liftText(), top = bottom = halo for a
// container on one device), for the part's R (and C) on its device, the best of them computes
// that part instead (StoredKernel.h).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "skelcl/ContainerStorage.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

// SkelCL's out-of-bound handling: a neutral value, or the nearest element inside.
enum class OutOfBound { Neutral, Nearest };

// The user function of a stencil with its neighbourhood reads made parameters: one per offset
// read, named NAME_r_c (r = dy + halo, c = dx + halo; a vector's NAME_c), in `offsets` order.
struct StencilFunction {
  UserFunction function;                     // the .lift user function, one scalar per read
  std::vector<std::pair<int, int>> offsets;  // (dy, dx) of each parameter, sorted
  int dimensions = 0;                        // 1 (get(in, dx)), 2 (get(in, dx, dy)), 0 (neither)
};

// Rewrites `f` (one parameter) into a StencilFunction; throws LiftError for an offset beyond
// `halo`, a non-constant offset or reads of both kinds.
StencilFunction stencilFunction(const UserFunction& f, size_t halo, const std::string& what);

// The .lift program of a stencil over `dimensions` dimensions whose rows are padded by `top`
// and `bottom` (the columns by `halo`) with `padding` ("clamp" or a literal): `lowered`, the
// skeleton's own (mapGlb); else the high-level program whose stored kernels it takes (map).
std::string stencilProgram(const StencilFunction& f, int dimensions, size_t halo, size_t top, size_t bottom,
                           const std::string& padding, bool lowered = true);

class StencilSkeleton {
 public:
  // `what`: "Stencil<float(float)>"; `neutral`: the .lift literal read outside for Neutral.
  StencilSkeleton(const std::string& what, const std::string& source, const std::string& returnType,
                  const std::string& paramType, size_t halo, OutOfBound mode, std::string neutral);

  // Runs on `in` (a vector when `dimensions` is 1, else a matrix) into `out`, of its shape.
  void run(const ContainerStorage& in, ContainerStorage& out, int dimensions) const;

  size_t halo() const { return halo_; }
  const StencilFunction& function() const { return function_; }
  // The kernel for `dimensions` with rows padded by `top` and `bottom` (compiled when first asked).
  const SkeletonKernel& kernel(int dimensions, size_t top, size_t bottom) const {
    return *compiled(dimensions, top, bottom).own;
  }
  // The high-level program for the same padding and the kernels taken from the device set's
  // result store for it (a container on one device: top = bottom = halo).
  const StoredKernels& storedKernels(int dimensions, size_t top, size_t bottom) const {
    return *compiled(dimensions, top, bottom).stored;
  }
  // Those of a container on one device (the program to search for it).
  const StoredKernels& storedKernels(int dimensions) const { return storedKernels(dimensions, halo_, halo_); }

 private:
  struct Kernels {
    std::unique_ptr<SkeletonKernel> own;
    std::unique_ptr<StoredKernels> stored;
  };
  Kernels& compiled(int dimensions, size_t top, size_t bottom) const;

  std::string what_;
  size_t halo_;
  std::string padding_;
  StencilFunction function_;
  mutable std::map<std::tuple<int, size_t, size_t>, Kernels> kernels_;
};

}  // namespace lift::skelcl
