// Values of the interpreter: construction, element access, flat storage and printing.
#include "core/interp/Value.h"

#include <fmt/format.h>

#include <cmath>

namespace lift::interp {

double scalarToDouble(ScalarKind k, Scalar s) {
  switch (k) {
    case ScalarKind::Float:
      return s.f;
    case ScalarKind::Double:
      return s.d;
    case ScalarKind::Int:
      return s.i;
    case ScalarKind::Bool:
      return s.b ? 1.0 : 0.0;
  }
  return 0;
}

size_t Value::ArrayRep::stride() const {
  size_t s = static_cast<size_t>(width);
  for (size_t i = 1; i < rank; ++i) s *= static_cast<size_t>(dims[i]);
  return s;
}

// ----- construction --------------------------------------------------------------------------

Value Value::scalar(ScalarKind k, Scalar s) {
  Value v;
  v.kind_ = Kind::Scalar;
  v.scalarKind_ = k;
  v.s_ = s;
  return v;
}

Value Value::ofFloat(float x) {
  Scalar s{};
  s.f = x;
  return scalar(ScalarKind::Float, s);
}
Value Value::ofDouble(double x) {
  Scalar s{};
  s.d = x;
  return scalar(ScalarKind::Double, s);
}
Value Value::ofInt(int32_t x) {
  Scalar s{};
  s.i = x;
  return scalar(ScalarKind::Int, s);
}
Value Value::ofBool(bool x) {
  Scalar s{};
  s.b = x;
  return scalar(ScalarKind::Bool, s);
}

Value Value::vector(ScalarKind k, std::span<const Scalar> lanes) {
  Value v;
  v.kind_ = Kind::Vector;
  v.scalarKind_ = k;
  v.width_ = static_cast<uint8_t>(lanes.size());
  auto buf = std::make_shared<const std::vector<Scalar>>(lanes.begin(), lanes.end());
  v.lanes_ = buf->data();
  v.p_ = std::move(buf);
  return v;
}

Value Value::tuple(std::vector<Value> elems) {
  Value v;
  v.kind_ = Kind::Tuple;
  v.p_ = std::make_shared<const std::vector<Value>>(std::move(elems));
  return v;
}

Value Value::fromRep(std::shared_ptr<const ArrayRep> r) {
  Value v;
  v.kind_ = Kind::Array;
  v.p_ = std::move(r);
  return v;
}

Value Value::array(std::vector<Value> elems) {
  ArrayBuilder b(elems.size());
  for (auto& e : elems) b.push(e);
  return b.finish();
}

Value Value::flatArray(ScalarKind k, int width, std::vector<int64_t> dims, std::vector<Scalar> data) {
  LIFT_ASSERT(!dims.empty() && dims.size() <= kMaxFlatRank,
              fmt::format("a flat array has 1 to {} dimensions, not {}", kMaxFlatRank, dims.size()));
  auto r = std::make_shared<ArrayRep>();
  r->isFlat = true;
  r->kind = k;
  r->width = width;
  r->rank = static_cast<uint8_t>(dims.size());
  std::copy(dims.begin(), dims.end(), r->dims.begin());
  size_t n = static_cast<size_t>(width);
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  LIFT_ASSERT(data.size() == n,
              fmt::format("flat array data has {} scalars, its shape needs {}", data.size(), n));
  r->own = std::move(data);
  r->base = r->own.data();
  return fromRep(std::move(r));
}

Value Value::zip(std::vector<Value> arrays) {
  LIFT_ASSERT(arrays.size() >= 2, "zip of fewer than two arrays");
  for (auto& a : arrays)
    LIFT_ASSERT(a.isArray() && a.size() == arrays[0].size(), "zip of arrays of different lengths");
  auto r = std::make_shared<ArrayRep>();
  r->zipped = std::move(arrays);
  return fromRep(std::move(r));
}

Value Value::filled(Type t, Scalar fill) {
  std::vector<int64_t> dims;
  Type inner = t;
  while (inner.isArray()) {
    LIFT_ASSERT(inner.length().isCst(), "filled() needs constant lengths: " + t.toString());
    dims.push_back(inner.length().value());
    inner = inner.elem();
  }
  LIFT_ASSERT(inner.isScalar() || inner.isVector(), "filled() of " + t.toString());
  int width = inner.isVector() ? inner.vectorWidth() : 1;
  if (dims.empty()) {
    if (inner.isScalar()) return scalar(inner.scalarKind(), fill);
    std::vector<Scalar> lanes(static_cast<size_t>(width), fill);
    return vector(inner.scalarKind(), lanes);
  }
  if (dims.size() > kMaxFlatRank) {  // deeper than flat storage goes: rows of flat arrays
    Value row = filled(t.elem(), fill);
    ArrayBuilder b(static_cast<size_t>(dims[0]));
    for (int64_t i = 0; i < dims[0]; ++i) b.push(row);
    return b.finish();
  }
  size_t n = static_cast<size_t>(width);
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  return flatArray(inner.scalarKind(), width, std::move(dims), std::vector<Scalar>(n, fill));
}

// ----- inspection ----------------------------------------------------------------------------

double Value::asDouble() const { return scalarToDouble(scalarKind_, s_); }

Scalar Value::lane(int i) const { return lanes_[i]; }

std::span<const Scalar> Value::lanes() const { return std::span<const Scalar>(lanes_, width_); }

size_t Value::size() const {
  switch (kind_) {
    case Kind::Scalar:
      return 1;
    case Kind::Vector:
      return width_;
    case Kind::Tuple:
      return tupleRep().size();
    case Kind::Array:
      return rep().length();
  }
  return 0;
}

Value Value::at(size_t i) const {
  switch (kind_) {
    case Kind::Scalar:
      return *this;
    case Kind::Vector:
      return scalar(scalarKind_, lane(static_cast<int>(i)));
    case Kind::Tuple:
      return tupleRep()[i];
    case Kind::Array:
      break;
  }
  const ArrayRep& r = rep();
  if (r.isZip()) {
    std::vector<Value> elems;
    elems.reserve(r.zipped.size());
    for (auto& a : r.zipped) elems.push_back(a.at(i));
    return tuple(std::move(elems));
  }
  if (!r.flat()) return r.elems[i];
  const Scalar* pos = r.base + i * r.stride();
  if (r.rank > 1) {  // a row: a view of the same scalars
    auto sub = std::make_shared<ArrayRep>();
    sub->isFlat = true;
    sub->owner = r.storage(p_);
    sub->base = pos;
    sub->rank = static_cast<uint8_t>(r.rank - 1);
    std::copy(r.dims.begin() + 1, r.dims.begin() + r.rank, sub->dims.begin());
    sub->kind = r.kind;
    sub->width = r.width;
    return fromRep(std::move(sub));
  }
  if (r.width == 1) return scalar(r.kind, *pos);
  Value v;
  v.kind_ = Kind::Vector;
  v.scalarKind_ = r.kind;
  v.width_ = static_cast<uint8_t>(r.width);
  v.lanes_ = pos;
  v.p_ = p_;  // keeps the scalars alive
  return v;
}

bool Value::isFlat() const { return kind_ == Kind::Array && rep().flat(); }
bool Value::isZip() const { return kind_ == Kind::Array && rep().isZip(); }
std::span<const Value> Value::zipComponents() const { return rep().zipped; }

std::span<const Scalar> Value::flatData() const {
  const ArrayRep& r = rep();
  size_t n = r.stride() * static_cast<size_t>(r.dims[0]);
  return std::span<const Scalar>(r.base, n);
}

std::span<const int64_t> Value::dims() const {
  return std::span<const int64_t>(rep().dims.data(), rep().rank);
}
ScalarKind Value::flatKind() const { return rep().kind; }
int Value::flatWidth() const { return rep().width; }

Value Value::reshaped(std::vector<int64_t> dims, int width) const {
  const ArrayRep& r = rep();
  LIFT_ASSERT(r.flat(), "reshaped() of an array that is not flat");
  LIFT_ASSERT(!dims.empty() && dims.size() <= kMaxFlatRank, "reshaped() to an unsupported rank");
  auto v = std::make_shared<ArrayRep>();
  v->isFlat = true;
  v->owner = r.storage(p_);
  v->base = r.base;
  v->rank = static_cast<uint8_t>(dims.size());
  std::copy(dims.begin(), dims.end(), v->dims.begin());
  v->kind = r.kind;
  v->width = width;
  LIFT_ASSERT(v->stride() * static_cast<size_t>(v->dims[0]) == r.stride() * static_cast<size_t>(r.dims[0]),
              "reshaped() changes the number of scalars");
  return fromRep(std::move(v));
}

Type Value::type() const {
  switch (kind_) {
    case Kind::Scalar:
      return Type::scalar(scalarKind_);
    case Kind::Vector:
      return Type::vector(scalarKind_, width_);
    case Kind::Tuple: {
      std::vector<Type> elems;
      for (auto& e : tupleRep()) elems.push_back(e.type());
      return Type::tuple(std::move(elems));
    }
    case Kind::Array:
      break;
  }
  const ArrayRep& r = rep();
  if (r.flat()) {
    Type t = r.width == 1 ? Type::scalar(r.kind) : Type::vector(r.kind, r.width);
    for (size_t i = r.rank; i-- > 0;) t = Type::array(t, arith::cst(r.dims[i]));
    return t;
  }
  if (r.isZip()) {
    std::vector<Type> elems;
    for (auto& a : r.zipped) elems.push_back(a.type().elem());
    return Type::array(Type::tuple(std::move(elems)), arith::cst(static_cast<int64_t>(r.length())));
  }
  Type elem = r.elems.empty() ? Type::int_() : r.elems[0].type();
  return Type::array(elem, arith::cst(static_cast<int64_t>(r.elems.size())));
}

size_t Value::scalarCount() const {
  switch (kind_) {
    case Kind::Scalar:
      return 1;
    case Kind::Vector:
      return width_;
    case Kind::Tuple: {
      size_t n = 0;
      for (auto& e : tupleRep()) n += e.scalarCount();
      return n;
    }
    case Kind::Array:
      break;
  }
  if (isFlat()) return flatData().size();
  size_t n = 0;
  if (isZip()) {
    for (auto& a : rep().zipped) n += a.scalarCount();
    return n;
  }
  for (auto& e : rep().elems) n += e.scalarCount();
  return n;
}

void Value::flattenInto(std::vector<Scalar>& out) const {
  switch (kind_) {
    case Kind::Scalar:
      out.push_back(s_);
      return;
    case Kind::Vector: {
      auto l = lanes();
      out.insert(out.end(), l.begin(), l.end());
      return;
    }
    case Kind::Tuple:
      for (auto& e : tupleRep()) e.flattenInto(out);
      return;
    case Kind::Array:
      break;
  }
  if (isFlat()) {
    auto d = flatData();
    out.insert(out.end(), d.begin(), d.end());
    return;
  }
  if (isZip()) {
    for (size_t i = 0; i < size(); ++i) at(i).flattenInto(out);
    return;
  }
  for (auto& e : rep().elems) e.flattenInto(out);
}

namespace {

std::string scalarText(ScalarKind k, Scalar s) {
  switch (k) {
    case ScalarKind::Float:
      return fmt::format("{}", s.f);
    case ScalarKind::Double:
      return fmt::format("{}", s.d);
    case ScalarKind::Int:
      return std::to_string(s.i);
    case ScalarKind::Bool:
      return s.b ? "true" : "false";
  }
  return "?";
}

}  // namespace

std::string Value::toString(size_t maxScalars) const {
  std::string out;
  size_t budget = maxScalars;
  print(out, budget);
  return out;
}

void Value::print(std::string& out, size_t& budget) const {
  switch (kind_) {
    case Kind::Scalar:
      out += scalarText(scalarKind_, s_);
      if (budget > 0) --budget;
      return;
    case Kind::Vector:
      out += fmt::format("({}{})(", scalarName(scalarKind_), int(width_));
      for (int i = 0; i < width_; ++i) out += (i ? ", " : "") + scalarText(scalarKind_, lane(i));
      out += ")";
      budget = budget > width_ ? budget - width_ : 0;
      return;
    case Kind::Tuple:
      out += "(";
      for (size_t i = 0; i < size(); ++i) {
        if (i) out += ", ";
        at(i).print(out, budget);
      }
      out += ")";
      return;
    case Kind::Array:
      break;
  }
  out += "[";
  size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && budget == 0) {
      out += fmt::format(", ... ({} more)", n - i);
      break;
    }
    if (i) out += ", ";
    at(i).print(out, budget);
  }
  out += "]";
}

// ----- ArrayBuilder ----------------------------------------------------------------------------

ArrayBuilder::ArrayBuilder(size_t expectedLength) : expected_(expectedLength) {}

void ArrayBuilder::toBoxed() {
  if (!flat_) return;
  // Re-box what was pushed so far.
  std::vector<Value> elems;
  if (count_ > 0) {
    std::vector<int64_t> dims{static_cast<int64_t>(count_)};
    dims.insert(dims.end(), innerDims_.begin(), innerDims_.end());
    Value whole = Value::flatArray(kind_, width_, std::move(dims), std::move(data_));
    for (size_t i = 0; i < count_; ++i) elems.push_back(whole.at(i));
  }
  elems_ = std::move(elems);
  elems_.reserve(expected_);
  data_.clear();
  flat_ = false;
}

void ArrayBuilder::push(const Value& v) {
  if (flat_) {
    ScalarKind k;
    int w;
    std::span<const int64_t> inner;
    bool ok = true;
    switch (v.kind()) {
      case Value::Kind::Scalar:
        k = v.scalarKind();
        w = 1;
        break;
      case Value::Kind::Vector:
        k = v.scalarKind();
        w = v.width();
        break;
      case Value::Kind::Array:
        if (!v.isFlat()) {
          ok = false;
          break;
        }
        k = v.flatKind();
        w = v.flatWidth();
        inner = v.dims();
        ok = inner.size() < Value::kMaxFlatRank;  // the array of them must fit in flat storage
        break;
      default:
        ok = false;
        break;
    }
    if (ok && count_ == 0) {
      kind_ = k;
      width_ = w;
      innerDims_.assign(inner.begin(), inner.end());
      size_t per = static_cast<size_t>(w);
      for (int64_t d : innerDims_) per *= static_cast<size_t>(d);
      data_.reserve(per * std::max<size_t>(expected_, 1));
    } else if (ok) {
      ok = k == kind_ && w == width_ &&
           std::equal(inner.begin(), inner.end(), innerDims_.begin(), innerDims_.end());
    }
    if (ok) {
      switch (v.kind()) {
        case Value::Kind::Scalar:
          data_.push_back(v.bits());
          break;
        case Value::Kind::Vector: {
          auto l = v.lanes();
          data_.insert(data_.end(), l.begin(), l.end());
          break;
        }
        default: {
          auto d = v.flatData();
          data_.insert(data_.end(), d.begin(), d.end());
          break;
        }
      }
      ++count_;
      return;
    }
    toBoxed();
  }
  elems_.push_back(v);
  ++count_;
}

Value ArrayBuilder::finish() {
  if (flat_ && count_ > 0) {
    std::vector<int64_t> dims{static_cast<int64_t>(count_)};
    dims.insert(dims.end(), innerDims_.begin(), innerDims_.end());
    return Value::flatArray(kind_, width_, std::move(dims), std::move(data_));
  }
  auto r = std::make_shared<Value::ArrayRep>();
  r->elems = std::move(elems_);
  return Value::fromRep(std::move(r));
}

}  // namespace lift::interp
