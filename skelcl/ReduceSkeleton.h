// ReduceSkeleton: the untyped implementation of Reduce — a container folded to one value with an
// associative user function and its identity. Each device reduces its own rows in two launches
// of one program, `join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(f, identity)) o split(C)`
// over G*C elements: first G chunks to G partial results, then those G to one. A part whose
// length is no multiple of the chunk (or an overlap part, whose halo must not count) is first
// copied on the device into a buffer padded with the identity. The host combines the devices'
// results with the user function (core/cfun's interpreter); a copy-distributed container is
// reduced on its first device only. When the device set has a result store holding kernels of
// the skeleton's high-level program
//   reduce(f, identity) $ x        (x: [T]N)
// (`liftc explore` on storedKernels().liftText()) for a part's N on its device, the best of them
// folds that part instead of the two launches (StoredKernel.h; not for an overlap part after
// the first, whose own elements do not start its buffer).
#pragma once

#include <memory>
#include <string>

#include "codegen/runtime/HostArray.h"
#include "core/cfun/CFunAst.h"
#include "skelcl/ContainerStorage.h"
#include "skelcl/ScalarOperator.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

class ReduceSkeleton {
 public:
  // `type`: the element type's OpenCL name; `identity`: its value as C text ("0", "1.5f").
  ReduceSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
                 const std::string& identity);
  // The same from a user function already parsed (another skeleton's, ZipReduce's finishing).
  ReduceSkeleton(const std::string& what, UserFunction f, runtime::ScalarType type,
                 const std::string& identity);

  // The reduction of every element of `in` (the identity for an empty container). Uses the
  // container's distribution, block when it has none.
  cfun::Scalar run(const ContainerStorage& in) const;

  const SkeletonKernel& kernel() const { return *kernel_; }
  const UserFunction& userFunction() const { return function_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }
  runtime::ScalarType type() const { return type_; }
  // The identity as a literal of the .lift language.
  const std::string& identityLiteral() const { return operator_.identityLiteral(); }
  // At most this many work-items (chunks) in the first launch on each device.
  static constexpr size_t kMaxChunks = 1024;

  // Reduces `count` (> 0) elements of `buffer` from element `offset` on device `device`; returns
  // the one-element buffer that will hold the result once the device's queue is finished.
  cl::Buffer reduceOnDevice(DeviceSet& devices, int device, const cl::Buffer& buffer, size_t offset,
                            size_t count) const;
  // One device's one-element result, as reduceOnDevice gives it.
  struct DeviceResult {
    int device = 0;
    cl::Buffer buffer;
  };
  // The results read back (waiting for their devices) and combined on the host in order; the
  // identity when there are none.
  cfun::Scalar combineOnHost(DeviceSet& devices, const std::vector<DeviceResult>& results) const;

 private:
  std::string what_;
  runtime::ScalarType type_;
  ScalarOperator operator_;
  UserFunction function_;
  std::unique_ptr<SkeletonKernel> kernel_;
  std::unique_ptr<StoredKernels> stored_;
};

// The .lift program of Reduce (exposed for tests and documentation); `identity` is a literal of
// the .lift language.
std::string reduceProgram(const UserFunction& f, const std::string& identity);
// The high-level program whose stored kernels the skeleton takes.
std::string reduceSearchProgram(const UserFunction& f, const std::string& identity);

}  // namespace lift::skelcl
