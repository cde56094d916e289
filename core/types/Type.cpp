// Uniqued, immutable types. Every distinct type exists once per process (nodes are never
// freed), so equality is pointer identity; a mutex guards the intern table so that types may
// be built from several threads (the exploration evaluates candidates in parallel).
#include "core/types/Type.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "core/support/Diagnostic.h"

namespace lift {

class TypeNode {
 public:
  Type::Kind kind;
  ScalarKind scalar = ScalarKind::Float;  // Scalar, Vector
  int width = 0;                          // Vector
  std::vector<Type> elems;                // Tuple
  Type elem;                              // Array
  arith::Expr length;                     // Array
};

namespace {

// Structural key of a type whose children are already uniqued.
struct Key {
  Type::Kind kind;
  ScalarKind scalar;
  int width;
  std::vector<const TypeNode*> children;  // tuple elements, or the array element
  const void* length;                     // the array length's (uniqued) node

  bool operator==(const Key&) const = default;
};

struct KeyHash {
  size_t operator()(const Key& k) const noexcept {
    size_t h = static_cast<size_t>(k.kind) * 31 + static_cast<size_t>(k.scalar);
    h = h * 1000003 ^ static_cast<size_t>(k.width);
    for (auto* c : k.children) h = h * 1000003 ^ std::hash<const void*>()(c);
    h = h * 1000003 ^ std::hash<const void*>()(k.length);
    return h;
  }
};

class TypeTable {
 public:
  static TypeTable& instance() {
    static TypeTable* t = new TypeTable;  // never destroyed: types outlive static destructors
    return *t;
  }

  const TypeNode* intern(const Key& key, TypeNode proto) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(key);
    if (it != table_.end()) return it->second;
    nodes_.push_back(std::move(proto));
    const TypeNode* n = &nodes_.back();
    table_.emplace(key, n);
    return n;
  }

 private:
  std::mutex mutex_;
  std::deque<TypeNode> nodes_;  // stable addresses
  std::unordered_map<Key, const TypeNode*, KeyHash> table_;
};

bool validVectorWidth(int w) { return w == 2 || w == 3 || w == 4 || w == 8 || w == 16; }

// Whether an array length prints without parentheses after `]`: a name, a number, or a
// product/quotient of those ("N", "4", "N*M", "N/4").
bool isSimpleLength(const std::string& s) {
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '*' || c == '/' || c == '%'))
      return false;
  return !s.empty();
}

}  // namespace

int scalarByteSize(ScalarKind k) {
  switch (k) {
    case ScalarKind::Float:
      return 4;
    case ScalarKind::Double:
      return 8;
    case ScalarKind::Int:
      return 4;
    case ScalarKind::Bool:
      return 1;
  }
  return 0;
}

std::string scalarName(ScalarKind k) {
  switch (k) {
    case ScalarKind::Float:
      return "float";
    case ScalarKind::Double:
      return "double";
    case ScalarKind::Int:
      return "int";
    case ScalarKind::Bool:
      return "bool";
  }
  return "?";
}

// ----- construction -----------------------------------------------------------------------

Type Type::scalar(ScalarKind k) {
  static const std::array<Type, 4> scalars = [] {
    std::array<Type, 4> r;
    for (int i = 0; i < 4; ++i) {
      TypeNode n;
      n.kind = Kind::Scalar;
      n.scalar = static_cast<ScalarKind>(i);
      r[i] = Type(TypeTable::instance().intern(Key{Kind::Scalar, n.scalar, 0, {}, nullptr}, n));
    }
    return r;
  }();
  return scalars[static_cast<size_t>(k)];
}

Type Type::float_() { return scalar(ScalarKind::Float); }
Type Type::double_() { return scalar(ScalarKind::Double); }
Type Type::int_() { return scalar(ScalarKind::Int); }
Type Type::bool_() { return scalar(ScalarKind::Bool); }

Type Type::vector(ScalarKind elem, int width) {
  LIFT_ASSERT(validVectorWidth(width), fmt::format("invalid vector width {}", width));
  TypeNode n;
  n.kind = Kind::Vector;
  n.scalar = elem;
  n.width = width;
  return Type(TypeTable::instance().intern(Key{Kind::Vector, elem, width, {}, nullptr}, n));
}

Type Type::tuple(std::vector<Type> elems) {
  LIFT_ASSERT(elems.size() >= 2, "a tuple type needs at least two elements");
  Key key{Kind::Tuple, ScalarKind::Float, 0, {}, nullptr};
  for (Type t : elems) {
    LIFT_ASSERT(t, "null tuple element type");
    key.children.push_back(t.node());
  }
  TypeNode n;
  n.kind = Kind::Tuple;
  n.elems = std::move(elems);
  return Type(TypeTable::instance().intern(key, std::move(n)));
}

Type Type::array(Type elem, arith::Expr length) {
  LIFT_ASSERT(elem && length, "array type needs an element type and a length");
  TypeNode n;
  n.kind = Kind::Array;
  n.elem = elem;
  n.length = length;
  return Type(
      TypeTable::instance().intern(Key{Kind::Array, ScalarKind::Float, 0, {elem.node()}, length.node()}, n));
}

// ----- inspection -------------------------------------------------------------------------

Type::Kind Type::kind() const {
  LIFT_ASSERT(n_, "kind() of the null type");
  return n_->kind;
}

ScalarKind Type::scalarKind() const {
  LIFT_ASSERT(isScalar() || isVector(), "scalarKind() of a non-scalar type " + toString());
  return n_->scalar;
}

int Type::vectorWidth() const {
  LIFT_ASSERT(isVector(), "vectorWidth() of a non-vector type " + toString());
  return n_->width;
}

std::span<const Type> Type::tupleElems() const {
  LIFT_ASSERT(isTuple(), "tupleElems() of a non-tuple type " + toString());
  return n_->elems;
}

Type Type::elem() const {
  LIFT_ASSERT(isArray(), "elem() of a non-array type " + toString());
  return n_->elem;
}

arith::Expr Type::length() const {
  LIFT_ASSERT(isArray(), "length() of a non-array type " + toString());
  return n_->length;
}

Type Type::innermost() const {
  Type t = *this;
  while (t.isArray()) t = t.elem();
  return t;
}

namespace {

// Alignment of a type in OpenCL memory (scalars and vectors: their size, float3 as float4).
int64_t alignmentOf(Type t) {
  switch (t.kind()) {
    case Type::Kind::Scalar:
      return scalarByteSize(t.scalarKind());
    case Type::Kind::Vector:
      return scalarByteSize(t.scalarKind()) * (t.vectorWidth() == 3 ? 4 : t.vectorWidth());
    case Type::Kind::Tuple: {
      int64_t a = 1;
      for (Type e : t.tupleElems()) a = std::max(a, alignmentOf(e));
      return a;
    }
    case Type::Kind::Array:
      return alignmentOf(t.elem());
  }
  return 1;
}

}  // namespace

arith::Expr Type::byteSize() const {
  switch (kind()) {
    case Kind::Scalar:
      return arith::cst(scalarByteSize(scalarKind()));
    case Kind::Vector:
      return arith::cst(alignmentOf(*this));  // float3 occupies 16 bytes
    case Kind::Tuple: {
      // C struct layout when every field has a constant size; otherwise the plain sum (fields
      // of symbolic size are arrays whose size is a multiple of their alignment anyway).
      int64_t offset = 0;
      bool constant = true;
      arith::Expr sum = arith::cst(0);
      for (Type e : tupleElems()) {
        arith::Expr s = e.byteSize();
        sum = sum + s;
        if (!s.isCst()) {
          constant = false;
          continue;
        }
        int64_t a = alignmentOf(e);
        offset = (offset + a - 1) / a * a + s.value();
      }
      if (!constant) return sum;
      int64_t a = alignmentOf(*this);
      return arith::cst((offset + a - 1) / a * a);
    }
    case Kind::Array:
      return elem().byteSize() * length();
  }
  return {};
}

arith::Expr Type::scalarCount() const {
  switch (kind()) {
    case Kind::Scalar:
      return arith::cst(1);
    case Kind::Vector:
      return arith::cst(vectorWidth());
    case Kind::Tuple: {
      arith::Expr sum = arith::cst(0);
      for (Type e : tupleElems()) sum = sum + e.scalarCount();
      return sum;
    }
    case Kind::Array:
      return elem().scalarCount() * length();
  }
  return {};
}

std::string Type::toString() const {
  if (!n_) return "?";
  switch (kind()) {
    case Kind::Scalar:
      return scalarName(scalarKind());
    case Kind::Vector:
      return scalarName(scalarKind()) + std::to_string(vectorWidth());
    case Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < n_->elems.size(); ++i) s += (i ? ", " : "") + n_->elems[i].toString();
      return s + ")";
    }
    case Kind::Array: {
      std::string len = arith::toString(length());
      if (!isSimpleLength(len)) len = "(" + len + ")";
      return "[" + elem().toString() + "]" + len;
    }
  }
  return "?";
}

std::string Type::openclName() const {
  LIFT_ASSERT(isScalar() || isVector(), "openclName() of " + toString());
  std::string s = scalarName(scalarKind());
  if (isVector()) s += std::to_string(vectorWidth());
  return s;
}

}  // namespace lift
