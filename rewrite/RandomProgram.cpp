// Random programs for property tests (see RandomProgram.h). Programs are generated as text in
// the .lift syntax and parsed, so every one is printable and exactly what a user could write.
#include "rewrite/RandomProgram.h"

#include <fmt/format.h>

#include <functional>
#include <random>

#include "core/lang/Parser.h"

namespace lift::rewrite {

namespace {

// A length: c (constant) or c*N.
struct Len {
  int64_t c = 1;
  bool symbolic = false;
  friend bool operator==(const Len&, const Len&) = default;
};

struct State {
  std::string expr;
  std::vector<Len> dims;  // outermost first; elements are floats
};

class Generator {
 public:
  Generator(uint64_t seed, const RandomProgramOptions& opts) : rng_(seed), opts_(opts) {}

  std::string program(uint64_t seed) {
    State s{"x", {{8, true}}};
    int stages = pick(opts_.minStages, opts_.maxStages);
    for (int i = 0; i < stages; ++i) s = step(s);
    std::string body = s.expr;
    return fmt::format(
        "// A random program (seed {}) for the rules' property tests.\n"
        "size N = 4;\n\n"
        "userfun add(float x, float y) -> float {{ return x + y; }}\n"
        "userfun mult(float x, float y) -> float {{ return x * y; }}\n"
        "userfun neg(float x) -> float {{ return -x; }}\n"
        "userfun sq(float x) -> float {{ return x * x; }}\n"
        "userfun inc(float x) -> float {{ return x + 1.0f; }}\n\n"
        "fun random{}(x: [float]8*N, y: [float]8*N) =\n  {}\n",
        seed, seed, body);
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  template <class T>
  const T& choose(const std::vector<T>& v) {
    return v[static_cast<size_t>(pick(0, static_cast<int>(v.size()) - 1))];
  }

  std::string unary() { return choose<std::string>({"neg", "sq", "inc"}); }
  std::string mapName() { return opts_.lowLevel && coin(0.25) ? "mapSeq" : "map"; }
  std::string reduceName() { return opts_.lowLevel && coin(0.25) ? "reduceSeq" : "reduce"; }

  // f applied at the element level of an array with `depth` dimensions.
  std::string nested(int depth, const std::string& f) {
    std::string s = f;
    // Each level is map(s) or its eta-expansion fun(r => map(s) $ r).
    for (int i = 0; i < depth; ++i)
      s = i > 0 && coin(0.3) ? fmt::format("fun(r{} => {}({}) $ r{})", i, mapName(), s, i)
                             : fmt::format("{}({})", mapName(), s);
    return s;
  }

  static std::string wrap(const std::string& stage, const std::string& e) {
    return fmt::format("{} $ ({})", stage, e);
  }

  State step(const State& s) {
    std::vector<std::function<std::optional<State>()>> stages;
    int d = static_cast<int>(s.dims.size());
    Len outer = s.dims[0];
    bool vec1 = d == 1;

    stages.push_back([&]() -> std::optional<State> {  // element-wise map
      std::string f = coin(0.3) ? fmt::format("fun(v => {}(v))", unary()) : unary();
      return State{wrap(nested(d, f), s.expr), s.dims};
    });
    stages.push_back([&]() -> std::optional<State> {  // two maps in a row
      return State{wrap(nested(d, unary()), wrap(nested(d, unary()), s.expr)), s.dims};
    });
    if (vec1)
      stages.push_back([&]() -> std::optional<State> {  // zip with itself or with y
        bool withY = s.dims[0] == Len{8, true};
        std::string other = withY && coin() ? "y" : s.expr;
        if (coin(0.3))
          return State{
              fmt::format("{}(fun(p => add(get(0, p), get(1, p)))) $ zip({}, {})", mapName(), s.expr, other),
              s.dims};
        return State{fmt::format("{}({}) $ zip({}, {})", mapName(), coin() ? "mult" : "add", s.expr, other),
                     s.dims};
      });
    for (int64_t k : {2, 4})
      if (outer.c % k == 0 && outer.c / k >= 1 && (outer.symbolic || outer.c > k))
        stages.push_back([&, k]() -> std::optional<State> {  // split
          std::vector<Len> dims = s.dims;
          dims[0] = {outer.c / k, outer.symbolic};
          dims.insert(dims.begin() + 1, Len{k, false});
          return State{wrap(fmt::format("split({})", k), s.expr), dims};
        });
    if (d >= 2 && !s.dims[1].symbolic)
      stages.push_back([&]() -> std::optional<State> {  // join
        std::vector<Len> dims = s.dims;
        dims[0] = {outer.c * s.dims[1].c, outer.symbolic};
        dims.erase(dims.begin() + 1);
        return State{wrap("join", s.expr), dims};
      });
    if (d >= 2)
      stages.push_back([&]() -> std::optional<State> {  // transpose
        std::vector<Len> dims = s.dims;
        std::swap(dims[0], dims[1]);
        return State{wrap("transpose", s.expr), dims};
      });
    if (d >= 2 && coin(0.5))
      stages.push_back([&]() -> std::optional<State> {  // map of transposes or of joins
        std::vector<Len> dims = s.dims;
        if (d >= 3 && coin()) {
          std::swap(dims[1], dims[2]);
          return State{wrap("map(transpose)", s.expr), dims};
        }
        if (d >= 3 && !s.dims[2].symbolic) {
          dims[1] = {dims[1].c * dims[2].c, dims[1].symbolic};
          dims.erase(dims.begin() + 2);
          return State{wrap("map(join)", s.expr), dims};
        }
        return std::nullopt;
      });
    stages.push_back([&]() -> std::optional<State> {  // a reduction of the innermost dimension
      std::vector<Len> dims = s.dims;
      if (dims.back().symbolic && dims.size() > 1) return std::nullopt;
      dims.back() = {1, false};
      std::string red = fmt::format("{}(add, 0.0f)", reduceName());
      if (coin(0.4)) red = fmt::format("fun(r => {} o {}({}) $ r)", red, mapName(), unary());
      if (d == 1) return State{wrap(red, s.expr), dims};
      return State{wrap(nested(d - 1, red), s.expr), dims};
    });
    stages.push_back([&]() -> std::optional<State> {  // reversal
      return State{wrap("gather(reverse)", s.expr), s.dims};
    });
    if (vec1 && (outer.symbolic || outer.c >= 3))
      stages.push_back([&]() -> std::optional<State> {  // a 3-point stencil
        return State{
            wrap("join o map(fun(nbh => reduce(add, 0.0f) $ nbh)) o slide(3, 1) o pad(1, 1, clamp)", s.expr),
            s.dims};
      });
    if (vec1 && outer.c % 4 == 0)
      stages.push_back([&]() -> std::optional<State> {  // vectorised map
        return State{wrap(fmt::format("asScalar o map(vectorize(4, {})) o asVector(4)", unary()), s.expr),
                     s.dims};
      });
    if (vec1 && outer.c % 4 == 0 && (outer.symbolic || outer.c >= 8))
      stages.push_back([&]() -> std::optional<State> {  // an iteration halving the length twice
        return State{wrap("iterate(2, join o map(reduce(add, 0.0f)) o split(2))", s.expr),
                     {{outer.c / 4, outer.symbolic}}};
      });
    if (vec1 && outer.c % 2 == 0)
      stages.push_back([&]() -> std::optional<State> {  // partial reduction
        return State{wrap("partRed(add, 0.0f, 2)", s.expr), {{outer.c / 2, outer.symbolic}}};
      });
    stages.push_back([&]() -> std::optional<State> {  // a lambda applied on the spot
      return State{fmt::format("fun(t => {} $ t) $ ({})", nested(d, unary()), s.expr), s.dims};
    });
    if (d >= 2)
      stages.push_back([&]() -> std::optional<State> {  // row-wise dot products with itself
        std::vector<Len> dims = {s.dims[0], Len{1, false}};
        if (d > 2) return std::nullopt;
        if (s.dims[1].symbolic) return std::nullopt;
        return State{wrap("map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(row, row)))", s.expr), dims};
      });
    for (int tries = 0; tries < 20; ++tries) {
      auto r = choose(stages)();
      if (r) return *r;
    }
    return s;
  }

  std::mt19937_64 rng_;
  RandomProgramOptions opts_;
};

}  // namespace

std::string randomProgramText(uint64_t seed, const RandomProgramOptions& opts) {
  return Generator(seed, opts).program(seed);
}

ir::Program randomProgram(uint64_t seed, const RandomProgramOptions& opts) {
  return lang::parseProgram(randomProgramText(seed, opts), fmt::format("<random {}>", seed));
}

}  // namespace lift::rewrite
