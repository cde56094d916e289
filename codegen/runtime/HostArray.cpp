// Host arrays: element types, the seeded generator and the poison patterns.
#include "codegen/runtime/HostArray.h"

#include <bit>
#include <cstring>

namespace lift::runtime {

const char* toString(ScalarType t) {
  switch (t) {
    case ScalarType::Float:
      return "float";
    case ScalarType::Double:
      return "double";
    case ScalarType::Int:
      return "int";
  }
  return "?";
}

size_t sizeOf(ScalarType t) { return t == ScalarType::Double ? 8 : 4; }

std::string ElementType::name() const {
  std::string s = toString(scalar);
  if (width != 1) s += std::to_string(width);
  return s;
}

std::optional<ElementType> ElementType::parse(const std::string& s) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Int}) {
    std::string base = toString(t);
    if (s.rfind(base, 0) != 0) continue;
    std::string rest = s.substr(base.size());
    if (rest.empty()) return ElementType{t, 1};
    for (int w : {2, 3, 4, 8, 16})
      if (rest == std::to_string(w)) return ElementType{t, w};
  }
  return std::nullopt;
}

HostArray::HostArray(ScalarType t, size_t n) {
  switch (t) {
    case ScalarType::Float:
      data_ = std::make_shared<Storage>(std::vector<float>(n));
      break;
    case ScalarType::Double:
      data_ = std::make_shared<Storage>(std::vector<double>(n));
      break;
    case ScalarType::Int:
      data_ = std::make_shared<Storage>(std::vector<int32_t>(n));
      break;
  }
}

namespace {

// SplitMix64: a tiny, fast generator whose output is identical on every platform and standard
// library (std::uniform_real_distribution is not).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

}  // namespace

HostArray HostArray::random(ScalarType t, size_t n, uint64_t seed) {
  HostArray a(t, n);
  SplitMix64 rng{seed};
  switch (t) {
    case ScalarType::Float:
      for (auto& x : a.floats()) x = static_cast<float>(0.5 + rng.unit());
      break;
    case ScalarType::Double:
      for (auto& x : a.doubles()) x = 0.5 + rng.unit();
      break;
    case ScalarType::Int:
      for (auto& x : a.ints()) x = static_cast<int32_t>(1 + rng.next() % 9);
      break;
  }
  return a;
}

HostArray HostArray::poison(ScalarType t, size_t n) {
  switch (t) {
    case ScalarType::Float:
      return HostArray(std::vector<float>(n, std::bit_cast<float>(kPoisonFloatBits)));
    case ScalarType::Double:
      return HostArray(std::vector<double>(n, std::bit_cast<double>(kPoisonDoubleBits)));
    case ScalarType::Int:
      return HostArray(std::vector<int32_t>(n, kPoisonInt));
  }
  return {};
}

size_t HostArray::size() const {
  return std::visit([](const auto& v) { return v.size(); }, *data_);
}

void* HostArray::data() {
  return std::visit([](auto& v) { return static_cast<void*>(v.data()); }, own());
}

const void* HostArray::data() const {
  return std::visit([](const auto& v) { return static_cast<const void*>(v.data()); }, *data_);
}

double HostArray::at(size_t i) const {
  return std::visit([i](const auto& v) { return static_cast<double>(v[i]); }, *data_);
}

bool HostArray::isPoison(size_t i) const {
  switch (type()) {
    case ScalarType::Float:
      return std::bit_cast<uint32_t>(floats()[i]) == kPoisonFloatBits;
    case ScalarType::Double:
      return std::bit_cast<uint64_t>(doubles()[i]) == kPoisonDoubleBits;
    case ScalarType::Int:
      return ints()[i] == kPoisonInt;
  }
  return false;
}

}  // namespace lift::runtime
