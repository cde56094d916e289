// Values of the reference interpreter: scalars (float, double, int, bool), OpenCL vectors,
// tuples and arrays. Values are immutable and cheap to copy (payloads are shared).
//
// Arrays whose innermost elements are scalars or vectors are stored flat: one contiguous block
// of scalars with the array's dimensions, as the OpenCL device stores them. Split, join,
// asVector, asScalar and taking a row are then views of the same block; nothing is copied.
// zip(a, b) is stored as its component arrays (its tuples are built only when asked for);
// other arrays of tuples (or of arrays of different shapes) as a list of element values.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/cfun/CFunAst.h"
#include "core/types/Type.h"

namespace lift::interp {

using cfun::Scalar;

class Value {
 public:
  enum class Kind : uint8_t { Scalar, Vector, Tuple, Array };

  Value() = default;  // the int 0

  // ----- construction -----
  static Value scalar(ScalarKind k, Scalar s);
  static Value ofFloat(float v);
  static Value ofDouble(double v);
  static Value ofInt(int32_t v);
  static Value ofBool(bool v);
  static Value vector(ScalarKind k, std::span<const Scalar> lanes);
  static Value tuple(std::vector<Value> elems);
  // An array of the given elements, stored flat when they are scalars, vectors or flat arrays
  // of one kind and shape.
  static Value array(std::vector<Value> elems);
  // A flat array: `dims` outermost first (at most kMaxFlatRank); each innermost element is a
  // scalar (width 1) or a vector of `width` lanes; data holds product(dims) * width scalars,
  // row-major.
  static constexpr size_t kMaxFlatRank = 8;
  static Value flatArray(ScalarKind k, int width, std::vector<int64_t> dims, std::vector<Scalar> data);
  // The array of tuples of the arrays' elements (at least two arrays of one length).
  static Value zip(std::vector<Value> arrays);
  // Every element (at every depth) equal to `fill`; `t` is a scalar, vector or array type whose
  // lengths are constants.
  static Value filled(Type t, Scalar fill);

  // ----- inspection -----
  Kind kind() const { return kind_; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  bool isVector() const { return kind_ == Kind::Vector; }
  bool isTuple() const { return kind_ == Kind::Tuple; }
  bool isArray() const { return kind_ == Kind::Array; }

  // Scalars and vectors: the kind of their scalars.
  ScalarKind scalarKind() const { return scalarKind_; }
  // Scalars: the bits; `asDouble` converts any scalar kind to double (bool 0/1).
  Scalar bits() const { return s_; }
  double asDouble() const;
  float asFloat() const { return s_.f; }  // precondition: float
  int32_t asInt() const { return s_.i; }  // precondition: int
  bool asBool() const { return s_.b; }    // precondition: bool

  // Vectors: width and lanes.
  int width() const { return width_; }
  Scalar lane(int i) const;
  std::span<const Scalar> lanes() const;

  // Arrays: length; tuples: arity; vectors: width.
  size_t size() const;
  // Array element, tuple component or vector lane i.
  Value at(size_t i) const;

  // Arrays made by zip: their component arrays.
  bool isZip() const;
  std::span<const Value> zipComponents() const;

  // Flat arrays: the scalars, the dimensions and the innermost element's kind and width.
  bool isFlat() const;
  std::span<const Scalar> flatData() const;
  std::span<const int64_t> dims() const;
  ScalarKind flatKind() const;
  int flatWidth() const;
  // A flat array's scalars seen with other dimensions and innermost vector width (the number
  // of scalars must not change): split, join, asVector and asScalar without copying.
  Value reshaped(std::vector<int64_t> dims, int width) const;

  // The type of the value, with constant array lengths ("[[float]4]8"). An empty array has
  // the element type of the first element it would have; here unknown: [int]0.
  Type type() const;
  // Number of scalars in the value (vectors count their width).
  size_t scalarCount() const;
  // Writes the value's scalars in order (row-major, tuple components in order).
  void flattenInto(std::vector<Scalar>& out) const;
  // "[1.5, -0.25, ... (30 more)]" showing at most `maxScalars` scalars in all (at least the
  // first element of each array shown is begun).
  std::string toString(size_t maxScalars = 16) const;

  // Internal representation of arrays (public for the builder and the interpreter).
  struct ArrayRep;

 private:
  friend class ArrayBuilder;
  Kind kind_ = Kind::Scalar;
  ScalarKind scalarKind_ = ScalarKind::Int;
  uint8_t width_ = 0;
  union {
    Scalar s_{};           // scalars
    const Scalar* lanes_;  // vectors: lane 0, inside what p_ keeps alive
  };
  std::shared_ptr<const void> p_;  // vectors: a std::vector<Scalar> or the ArrayRep they are
                                   // an element of; tuples: std::vector<Value>; arrays: ArrayRep

  const ArrayRep& rep() const { return *static_cast<const ArrayRep*>(p_.get()); }
  const std::vector<Value>& tupleRep() const { return *static_cast<const std::vector<Value>*>(p_.get()); }
  static Value fromRep(std::shared_ptr<const ArrayRep> r);
  void print(std::string& out, size_t& budget) const;
};

struct Value::ArrayRep {
  // Flat: the scalars start at `base`; they are `own` (an array that made them) or belong to
  // `owner` (a view: a row, a reshaped array). dims (outermost first, `rank` of them); the
  // innermost elements are scalars of `kind`, or vectors of `width` lanes.
  bool isFlat = false;
  std::vector<Scalar> own;
  std::shared_ptr<const ArrayRep> owner;
  const Scalar* base = nullptr;
  std::array<int64_t, kMaxFlatRank> dims{};
  uint8_t rank = 0;
  ScalarKind kind = ScalarKind::Float;
  int width = 1;
  // Zipped (not flat, zipped not empty): the component arrays.
  std::vector<Value> zipped;
  // Boxed (not flat, zipped empty): the elements.
  std::vector<Value> elems;

  bool flat() const { return isFlat; }
  bool isZip() const { return !zipped.empty(); }
  size_t length() const {
    return flat() ? static_cast<size_t>(dims[0]) : isZip() ? zipped[0].size() : elems.size();
  }
  // Scalars in one element of the outermost dimension.
  size_t stride() const;
  // The rep that owns the scalars, for a new view of them (`self` is this rep's handle).
  std::shared_ptr<const ArrayRep> storage(const std::shared_ptr<const void>& self) const {
    return owner ? owner : std::shared_ptr<const ArrayRep>(self, this);
  }
};

// Builds an array element by element, storing it flat while the elements allow it.
class ArrayBuilder {
 public:
  explicit ArrayBuilder(size_t expectedLength = 0);
  void push(const Value& v);
  size_t size() const { return count_; }
  Value finish();

 private:
  void toBoxed();
  size_t expected_;
  size_t count_ = 0;
  bool flat_ = true;
  ScalarKind kind_ = ScalarKind::Float;
  int width_ = 1;
  std::vector<int64_t> innerDims_;  // dims of each element (empty for scalars/vectors)
  std::vector<Scalar> data_;
  std::vector<Value> elems_;
};

// Reads / writes one scalar of kind `k` as double (for comparisons and summaries).
double scalarToDouble(ScalarKind k, Scalar s);

}  // namespace lift::interp
