// Scan<T(T)>: SkelCL's scan skeleton, the exclusive prefix scan. Built from the source of an
// associative C function of two elements and its identity, e.g.
//   Scan<float(float)> prefixSum("float func(float x, float y) { return x + y; }", "0");
//   Vector<float> y = prefixSum(x);   // y[i] = x[0] + ... + x[i-1], y[0] = 0
// it scans a vector on the input's devices; over a block-distributed vector each device scans
// its part from the combined totals of the parts before it (ScanSkeleton.h).
#pragma once

#include <string>

#include "skelcl/ScanSkeleton.h"
#include "skelcl/Vector.h"

namespace lift::skelcl {

template <class Signature>
class Scan;

template <class T>
class Scan<T(T)> {
 public:
  explicit Scan(const std::string& source, const std::string& identity = "0")
      : skeleton_(std::string("Scan<") + ElementTraits<T>::name + "(" + ElementTraits<T>::name + ")>", source,
                  ElementTraits<T>::scalar, identity) {}

  Vector<T> operator()(const Vector<T>& in) const {
    Vector<T> out(DeviceOutput{}, in.devices(), in.size());
    skeleton_.run(in, out);
    return out;
  }
  // Into an existing vector of as many elements on the same devices (its device memory reused
  // when it has the input's distribution already: no allocation in a loop of scans).
  void operator()(const Vector<T>& in, Vector<T>& out) const { skeleton_.run(in, out); }

  // In chunks or in work-groups (ScanSkeleton.h); Auto by default: work-groups on GPUs (one pass).
  void setForm(ScanForm f) { skeleton_.setForm(f); }
  const SkeletonKernel& kernel() const { return skeleton_.kernel(); }
  const ScanSkeleton& skeleton() const { return skeleton_; }

 private:
  ScanSkeleton skeleton_;
};

}  // namespace lift::skelcl
