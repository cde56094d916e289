// Random program inputs (see RandomInputs.h). The distributions are written out rather than
// taken from <random>, whose distributions differ between standard libraries: a seed gives
// the same inputs everywhere. A flat array's scalars are a counter-based stream (each a hash
// of the array's key, drawn from the sequential generator, and its index), so that big inputs
// (a 2^14 x 2^14 matrix: 2^28 scalars) are made on every core, the same for any number of them.
#include "core/interp/RandomInputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/interp/Interpreter.h"
#include "core/support/ParallelFor.h"

namespace lift::interp {

namespace {

// SplitMix64's finaliser: 64 well-mixed bits of a counter.
uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The bits of scalar `index` of the flat array `key`: a generator of its own for each scalar,
// giving 64 bits per call (rejection sampling may ask for more than one).
struct CounterBits {
  uint64_t base;
  uint64_t draw = 0;
  uint64_t operator()() { return mix(base + (draw++ << 56)); }
};

// Uniform in [0, 1) with 53 random bits.
template <class Bits>
double unit(Bits& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

template <class Bits>
Scalar randomScalar(ScalarKind k, Bits& rng) {
  Scalar s{};
  switch (k) {
    case ScalarKind::Float:
    case ScalarKind::Double: {
      double x;
      do x = 2.0 * unit(rng) - 1.0;
      while (std::abs(x) < 1.0 / 64);
      if (k == ScalarKind::Float)
        s.f = static_cast<float>(x);
      else
        s.d = x;
      break;
    }
    case ScalarKind::Int: {
      int32_t v = static_cast<int32_t>(rng() % 18) - 9;  // -9 .. 8
      s.i = v >= 0 ? v + 1 : v;                          // -9 .. -1, 1 .. 9
      break;
    }
    case ScalarKind::Bool:
      s.b = (rng() & 1) != 0;
      break;
  }
  return s;
}

void checkCancel(const std::atomic<bool>* cancel) {
  if (cancel && cancel->load(std::memory_order_relaxed))
    throw LiftError("cancelled while making the random inputs");
}

}  // namespace

Value randomValue(Type t, std::mt19937_64& rng, const std::atomic<bool>* cancel) {
  switch (t.kind()) {
    case Type::Kind::Scalar:
      return Value::scalar(t.scalarKind(), randomScalar(t.scalarKind(), rng));
    case Type::Kind::Vector: {
      std::vector<Scalar> lanes;
      for (int i = 0; i < t.vectorWidth(); ++i) lanes.push_back(randomScalar(t.scalarKind(), rng));
      return Value::vector(t.scalarKind(), lanes);
    }
    case Type::Kind::Tuple: {
      std::vector<Value> elems;
      for (Type e : t.tupleElems()) elems.push_back(randomValue(e, rng, cancel));
      return Value::tuple(std::move(elems));
    }
    case Type::Kind::Array:
      break;
  }
  // Arrays of scalars and vectors at any depth: one flat block.
  std::vector<int64_t> dims;
  Type inner = t;
  while (inner.isArray()) {
    LIFT_ASSERT(inner.length().isCst(), "randomValue needs constant lengths: " + t.toString());
    dims.push_back(inner.length().value());
    inner = inner.elem();
  }
  if ((inner.isScalar() || inner.isVector()) && dims[0] > 0 && dims.size() <= Value::kMaxFlatRank) {
    int width = inner.isVector() ? inner.vectorWidth() : 1;
    size_t n = static_cast<size_t>(width);
    for (int64_t d : dims) n *= static_cast<size_t>(d);
    checkCancel(cancel);
    std::vector<Scalar> data(n);
    const uint64_t key = mix(rng());
    const ScalarKind kind = inner.scalarKind();
    auto fill = [&](size_t from, size_t to) {
      constexpr size_t kChunk = size_t(1) << 16;  // between looks at the cancel flag
      for (size_t i = from; i < to; ++i) {
        if ((i - from) % kChunk == 0 && cancel && cancel->load(std::memory_order_relaxed)) return;
        CounterBits bits{mix(key ^ i)};
        data[i] = randomScalar(kind, bits);
      }
    };
    support::parallelFor(n, fill);
    checkCancel(cancel);
    return Value::flatArray(inner.scalarKind(), width, std::move(dims), std::move(data));
  }
  ArrayBuilder b(static_cast<size_t>(t.length().value()));
  for (int64_t i = 0; i < t.length().value(); ++i) {
    checkCancel(cancel);
    b.push(randomValue(t.elem(), rng, cancel));
  }
  return b.finish();
}

std::vector<Value> randomInputs(const ir::Program& p, const arith::Env& sizes, uint64_t seed,
                                const std::atomic<bool>* cancel) {
  std::mt19937_64 rng(seed);
  std::vector<Value> inputs;
  for (auto& in : p.main->params()) {
    Type t = in->declaredType();
    if (!t)
      throw LiftError(p.diagnosticAt(in->id(), fmt::format("input '{}' has no declared type", in->name())));
    Type concrete;
    try {
      concrete = concreteType(t, sizes);
    } catch (const LiftError& err) {
      throw LiftError(p.diagnosticAt(in->id(), fmt::format("input '{}' of type {}: {}", in->name(),
                                                           t.toString(), err.diagnostic().message)));
    }
    for (Type a = concrete; a.isArray(); a = a.elem())
      if (a.length().value() < 0)
        throw LiftError(p.diagnosticAt(
            in->id(), fmt::format("input '{}': the type {} has a negative length at these sizes", in->name(),
                                  t.toString())));
    inputs.push_back(randomValue(concrete, rng, cancel));
  }
  return inputs;
}

}  // namespace lift::interp
