// ElementwiseSkeleton: the untyped implementation of Map and Zip — a user function applied to
// every element of one or more containers of the same shape, giving a container of that shape.
// Its program is `mapGlb0(f) $ x` (zip(x0, x1) for two inputs): one work-item per element.
// Each device runs the kernel on the rows it stores (for overlap, its halo too, so that the
// output has the same overlap distribution and consistent halos) — or, when the device set has a
// result store holding kernels of the skeleton's high-level program
//   map(f) $ x0        map(f) $ zip(x0, x1)        (xi: [Ti]N)
// (`liftc explore` on storedKernels().liftText()) for a part's N on its device, the best of them
// (StoredKernel.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "skelcl/ContainerStorage.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

class ElementwiseSkeleton {
 public:
  // `what`: "Map<float(float)>"; the function's types are checked against the signature.
  ElementwiseSkeleton(const std::string& what, const std::string& source, const std::string& returnType,
                      const std::vector<std::string>& paramTypes);

  // Runs on `inputs` (one per parameter) into `output`, which has their shape. The inputs take
  // the distribution of the first that has one (block when none has); inputs distributed
  // otherwise are redistributed to it. Throws LiftError when the shapes or device sets differ.
  void run(const std::vector<const ContainerStorage*>& inputs, ContainerStorage& output) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  const UserFunction& userFunction() const { return function_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }

 private:
  std::string what_;
  UserFunction function_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<StoredKernels> stored_;
};

// The .lift program of an element-wise skeleton (exposed for tests and documentation): `lowered`,
// the skeleton's own (mapGlb0); else the high-level program whose stored kernels it takes (map).
std::string elementwiseProgram(const UserFunction& f, bool lowered = true);

}  // namespace lift::skelcl
