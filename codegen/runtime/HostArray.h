// Host-side arrays of kernel arguments: the element types a kernel buffer can hold, the
// seeded input generator (never zeros, so a kernel that ignores an input is caught), and the
// poison that output buffers are filled with so that unwritten elements are caught.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace lift::runtime {

enum class ScalarType : uint8_t { Float, Double, Int };

const char* toString(ScalarType t);  // "float", "double", "int"
size_t sizeOf(ScalarType t);         // 4, 8, 4

// An OpenCL element type: a scalar or a vector of `width` scalars (float4 = {Float, 4}).
struct ElementType {
  ScalarType scalar = ScalarType::Float;
  int width = 1;  // 1, 2, 3, 4, 8 or 16

  size_t bytes() const { return sizeOf(scalar) * static_cast<size_t>(width == 3 ? 4 : width); }
  // Scalars per element as stored in a buffer (float3 occupies 4, as in OpenCL).
  size_t scalarsPerElement() const { return static_cast<size_t>(width == 3 ? 4 : width); }
  std::string name() const;  // "float", "float4"
  bool operator==(const ElementType&) const = default;

  // Parses "float", "double", "int" and their vector forms ("float4", "int16").
  static std::optional<ElementType> parse(const std::string& s);
};

// A flat array of scalars on the host. Vector-typed buffers are stored as their scalars.
// Copies share their scalars until one of them is written through a non-const accessor
// (copy on write), so that handing a search's 1 GiB input to every launch copies nothing.
// As with a std::vector, one object must not be written while another thread reads it.
class HostArray {
 public:
  using Storage = std::variant<std::vector<float>, std::vector<double>, std::vector<int32_t>>;

  HostArray() : data_(empty()) {}
  HostArray(const HostArray&) = default;
  HostArray& operator=(const HostArray&) = default;
  // A moved-from array is empty (floats), as a moved-from vector is.
  HostArray(HostArray&& o) noexcept : data_(std::exchange(o.data_, empty())) {}
  HostArray& operator=(HostArray&& o) noexcept {
    if (this != &o) data_ = std::exchange(o.data_, empty());
    return *this;
  }
  explicit HostArray(std::vector<float> v) : data_(std::make_shared<Storage>(std::move(v))) {}
  explicit HostArray(std::vector<double> v) : data_(std::make_shared<Storage>(std::move(v))) {}
  explicit HostArray(std::vector<int32_t> v) : data_(std::make_shared<Storage>(std::move(v))) {}
  // `n` scalars of type `t`, zero-initialised.
  HostArray(ScalarType t, size_t n);

  // Deterministic inputs for `n` scalars: floats and doubles uniform in [0.5, 1.5), ints in
  // [1, 9]; never zero. The same (type, n, seed) always gives the same array.
  static HostArray random(ScalarType t, size_t n, uint64_t seed);
  // `n` scalars of the poison pattern: a NaN with payload 0xDEAD for floats and doubles,
  // 0xDEADBEEF for ints.
  static HostArray poison(ScalarType t, size_t n);

  ScalarType type() const { return static_cast<ScalarType>(data_->index()); }
  size_t size() const;
  size_t byteSize() const { return size() * sizeOf(type()); }
  void* data();
  const void* data() const;

  // Typed access; the type must match. The non-const ones first give this array scalars of its
  // own if a copy shares them.
  const std::vector<float>& floats() const { return std::get<0>(*data_); }
  const std::vector<double>& doubles() const { return std::get<1>(*data_); }
  const std::vector<int32_t>& ints() const { return std::get<2>(*data_); }
  std::vector<float>& floats() { return std::get<0>(own()); }
  std::vector<double>& doubles() { return std::get<1>(own()); }
  std::vector<int32_t>& ints() { return std::get<2>(own()); }
  // Whether this array's scalars are shared with a copy (tests).
  bool shared() const { return data_.use_count() > 1; }

  // Element i as a double (ints converted), for messages and comparisons.
  double at(size_t i) const;
  // True when element i still holds the poison pattern bit for bit.
  bool isPoison(size_t i) const;

  bool operator==(const HostArray& o) const { return data_ == o.data_ || *data_ == *o.data_; }

 private:
  // One empty storage for every empty array (shared, so never written in place).
  static std::shared_ptr<Storage> empty() {
    static const std::shared_ptr<Storage> e = std::make_shared<Storage>();
    return e;
  }
  Storage& own() {
    if (data_.use_count() > 1) data_ = std::make_shared<Storage>(*data_);
    return *data_;
  }
  std::shared_ptr<Storage> data_;
};

// The poison patterns, bit for bit.
constexpr uint32_t kPoisonFloatBits = 0x7FC0DEADu;
constexpr uint64_t kPoisonDoubleBits = 0x7FF8DEADDEADDEADull;
constexpr int32_t kPoisonInt = static_cast<int32_t>(0xDEADBEEFu);

}  // namespace lift::runtime
