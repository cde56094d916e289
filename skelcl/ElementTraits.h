// The element types a SkelCL container may hold (float, double, int) with their OpenCL names, the
// runtime's scalar types and the user-function interpreter's slots.
#pragma once

#include <cstdint>

#include "codegen/runtime/HostArray.h"
#include "core/cfun/CFunAst.h"

namespace lift::skelcl {

template <class T>
struct ElementTraits;

template <>
struct ElementTraits<float> {
  static constexpr const char* name = "float";
  static constexpr runtime::ScalarType scalar = runtime::ScalarType::Float;
  static float fromSlot(cfun::Scalar s) { return s.f; }
};

template <>
struct ElementTraits<double> {
  static constexpr const char* name = "double";
  static constexpr runtime::ScalarType scalar = runtime::ScalarType::Double;
  static double fromSlot(cfun::Scalar s) { return s.d; }
};

template <>
struct ElementTraits<int32_t> {
  static constexpr const char* name = "int";
  static constexpr runtime::ScalarType scalar = runtime::ScalarType::Int;
  static int32_t fromSlot(cfun::Scalar s) { return s.i; }
};

}  // namespace lift::skelcl
