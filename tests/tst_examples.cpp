// Every bundled example (resources/examples/**/*.lift): it type-checks, round-trips through
// the printer, its default sizes are valid, and the interpreter computes what a plain C++
// reference computes, at two or more sizes. An example without a reference fails the test.
#include <QtTest/QtTest>

#include <QDirIterator>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;
using namespace lift::interp;

namespace {

// ----- reading inputs and building results ------------------------------------------------

std::vector<float> floatsOf(const Value& v) {
  std::vector<Scalar> s;
  v.flattenInto(s);
  std::vector<float> out;
  out.reserve(s.size());
  for (Scalar x : s) out.push_back(x.f);
  return out;
}

Value floatArray(std::vector<int64_t> dims, const std::vector<float>& data, int width = 1) {
  std::vector<Scalar> s(data.size());
  for (size_t i = 0; i < data.size(); ++i) s[i].f = data[i];
  return Value::flatArray(ScalarKind::Float, width, std::move(dims), std::move(s));
}

Value intArray(const std::vector<int32_t>& data) {
  std::vector<Scalar> s(data.size());
  for (size_t i = 0; i < data.size(); ++i) s[i].i = data[i];
  return Value::flatArray(ScalarKind::Int, 1, {static_cast<int64_t>(data.size())}, std::move(s));
}

Value float4(const float* v) {
  Scalar s[4];
  for (int i = 0; i < 4; ++i) s[i].f = v[i];
  return Value::vector(ScalarKind::Float, s);
}

int64_t dim(const arith::Env& sizes, const char* name) { return sizes.at(name); }

float clampAt(const std::vector<float>& x, int64_t i) {
  int64_t n = static_cast<int64_t>(x.size());
  return x[static_cast<size_t>(i < 0 ? 0 : i >= n ? n - 1 : i)];
}

// The sum of a tree reduction as the OpenCL-level reductions compute it: pairs of neighbours
// added (as reduceSeq(add, 0.0f) adds them: (0 + a) + b) until one value is left.
float treeSum(std::vector<float> v) {
  while (v.size() > 1) {
    std::vector<float> next(v.size() / 2);
    for (size_t i = 0; i < next.size(); ++i) next[i] = (0.0f + v[2 * i]) + v[2 * i + 1];
    v = std::move(next);
  }
  return v[0];
}

// ----- the references ---------------------------------------------------------------------

using Inputs = std::vector<Value>;
using Reference = std::function<Value(const Inputs&, const arith::Env&)>;

struct Example {
  std::vector<arith::Env> sizes;  // at least two
  Reference reference;
};

// C = A x B with A: M x K and B given as K x N (bT = false) or as N x K (bT = true); the
// product of two floats added to the accumulator one at a time.
std::vector<float> matmulRef(const std::vector<float>& a, const std::vector<float>& b, int64_t m, int64_t n,
                             int64_t k, bool bT) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p)
        acc = acc + a[static_cast<size_t>(i * k + p)] * b[static_cast<size_t>(bT ? j * k + p : p * n + j)];
      c[static_cast<size_t>(i * n + j)] = acc;
    }
  return c;
}

// matmul_tiled_gpu*: sizes count tiles (C is M*tm x N*tn, K counts tiles of tk); A is M x K and
// B is K x N (not transposed); C is 2-D.
Reference tiledMatmul(int64_t tm, int64_t tn, int64_t tk) {
  return [=](const Inputs& in, const arith::Env& s) {
    int64_t m = tm * dim(s, "M"), n = tn * dim(s, "N"), k = tk * dim(s, "K");
    return floatArray({m, n}, matmulRef(floatsOf(in[0]), floatsOf(in[1]), m, n, k, false));
  };
}

Value matmulHigh(const Inputs& in, const arith::Env& s) {
  int64_t m = dim(s, "M"), n = dim(s, "N"), k = dim(s, "K");
  return floatArray({m, n, 1}, matmulRef(floatsOf(in[0]), floatsOf(in[1]), m, n, k, false));
}

// manhattan.lift: C(i, j) = the sum over p of |A(i, p) - B(p, j)|, A: M x K, B: K x N, each
// absolute difference added to the accumulator one at a time.
Value manhattanRef(const Inputs& in, const arith::Env& s) {
  const int64_t m = dim(s, "M"), n = dim(s, "N"), k = dim(s, "K");
  const auto a = floatsOf(in[0]), b = floatsOf(in[1]);
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p)
        acc = acc + std::fabs(a[static_cast<size_t>(i * k + p)] - b[static_cast<size_t>(p * n + j)]);
      c[static_cast<size_t>(i * n + j)] = acc;
    }
  return floatArray({m, n, 1}, c);
}

// cosine_similarity.lift: C(i, j) = a.b / sqrt(a.a * b.b) for the rows a = A[i], b = B[j] of K
// elements, the three sums accumulated one element at a time.
Value cosineSimilarityRef(const Inputs& in, const arith::Env& s) {
  const int64_t m = dim(s, "M"), n = dim(s, "N"), k = dim(s, "K");
  const auto a = floatsOf(in[0]), b = floatsOf(in[1]);
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float ab = 0.0f, aa = 0.0f, bb = 0.0f;
      for (int64_t p = 0; p < k; ++p) {
        const float x = a[static_cast<size_t>(i * k + p)], y = b[static_cast<size_t>(j * k + p)];
        ab = ab + x * y;
        aa = aa + x * x;
        bb = bb + y * y;
      }
      c[static_cast<size_t>(i * n + j)] = ab / std::sqrt(aa * bb);
    }
  return floatArray({m, n, 1}, c);
}

Value gemvRef(const Inputs& in, const arith::Env& s) {
  int64_t m = dim(s, "M"), n = dim(s, "N");
  auto a = floatsOf(in[0]), x = floatsOf(in[1]), y = floatsOf(in[2]);
  float alpha = in[3].asFloat(), beta = in[4].asFloat();
  std::vector<float> out(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    float acc = 0.0f;
    for (int64_t j = 0; j < n; ++j) acc = acc + a[static_cast<size_t>(i * n + j)] * x[static_cast<size_t>(j)];
    out[static_cast<size_t>(i)] = alpha * acc + beta * y[static_cast<size_t>(i)];
  }
  return floatArray({m}, out);
}

Value stencilRef(const Inputs& in, const arith::Env&) {
  auto x = floatsOf(in[0]);
  std::vector<float> out(x.size());
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i)
    out[static_cast<size_t>(i)] = ((0.0f + clampAt(x, i - 1)) + clampAt(x, i)) + clampAt(x, i + 1);
  return floatArray({static_cast<int64_t>(x.size())}, out);
}

Value transposeRef(const Value& a, int64_t rows, int64_t cols) {
  auto x = floatsOf(a);
  std::vector<float> out(x.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[static_cast<size_t>(c * rows + r)] = x[static_cast<size_t>(r * cols + c)];
  return floatArray({cols, rows}, out);
}

Value nbodyRef(const Inputs& in, const arith::Env& s) {
  int64_t n = dim(s, "N");
  auto pos = floatsOf(in[0]), vel = floatsOf(in[1]);
  float eps = in[2].asFloat(), dt = in[3].asFloat();
  std::vector<Value> out;
  for (int64_t i = 0; i < n; ++i) {
    const float* p = &pos[static_cast<size_t>(4 * i)];
    const float* v = &vel[static_cast<size_t>(4 * i)];
    float acc[4] = {0, 0, 0, 0};
    for (int64_t j = 0; j < n; ++j) {
      const float* q = &pos[static_cast<size_t>(4 * j)];
      float r[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
      float distSqr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      float invDist = 1.0f / std::sqrt(distSqr + eps * eps);
      float invDistCube = invDist * invDist * invDist;
      float sc = q[3] * invDistCube;
      for (int c = 0; c < 3; ++c) acc[c] = acc[c] + sc * r[c];
    }
    float newPos[4], newVel[4];
    for (int c = 0; c < 3; ++c) {
      newPos[c] = p[c] + v[c] * dt + acc[c] * 0.5f * dt * dt;
      newVel[c] = v[c] + acc[c] * dt;
    }
    newPos[3] = p[3];
    newVel[3] = v[3];
    out.push_back(Value::tuple({float4(newPos), float4(newVel)}));
  }
  return Value::array(std::move(out));
}

Value blackScholesRef(const Inputs& in, const arith::Env&) {
  std::vector<Value> out;
  for (float r : floatsOf(in[0])) {
    float S = 10.0f * r + 100.0f * (1.0f - r);
    float K = 10.0f * r + 100.0f * (1.0f - r);
    float T = 1.0f * r + 10.0f * (1.0f - r);
    float R = 0.01f * r + 0.05f * (1.0f - r);
    float V = 0.01f * r + 0.10f * (1.0f - r);
    float sqrtT = std::sqrt(T);
    float d1 = (std::log(S / K) + (R + 0.5f * V * V) * T) / (V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float cndD1 = 0.5f * (1.0f + std::erf(d1 * 0.70710678f));
    float cndD2 = 0.5f * (1.0f + std::erf(d2 * 0.70710678f));
    float expRT = std::exp(-R * T);
    float call = S * cndD1 - K * expRT * cndD2;
    float put = K * expRT * (1.0f - cndD2) - S * (1.0f - cndD1);
    out.push_back(Value::tuple({Value::ofFloat(call), Value::ofFloat(put)}));
  }
  return Value::array(std::move(out));
}

Value convolutionRef(const Inputs& in, const arith::Env& s) {
  int64_t m = dim(s, "M"), n = dim(s, "N");
  auto img = floatsOf(in[0]), w = floatsOf(in[1]);
  auto at = [&](int64_t r, int64_t c) {
    r = std::clamp<int64_t>(r, 0, m - 1);
    c = std::clamp<int64_t>(c, 0, n - 1);
    return img[static_cast<size_t>(r * n + c)];
  };
  std::vector<float> out(static_cast<size_t>(m * n));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      float acc = 0.0f;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) acc = acc + at(r + a - 1, c + b - 1) * w[static_cast<size_t>(a * 3 + b)];
      out[static_cast<size_t>(r * n + c)] = acc;
    }
  return floatArray({m, n}, out);
}

// The Gaussian blur: 1/16 [1 2 1; 2 4 2; 1 2 1] over each pixel's 3 x 3 neighbourhood, 0 outside.
Value gaussianBlurRef(const Inputs& in, const arith::Env& s) {
  int64_t m = dim(s, "M"), n = dim(s, "N");
  auto img = floatsOf(in[0]);
  auto at = [&](int64_t r, int64_t c) {
    return r < 0 || r >= m || c < 0 || c >= n ? 0.0f : img[static_cast<size_t>(r * n + c)];
  };
  std::vector<float> out(static_cast<size_t>(m * n));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c)
      out[static_cast<size_t>(r * n + c)] =
          (at(r - 1, c - 1) + 2.0f * at(r - 1, c) + at(r - 1, c + 1) + 2.0f * (at(r, c - 1) + at(r, c + 1)) +
           4.0f * at(r, c) + at(r + 1, c - 1) + 2.0f * at(r + 1, c) + at(r + 1, c + 1)) *
          0.0625f;
  return floatArray({m, n}, out);
}

Value kmeansRef(const Inputs& in, const arith::Env& s) {
  int64_t p = dim(s, "P"), c = dim(s, "C"), f = dim(s, "F");
  auto pts = floatsOf(in[0]), cls = floatsOf(in[1]);
  std::vector<int32_t> out;
  for (int64_t i = 0; i < p; ++i) {
    float best = 3.4e38f;
    int32_t bestIndex = 0;
    for (int64_t j = 0; j < c; ++j) {
      float d = 0.0f;
      for (int64_t k = 0; k < f; ++k) {
        float diff = pts[static_cast<size_t>(i * f + k)] - cls[static_cast<size_t>(j * f + k)];
        d = d + diff * diff;
      }
      if (d < best) {
        best = d;
        bestIndex = static_cast<int32_t>(j);
      }
    }
    out.push_back(bestIndex);
  }
  return intArray(out);
}

// Partial sums of chunks of 128 elements with the OpenCL-level trees: `first` combines the
// two elements each thread starts with.
Value chunkedTree(const std::vector<float>& x, int64_t chunks, const std::function<float(size_t)>& leaf,
                  bool pairs) {
  std::vector<float> out;
  for (int64_t g = 0; g < chunks; ++g) {
    std::vector<float> level;
    size_t base = static_cast<size_t>(g * 128);
    if (pairs) {
      for (size_t l = 0; l < 64; ++l) level.push_back(leaf(base + 2 * l));
    } else {
      for (size_t l = 0; l < 128; ++l) level.push_back(x[base + l]);
    }
    out.push_back(treeSum(std::move(level)));
  }
  return floatArray({chunks}, out);
}

// The two-kernel reductions (lowlevel/asum_device, dot_device) in their order of additions:
// chunks of 2048 elements, 16 per work-item added sequentially by `step`, a tree over the 128
// work-items; then the partial sums, m per work-item of 64, a tree over those.
Value twoKernelSum(size_t n, int64_t m, const std::function<float(size_t, float)>& step) {
  std::vector<float> partial;
  for (size_t base = 0; base < n; base += 2048) {
    std::vector<float> level;
    for (size_t l = 0; l < 128; ++l) {
      float acc = 0.0f;
      for (size_t i = 0; i < 16; ++i) acc = step(base + 16 * l + i, acc);
      level.push_back(acc);
    }
    partial.push_back(treeSum(std::move(level)));
  }
  std::vector<float> level;
  for (size_t l = 0; l < 64; ++l) {
    float acc = 0.0f;
    for (int64_t i = 0; i < m; ++i) acc = acc + partial[l * static_cast<size_t>(m) + static_cast<size_t>(i)];
    level.push_back(acc);
  }
  return floatArray({1}, {treeSum(std::move(level))});
}

// lowlevel/prefix_sum: the chunks' totals, their exclusive scan (the offsets), each chunk
// scanned from its offset.
Value chunkedScanRef(const Inputs& in, const arith::Env& s) {
  auto x = floatsOf(in[0]);
  const size_t m = static_cast<size_t>(dim(s, "M")), c = 256;
  std::vector<float> out;
  float offset = 0.0f;
  for (size_t g = 0; g < m; ++g) {
    float total = 0.0f, acc = offset;
    for (size_t i = 0; i < c; ++i) {
      total = total + x[g * c + i];
      out.push_back(acc);
      acc = acc + x[g * c + i];
    }
    offset = offset + total;
  }
  return floatArray({static_cast<int64_t>(out.size())}, out);
}

// spmv: row i sums vals[i][k] * x[cols[i][k]] from 0, a column outside x reading 0.
Value spmvRef(const Inputs& in, const arith::Env& s) {
  int64_t m = dim(s, "M"), k = dim(s, "K"), n = dim(s, "N");
  std::vector<Scalar> cols;
  in[0].flattenInto(cols);
  auto vals = floatsOf(in[1]), x = floatsOf(in[2]);
  std::vector<float> out(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    float acc = 0.0f;
    for (int64_t j = 0; j < k; ++j) {
      int32_t c = cols[static_cast<size_t>(i * k + j)].i;
      float xc = c >= 0 && c < n ? x[static_cast<size_t>(c)] : 0.0f;
      acc = acc + vals[static_cast<size_t>(i * k + j)] * xc;
    }
    out[static_cast<size_t>(i)] = acc;
  }
  return floatArray({m}, out);
}

// quantize: each value replaced by the level of its bin, floor((v + 1) * 8) clamped to 0..15.
Value quantizeRef(const Inputs& in, const arith::Env&) {
  auto x = floatsOf(in[0]), levels = floatsOf(in[1]);
  std::vector<float> out;
  for (float v : x)
    out.push_back(levels[static_cast<size_t>(std::clamp(int(std::floor((v + 1.0f) * 8.0f)), 0, 15))]);
  return floatArray({static_cast<int64_t>(out.size())}, out);
}

// ----- issue 16: mandelbrot, the fixed-point escape counts (12 fractional bits) of the points
// the generator gives each pixel.
Value mandelbrotRef(const Inputs&, const arith::Env& s) {
  int64_t h = dim(s, "H"), w = dim(s, "W");
  std::vector<Scalar> out;
  for (int64_t r = 0; r < h; ++r)
    for (int64_t c = 0; c < w; ++c) {
      int32_t cr = int32_t(-8192 + c * 12288 / w), ci = int32_t(-6144 + r * 12288 / h), x = 0, y = 0, n = 0;
      while (n < 64 && x * x + y * y <= 67108864) {
        int32_t t = (x * x - y * y) / 4096 + cr;
        y = 2 * x * y / 4096 + ci;
        x = t;
        ++n;
      }
      out.push_back(Scalar{.i = n});
    }
  return Value::flatArray(ScalarKind::Int, 1, {h, w}, std::move(out));
}
// ----- end issue 16 -----
// ----- issue 17 (lift17p) -----
// sorted_search: each query's value found by the binary search of the keys, -1 where it finds
// none. The search's own steps (the tables are random, not sorted): [lo, hi) halved at
// mid = lo + (hi - lo) / 2, hi = mid where the key at mid is larger, lo = mid + 1 where smaller.
Value sortedSearchRef(const Inputs& in, const arith::Env&) {
  std::vector<Scalar> keys, queries;
  in[0].flattenInto(keys);
  in[2].flattenInto(queries);
  auto values = floatsOf(in[1]);
  std::vector<float> out;
  for (Scalar q : queries) {
    size_t lo = 0, hi = keys.size();
    float v = -1.0f;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (keys[mid].i > q.i) {
        hi = mid;
      } else if (keys[mid].i < q.i) {
        lo = mid + 1;
      } else {
        v = values[mid];
        break;
      }
    }
    out.push_back(v);
  }
  return floatArray({static_cast<int64_t>(out.size())}, out);
}
// ----- end of issue 17 (lift17p) -----

// compact (issue 17, the stream compaction example): the positive elements in order, then zeros.
Value compactRef(const Inputs& in, const arith::Env&) {
  auto x = floatsOf(in[0]);
  std::vector<float> out;
  for (float v : x)
    if (v > 0.0f) out.push_back(v);
  out.resize(x.size(), 0.0f);
  return floatArray({static_cast<int64_t>(out.size())}, out);
}

std::map<std::string, Example> references() {
  std::map<std::string, Example> r;
  // ----- high level -----
  r["matmul.lift"] = {{{{"M", 3}, {"N", 5}, {"K", 4}}, {{"M", 8}, {"N", 2}, {"K", 7}}}, matmulHigh};
  r["gemv.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 16}, {"N", 3}}}, gemvRef};
  r["dot.lift"] = {{{{"N", 1}}, {{"N", 37}}}, [](const Inputs& in, const arith::Env&) {
                     auto x = floatsOf(in[0]), y = floatsOf(in[1]);
                     float acc = 0.0f;
                     for (size_t i = 0; i < x.size(); ++i) acc = acc + x[i] * y[i];
                     return floatArray({1}, {acc});
                   }};
  r["asum.lift"] = {{{{"N", 1}}, {{"N", 50}}}, [](const Inputs& in, const arith::Env&) {
                      float acc = 0.0f;
                      for (float v : floatsOf(in[0])) acc = acc + std::fabs(v);
                      return floatArray({1}, {acc});
                    }};
  r["prefix_sum.lift"] = {{{{"N", 1}}, {{"N", 37}}}, [](const Inputs& in, const arith::Env&) {
                            std::vector<float> out;
                            float acc = 0.0f;
                            for (float v : floatsOf(in[0])) {
                              out.push_back(acc);
                              acc = acc + v;
                            }
                            return floatArray({static_cast<int64_t>(out.size())}, out);
                          }};
  r["scal.lift"] = {{{{"N", 3}}, {{"N", 20}}}, [](const Inputs& in, const arith::Env&) {
                      std::vector<float> out;
                      for (float v : floatsOf(in[1])) out.push_back(in[0].asFloat() * v);
                      return floatArray({static_cast<int64_t>(out.size())}, out);
                    }};
  // md_hom folds each reduced dimension from its first element (no initial value): ((p0 + p1) + p2)...
  r["md_dot.lift"] = {{{{"N", 1}}, {{"N", 37}}}, [](const Inputs& in, const arith::Env&) {
                        auto x = floatsOf(in[0]), y = floatsOf(in[1]);
                        float acc = x[0] * y[0];
                        for (size_t i = 1; i < x.size(); ++i) acc = acc + x[i] * y[i];
                        return Value::ofFloat(acc);
                      }};
  r["md_gemv.lift"] = {{{{"M", 5}, {"K", 7}}, {{"M", 16}, {"K", 1}}},
                       [](const Inputs& in, const arith::Env& s) {
                         int64_t m = dim(s, "M"), k = dim(s, "K");
                         auto a = floatsOf(in[0]), v = floatsOf(in[1]);
                         std::vector<float> out;
                         for (int64_t i = 0; i < m; ++i) {
                           float acc = a[static_cast<size_t>(i * k)] * v[0];
                           for (int64_t j = 1; j < k; ++j)
                             acc = acc + a[static_cast<size_t>(i * k + j)] * v[static_cast<size_t>(j)];
                           out.push_back(acc);
                         }
                         return floatArray({m}, out);
                       }};
  r["md_gemv_t.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 1}, {"N", 16}}},
                         [](const Inputs& in, const arith::Env& s) {
                           int64_t m = dim(s, "M"), n = dim(s, "N");
                           auto a = floatsOf(in[0]), x = floatsOf(in[1]);
                           std::vector<float> out;
                           for (int64_t j = 0; j < n; ++j) {
                             float acc = a[static_cast<size_t>(j)] * x[0];
                             for (int64_t i = 1; i < m; ++i)
                               acc = acc + a[static_cast<size_t>(i * n + j)] * x[static_cast<size_t>(i)];
                             out.push_back(acc);
                           }
                           return floatArray({n}, out);
                         }};
  r["md_gemm.lift"] = {
      {{{"M", 3}, {"N", 5}, {"K", 4}}, {{"M", 8}, {"N", 2}, {"K", 7}}},
      [](const Inputs& in, const arith::Env& s) {
        int64_t m = dim(s, "M"), n = dim(s, "N"), k = dim(s, "K");
        return floatArray({m, n}, matmulRef(floatsOf(in[0]), floatsOf(in[1]), m, n, k, false));
      }};
  r["transpose.lift"] = {
      {{{"M", 3}, {"N", 5}}, {{"M", 8}, {"N", 8}}},
      [](const Inputs& in, const arith::Env& s) { return transposeRef(in[0], dim(s, "M"), dim(s, "N")); }};
  r["nbody.lift"] = {{{{"N", 4}}, {{"N", 13}}}, nbodyRef};
  r["blackscholes.lift"] = {{{{"N", 6}}, {{"N", 40}}}, blackScholesRef};
  r["stencil3.lift"] = {{{{"N", 1}}, {{"N", 5}}, {{"N", 33}}}, stencilRef};
  r["convolution2d.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 2}, {"N", 9}}}, convolutionRef};
  r["gaussian_blur.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 1}, {"N", 3}}, {{"M", 9}, {"N", 2}}},
                             gaussianBlurRef};
  r["kmeans.lift"] = {{{{"P", 6}, {"C", 3}, {"F", 4}}, {{"P", 17}, {"C", 5}, {"F", 2}}}, kmeansRef};
  // ----- OpenCL level -----
  r["lowlevel/dot.lift"] = {{{{"N", 1}}, {{"N", 3}}}, [](const Inputs& in, const arith::Env& s) {
                              auto x = floatsOf(in[0]), y = floatsOf(in[1]);
                              return chunkedTree(
                                  x, dim(s, "N"),
                                  [&](size_t i) { return (0.0f + x[i] * y[i]) + x[i + 1] * y[i + 1]; }, true);
                            }};
  r["lowlevel/reduce.lift"] = {{{{"N", 1}}, {{"N", 2}}}, [](const Inputs& in, const arith::Env& s) {
                                 auto x = floatsOf(in[0]);
                                 return chunkedTree(x, dim(s, "N"), nullptr, false);
                               }};
  r["lowlevel/transpose.lift"] = {
      {{{"M", 4}, {"N", 6}}, {{"M", 7}, {"N", 2}}},
      [](const Inputs& in, const arith::Env& s) { return transposeRef(in[0], dim(s, "N"), dim(s, "M")); }};
  r["lowlevel/matmul.lift"] = {{{{"M", 3}, {"N", 5}, {"K", 4}}, {{"M", 6}, {"N", 2}, {"K", 9}}}, matmulHigh};
  r["lowlevel/matmul_expert.lift"] = {
      {{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 3}, {"N", 2}, {"K", 5}}},
      [](const Inputs& in, const arith::Env& s) {
        int64_t m = 2 * dim(s, "M"), n = 2 * dim(s, "N"), k = 4 * dim(s, "K");
        auto a = floatsOf(in[0]), b = floatsOf(in[1]);
        std::vector<float> c(static_cast<size_t>(m * n));
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (int64_t t = 0; t < k / 4; ++t) {
              float d = 0.0f;  // a dot product of float4 vectors: vector product, then a scalar sum
              for (int64_t q = 0; q < 4; ++q)
                d = d + a[static_cast<size_t>(i * k + 4 * t + q)] * b[static_cast<size_t>(j * k + 4 * t + q)];
              acc = acc + d;
            }
            c[static_cast<size_t>(i * n + j)] = acc;
          }
        return floatArray({m, n}, c);
      }};
  r["lowlevel/matmul_best.lift"] = {{{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 3}, {"N", 2}, {"K", 5}}},
                                    [](const Inputs& in, const arith::Env& s) {
                                      int64_t m = 2 * dim(s, "M"), n = 2 * dim(s, "N"), k = 4 * dim(s, "K");
                                      auto a = floatsOf(in[0]), b = floatsOf(in[1]);
                                      std::vector<float> c(static_cast<size_t>(m * n));
                                      for (int64_t i = 0; i < m; ++i)
                                        for (int64_t j = 0; j < n; ++j) {
                                          float acc = 0.0f;
                                          for (int64_t t = 0; t < k / 4; ++t) {
                                            float d = 0.0f;  // OpenCL's dot of two float4
                                            for (int64_t q = 0; q < 4; ++q)
                                              d += a[static_cast<size_t>(i * k + 4 * t + q)] *
                                                   b[static_cast<size_t>(j * k + 4 * t + q)];
                                            acc = acc + d;
                                          }
                                          c[static_cast<size_t>(i * n + j)] = acc;
                                        }
                                      return floatArray({m, n, 1}, c);
                                    }};
  r["lowlevel/matmul_tiled_gpu.lift"] = {{{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 2}, {"N", 1}, {"K", 3}}},
                                         tiledMatmul(64, 64, 16)};
  r["lowlevel/matmul_tiled_gpu_vec.lift"] = {{{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 1}, {"N", 2}, {"K", 2}}},
                                             tiledMatmul(64, 64, 16)};
  r["lowlevel/matmul_tiled_gpu_float4.lift"] = {
      {{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 2}, {"N", 1}, {"K", 3}}}, tiledMatmul(64, 64, 16)};
  r["lowlevel/matmul_tiled_gpu_8x8.lift"] = {{{{"M", 1}, {"N", 1}, {"K", 1}}, {{"M", 1}, {"N", 2}, {"K", 2}}},
                                             tiledMatmul(128, 128, 16)};
  r["lowlevel/gemv.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 3}, {"N", 12}}}, gemvRef};
  r["lowlevel/asum.lift"] = {{{{"N", 1}}, {{"N", 4}}}, [](const Inputs& in, const arith::Env& s) {
                               auto x = floatsOf(in[0]);
                               std::vector<float> out;
                               for (int64_t g = 0; g < dim(s, "N"); ++g) {
                                 float acc = 0.0f;
                                 for (size_t i = 0; i < 128; ++i)
                                   acc = acc + std::fabs(x[static_cast<size_t>(g * 128) + i]);
                                 out.push_back(acc);
                               }
                               return floatArray({dim(s, "N")}, out);
                             }};
  r["lowlevel/asum_device.lift"] = {{{{"M", 1}}, {{"M", 2}}}, [](const Inputs& in, const arith::Env& s) {
                                      auto x = floatsOf(in[0]);
                                      return twoKernelSum(x.size(), dim(s, "M"), [&](size_t i, float acc) {
                                        return acc + std::fabs(x[i]);
                                      });
                                    }};
  r["lowlevel/dot_device.lift"] = {
      {{{"M", 1}}, {{"M", 2}}}, [](const Inputs& in, const arith::Env& s) {
        auto x = floatsOf(in[0]), y = floatsOf(in[1]);
        return twoKernelSum(x.size(), dim(s, "M"), [&](size_t i, float acc) { return acc + x[i] * y[i]; });
      }};
  r["lowlevel/vecmult.lift"] = {{{{"N", 2}}, {{"N", 5}}}, [](const Inputs& in, const arith::Env&) {
                                  auto x = floatsOf(in[0]), y = floatsOf(in[1]);
                                  std::vector<float> out;
                                  for (size_t i = 0; i < x.size(); ++i) out.push_back(x[i] * y[i]);
                                  return floatArray({static_cast<int64_t>(out.size())}, out);
                                }};
  r["lowlevel/prefix_sum.lift"] = {{{{"M", 1}}, {{"M", 5}}}, chunkedScanRef};
  r["lowlevel/stencil3.lift"] = {{{{"N", 1}}, {{"N", 33}}}, stencilRef};
  r["lowlevel/gaussian_blur.lift"] = {{{{"M", 5}, {"N", 7}}, {{"M", 1}, {"N", 3}}}, gaussianBlurRef};
  r["spmv.lift"] = {{{{"M", 5}, {"K", 3}, {"N", 7}}, {{"M", 9}, {"K", 4}, {"N", 12}}}, spmvRef};
  r["lowlevel/spmv.lift"] = {{{{"M", 5}, {"K", 3}, {"N", 7}}, {{"M", 2}, {"K", 6}, {"N", 10}}}, spmvRef};
  r["quantize.lift"] = {{{{"N", 1}}, {{"N", 33}}}, quantizeRef};
  r["lowlevel/quantize.lift"] = {{{{"N", 1}}, {{"N", 9}}}, quantizeRef};
  // issue 16
  r["mandelbrot.lift"] = {{{{"H", 3}, {"W", 5}}, {{"H", 16}, {"W", 24}}}, mandelbrotRef};
  r["manhattan.lift"] = {
      {{{"M", 3}, {"N", 5}, {"K", 4}}, {{"M", 8}, {"N", 2}, {"K", 17}}, {{"M", 1}, {"N", 1}, {"K", 1}}},
      manhattanRef};
  r["cosine_similarity.lift"] = {
      {{{"M", 3}, {"N", 7}, {"K", 5}}, {{"M", 7}, {"N", 3}, {"K", 5}}, {{"M", 1}, {"N", 1}, {"K", 1}}},
      cosineSimilarityRef};
  r["lowlevel/mandelbrot.lift"] = {{{{"H", 3}, {"W", 5}}, {{"H", 16}, {"W", 24}}}, mandelbrotRef};
  // issue 17 (lift17p)
  r["sorted_search.lift"] = {{{{"N", 1}, {"M", 5}}, {{"N", 13}, {"M", 40}}}, sortedSearchRef};
  r["lowlevel/sorted_search.lift"] = {{{{"N", 2}, {"M", 3}}, {{"N", 9}, {"M", 33}}}, sortedSearchRef};
  // issue 17: stream compaction
  r["compact.lift"] = {{{{"N", 1}}, {{"N", 2}}, {{"N", 37}}}, compactRef};
  r["lowlevel/compact.lift"] = {{{{"N", 1}}, {{"N", 5}}, {{"N", 64}}}, compactRef};
  return r;
}

QString examplesDir() { return QString(LIFT_SOURCE_DIR) + "/resources/examples"; }

// Every example, as a path relative to resources/examples ("lowlevel/dot.lift").
QStringList exampleFiles() {
  QStringList files;
  QDirIterator it(examplesDir(), {"*.lift"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) files << QDir(examplesDir()).relativeFilePath(it.next());
  files.sort();
  return files;
}

ir::Program load(const QString& rel) { return lang::parseFile((examplesDir() + "/" + rel).toStdString()); }

void addRows() {
  QTest::addColumn<QString>("file");
  for (const QString& f : exampleFiles()) QTest::newRow(qPrintable(f)) << f;
}

}  // namespace

class TestExamples : public QObject {
  Q_OBJECT
 private slots:
  void thereAreExamples() {
    QStringList files = exampleFiles();
    QVERIFY(files.size() >= 17);
    for (const char* f : {"matmul.lift", "gemv.lift", "dot.lift", "asum.lift", "scal.lift", "transpose.lift",
                          "nbody.lift", "blackscholes.lift", "stencil3.lift", "convolution2d.lift",
                          "lowlevel/dot.lift", "lowlevel/transpose.lift", "lowlevel/matmul_expert.lift",
                          "lowlevel/matmul_best.lift", "lowlevel/reduce.lift"})
      QVERIFY2(files.contains(f), f);
  }

  void everyExampleHasAReference_data() { addRows(); }
  void everyExampleHasAReference() {
    QFETCH(QString, file);
    auto refs = references();
    auto it = refs.find(file.toStdString());
    QVERIFY2(it != refs.end(),
             qPrintable("no reference implementation for " + file + " in tst_examples.cpp"));
    QVERIFY2(it->second.sizes.size() >= 2, "a reference needs at least two size assignments");
  }

  void referencesHaveExamples() {
    QStringList files = exampleFiles();
    for (auto& [name, ex] : references())
      QVERIFY2(files.contains(QString::fromStdString(name)),
               qPrintable(QString::fromStdString(name) + " does not exist"));
  }

  void startsWithAComment_data() { addRows(); }
  void startsWithAComment() {
    QFETCH(QString, file);
    QFile f(examplesDir() + "/" + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(f.readAll());
    QVERIFY2(text.startsWith("//"), "an example begins with a comment saying what it computes");
    QVERIFY2(text.contains("From:"), "an example's comment says where it comes from");
  }

  void typeChecks_data() { addRows(); }
  void typeChecks() {
    QFETCH(QString, file);
    try {
      ir::Program p = load(file);
      ir::TypeInfo info = ir::typeCheck(p);
      QVERIFY(info.resultType);
      for (auto& s : p.sizes)
        QVERIFY2(s.defaultValue, qPrintable("size " + QString::fromStdString(s.name) + " has no default"));
    } catch (const LiftError& e) {
      QFAIL(e.what());
    }
  }

  void roundTripsThroughThePrinter_data() { addRows(); }
  void roundTripsThroughThePrinter() {
    QFETCH(QString, file);
    ir::Program p = load(file);
    std::string printed = lang::printProgram(p);
    ir::Program q = lang::parseProgram(printed, "printed.lift");
    QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
    QCOMPARE(QString::fromStdString(lang::printProgram(q)), QString::fromStdString(printed));
  }

  void defaultAndChosenSizesAreValid_data() { addRows(); }
  void defaultAndChosenSizesAreValid() {
    QFETCH(QString, file);
    ir::Program p = load(file);
    arith::Env defaults;
    for (auto& s : p.sizes) defaults[s.name] = s.defaultValue.value_or(1);
    auto problem = sizeProblem(p, defaults);
    QVERIFY2(!problem, problem ? problem->format().c_str() : "");
    arith::Env chosen = chooseSizes(p);
    QVERIFY(!sizeProblem(p, chosen));
    // The chosen sizes also run.
    interpret(p, randomInputs(p, chosen, 3), chosen);
  }

  void computesWhatTheReferenceComputes_data() { addRows(); }
  void computesWhatTheReferenceComputes() {
    QFETCH(QString, file);
    auto refs = references();
    auto it = refs.find(file.toStdString());
    if (it == refs.end()) QSKIP("no reference (reported by everyExampleHasAReference)");
    ir::Program p = load(file);
    uint64_t seed = 11;
    for (const arith::Env& sizes : it->second.sizes) {
      std::string at;
      for (auto& [n, v] : sizes) at += fmt::format(" {}={}", n, v);
      auto problem = sizeProblem(p, sizes);
      QVERIFY2(!problem, (at + ": " + (problem ? problem->format() : "")).c_str());
      auto inputs = randomInputs(p, sizes, seed++);
      Value result;
      try {
        result = interpret(p, inputs, sizes);
      } catch (const LiftError& e) {
        QFAIL((at + ": " + e.what()).c_str());
      }
      Value expected = it->second.reference(inputs, sizes);
      Comparison c = approxEqual(result, expected, 1e-5, 1e-5);
      QVERIFY2(c, (file.toStdString() + " at" + at + ": " + c.report()).c_str());
      // And the sizes the interpreter infers from the inputs are the ones used.
      arith::Env inferred = inferSizes(p, inputs);
      for (auto& [n, v] : inferred) QCOMPARE(v, sizes.at(n));
    }
  }
};

QTEST_APPLESS_MAIN(TestExamples)
#include "tst_examples.moc"
