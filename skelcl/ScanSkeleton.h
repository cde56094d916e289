// ScanSkeleton: the untyped implementation of Scan — the exclusive prefix scan of a vector with an
// associative user function and its identity (element i combines the identity with the elements
// before i). Each device scans its own part in the work-efficient way of rule scan-split-chunks,
// with two programs: `join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(f, z)) o split(C)` sums G
// chunks of C elements; the host scans the totals of every device's chunks in order (the devices'
// parts combined: each chunk's offset is the fold of everything before it, on earlier devices
// too); then `join o mapGlb0(fun(p => scanSeq(f, get(0, p)) $ get(1, p))) $ zip(offsets,
// split(C) $ x)` scans each chunk from its offset on the devices. A part that is not G*C
// elements long is padded with the identity on the device. The output has the input's
// distribution (single, copy or block; a copy is scanned on every device from the first
// device's totals).
#pragma once

#include <memory>
#include <string>

#include "skelcl/ContainerStorage.h"
#include "skelcl/ScalarOperator.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

class ScanSkeleton {
 public:
  // `type`: the element type's OpenCL name; `identity`: its value as C text ("0", "1.5f").
  ScanSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
               const std::string& identity);

  // Scans `in` into `out` (as many elements, the same device set). Uses the input's
  // distribution, block when it has none; throws LiftError for an overlap distribution, sizes
  // or device sets that differ.
  void run(const ContainerStorage& in, ContainerStorage& out) const;

  // The kernel that scans the chunks from their offsets, and the one that sums them.
  const SkeletonKernel& kernel() const { return *scanKernel_; }
  const SkeletonKernel& totalsKernel() const { return *totalsKernel_; }
  const UserFunction& userFunction() const { return function_; }
  // At most this many chunks (work-items) on each device.
  static constexpr size_t kMaxChunks = 1024;

 private:
  std::string what_;
  runtime::ScalarType type_;
  ScalarOperator operator_;
  UserFunction function_;
  std::unique_ptr<SkeletonKernel> totalsKernel_;
  std::unique_ptr<SkeletonKernel> scanKernel_;
};

// The .lift program that scans the chunks from their offsets (exposed for tests and
// documentation).
std::string scanProgram(const UserFunction& f);

}  // namespace lift::skelcl
