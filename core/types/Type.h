// Types of Lift programs: scalars, OpenCL vectors, tuples and arrays whose lengths are
// symbolic ArithExprs (`[[float]K]M`). Types are immutable and uniqued: equality is identity.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"

namespace lift {

enum class ScalarKind : uint8_t { Float, Double, Int, Bool };

class TypeNode;

class Type {
 public:
  enum class Kind : uint8_t { Scalar, Vector, Tuple, Array };

  Type() = default;  // the null type ("unknown")
  explicit Type(const TypeNode* n) : n_(n) {}
  explicit operator bool() const { return n_ != nullptr; }
  const TypeNode* node() const { return n_; }
  friend bool operator==(Type a, Type b) { return a.n_ == b.n_; }
  friend bool operator!=(Type a, Type b) { return a.n_ != b.n_; }

  // ----- construction (uniqued) -----
  static Type scalar(ScalarKind k);
  static Type float_();
  static Type double_();
  static Type int_();
  static Type bool_();
  static Type vector(ScalarKind elem, int width);  // width 2, 3, 4, 8 or 16
  static Type tuple(std::vector<Type> elems);      // at least 2 elements
  static Type array(Type elem, arith::Expr length);

  // ----- inspection -----
  Kind kind() const;
  bool isScalar() const { return kind() == Kind::Scalar; }
  bool isVector() const { return kind() == Kind::Vector; }
  bool isTuple() const { return kind() == Kind::Tuple; }
  bool isArray() const { return kind() == Kind::Array; }
  ScalarKind scalarKind() const;             // for Scalar and Vector
  int vectorWidth() const;                   // for Vector
  std::span<const Type> tupleElems() const;  // for Tuple
  Type elem() const;                         // for Array
  arith::Expr length() const;                // for Array

  // The innermost non-array type ("float" for [[float]N]M).
  Type innermost() const;
  // Size in bytes of one value (arrays: symbolic, via the length expressions).
  arith::Expr byteSize() const;
  // Number of scalars in one value (vectors count their width; arrays multiply).
  arith::Expr scalarCount() const;

  // "float", "float4", "(float, int)", "[[float]K]M"
  std::string toString() const;
  // The OpenCL C spelling of a scalar or vector type: "float", "float4", "int".
  std::string openclName() const;

 private:
  const TypeNode* n_ = nullptr;
};

int scalarByteSize(ScalarKind k);
std::string scalarName(ScalarKind k);

}  // namespace lift

template <>
struct std::hash<lift::Type> {
  size_t operator()(lift::Type t) const noexcept { return std::hash<const void*>()(t.node()); }
};
