// OpenBLAS references (see BlasReference.h): loading the library, the candidate bindings of
// each routine to a program's inputs, and the trial against the interpreter.
#include "codegen/BlasReference.h"

#include "codegen/BlasDims.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <mutex>

#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/interp/WorkCount.h"
#include "core/ir/TypeCheck.h"

#if __has_include(<cblas.h>)
#include <cblas.h>
#define LIFT_HAVE_CBLAS 1
#else
#define LIFT_HAVE_CBLAS 0
#endif

namespace lift::codegen {

const char* toString(BlasRoutine r) {
  switch (r) {
    case BlasRoutine::Sgemm:
      return "sgemm";
    case BlasRoutine::Sgemv:
      return "sgemv";
    case BlasRoutine::Sdot:
      return "sdot";
    case BlasRoutine::Sasum:
      return "sasum";
    case BlasRoutine::Sscal:
      return "sscal";
  }
  return "?";
}

std::optional<BlasRoutine> blasRoutineByName(std::string_view name) {
  for (BlasRoutine r :
       {BlasRoutine::Sgemm, BlasRoutine::Sgemv, BlasRoutine::Sdot, BlasRoutine::Sasum, BlasRoutine::Sscal})
    if (name == toString(r)) return r;
  return std::nullopt;
}

std::optional<BlasRoutine> blasRoutineSuggestedBy(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  if (has("matmul") || has("gemm") || n == "mm" || has("matrixmult")) return BlasRoutine::Sgemm;
  if (has("gemv") || has("matvec")) return BlasRoutine::Sgemv;
  if (has("asum")) return BlasRoutine::Sasum;
  if (has("dot")) return BlasRoutine::Sdot;
  if (has("scal")) return BlasRoutine::Sscal;
  return std::nullopt;
}

// ----- the library -------------------------------------------------------------------------

namespace {

#if LIFT_HAVE_CBLAS
struct Blas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_sgemv) sgemv = nullptr;
  decltype(&cblas_dsdot) dsdot = nullptr;
  decltype(&cblas_sasum) sasum = nullptr;
  decltype(&cblas_sscal) sscal = nullptr;
};
#else
struct Blas {};
#endif

struct Loaded {
  Blas blas;
  bool ok = false;
  std::string why;
};

const Loaded& library() {
  static const Loaded loaded = [] {
    Loaded l;
#if LIFT_HAVE_CBLAS
    std::string errors;
    for (const char* name : {"libopenblas.so.0", "libopenblas.so"}) {
      void* h = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        errors += fmt::format("{}{}", errors.empty() ? "" : "; ", ::dlerror());
        continue;
      }
      auto sym = [&](auto& fn, const char* s) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(h, s));
        return fn != nullptr;
      };
      if (sym(l.blas.sgemm, "cblas_sgemm") && sym(l.blas.sgemv, "cblas_sgemv") &&
          sym(l.blas.dsdot, "cblas_dsdot") && sym(l.blas.sasum, "cblas_sasum") &&
          sym(l.blas.sscal, "cblas_sscal")) {
        l.ok = true;
        return l;
      }
      errors += fmt::format("{}{} lacks the CBLAS functions", errors.empty() ? "" : "; ", name);
      ::dlclose(h);
    }
    l.why = "OpenBLAS cannot be loaded (" + errors + ")";
#else
    l.why = "liftc was built without cblas.h (install libopenblas-dev)";
#endif
    return l;
  }();
  return loaded;
}

const Blas& blas() {
  const Loaded& l = library();
  if (!l.ok) throw LiftError(l.why);
  return l.blas;
}

// ----- the program's inputs as operands ------------------------------------------------------

struct Operand {
  int input = -1;
  bool scalar = false;
  std::vector<int64_t> dims;  // arrays: lengths, outermost first, then a vector's width
  int64_t count = 1;          // scalars in the operand
  int64_t rows() const { return dims.empty() ? 1 : dims[0]; }
  int64_t cols() const { return dims.empty() ? 1 : count / dims[0]; }
};

struct Operands {
  std::vector<Operand> arrays, scalars;
  std::string unusable;  // why the inputs cannot be BLAS operands (non-float, tuples, ...)
};

Operands operandsOf(const ir::Program& p, const arith::Env& sizes) {
  Operands out;
  int i = 0;
  for (auto& param : p.main->params()) {
    Operand o;
    o.input = i++;
    Type t = interp::concreteType(param->declaredType(), sizes);
    while (t.isArray()) {
      o.dims.push_back(t.length().value());
      t = t.elem();
    }
    if (t.isVector()) o.dims.push_back(t.vectorWidth());
    if ((!t.isScalar() && !t.isVector()) || t.scalarKind() != ScalarKind::Float) {
      out.unusable = fmt::format("input '{}' is not made of floats", param->name());
      continue;
    }
    for (int64_t d : o.dims) o.count *= d;
    o.scalar = o.dims.empty();
    (o.scalar ? out.scalars : out.arrays).push_back(o);
  }
  return out;
}

size_t outputScalarsOf(const ir::Program& p, const arith::Env& sizes) {
  ir::TypeInfo info = ir::typeCheck(interp::specialize(p, sizes));
  return static_cast<size_t>(arith::evaluate(info.resultType.scalarCount(), sizes));
}

std::vector<float> floatsOf(const interp::Value& v) {
  if (v.isArray() && v.isFlat() && v.flatKind() == ScalarKind::Float) {
    // Straight from the flat block (a 2^14 x 2^14 matrix: no copy of its 2 GiB of scalars first).
    std::span<const interp::Scalar> data = v.flatData();
    std::vector<float> out(data.size());
    for (size_t i = 0; i < data.size(); ++i) out[i] = data[i].f;
    return out;
  }
  std::vector<interp::Scalar> s;
  s.reserve(v.scalarCount());
  v.flattenInto(s);
  std::vector<float> out(s.size());
  for (size_t i = 0; i < s.size(); ++i) out[i] = s[i].f;
  return out;
}

int blasInt(int64_t n, const char* what) {
  if (n < 0 || n > INT_MAX)
    throw LiftError(fmt::format("{} = {} is too large for BLAS (32-bit sizes)", what, n));
  return static_cast<int>(n);
}

const Operand* findOperand(const std::vector<Operand>& ops, int input) {
  for (auto& o : ops)
    if (o.input == input) return &o;
  return nullptr;
}

// Every candidate binding of `r` to these operands whose shapes fit an output of `outScalars`.
std::vector<BlasBinding> candidates(BlasRoutine r, const Operands& ops, size_t outScalars, std::string& why) {
  std::vector<BlasBinding> out;
  const auto& A = ops.arrays;
  const auto& S = ops.scalars;
  int64_t P = static_cast<int64_t>(outScalars);
  switch (r) {
    case BlasRoutine::Sgemm: {
      if (A.size() != 2 || !S.empty() || A[0].dims.size() < 2 || A[1].dims.size() < 2) {
        why = "sgemm needs exactly two matrix inputs (and no scalar inputs)";
        return out;
      }
      for (int first = 0; first < 2; ++first)
        for (int ta = 0; ta < 2; ++ta)
          for (int tb = 0; tb < 2; ++tb)
            for (int tc = 0; tc < 2; ++tc) {
              const Operand &a = A[first], &b = A[1 - first];
              int64_t m = ta ? a.cols() : a.rows(), k = ta ? a.rows() : a.cols();
              int64_t k2 = tb ? b.cols() : b.rows(), n = tb ? b.rows() : b.cols();
              if (k != k2 || m * n != P) continue;
              BlasBinding bnd;
              bnd.routine = r;
              bnd.arrays = {a.input, b.input};
              bnd.transA = ta, bnd.transB = tb, bnd.transC = tc;
              out.push_back(bnd);
            }
      if (out.empty()) why = "no way of multiplying the two matrices gives the output's shape";
      return out;
    }
    case BlasRoutine::Sgemv: {
      std::vector<const Operand*> mats, vecs;
      for (auto& o : A) (o.dims.size() >= 2 && o.rows() > 1 && o.cols() > 1 ? mats : vecs).push_back(&o);
      if (mats.size() != 1 || vecs.empty() || vecs.size() > 2 || S.size() > 2) {
        why = "sgemv needs one matrix, one or two vectors and at most two scalars (alpha, beta)";
        return out;
      }
      const Operand& mat = *mats[0];
      for (size_t xi = 0; xi < vecs.size(); ++xi)
        for (int ta = 0; ta < 2; ++ta) {
          const Operand& x = *vecs[xi];
          const Operand* y = vecs.size() == 2 ? vecs[1 - xi] : nullptr;
          int64_t m = ta ? mat.cols() : mat.rows(), n = ta ? mat.rows() : mat.cols();
          if (x.count != n || m != P || (y && y->count != m)) continue;
          // alpha and beta: each a scalar input or the default; every scalar input used.
          std::vector<int> choices = {-1};
          for (auto& s : S) choices.push_back(s.input);
          for (int al : choices)
            for (int be : choices) {
              if (al >= 0 && al == be) continue;
              if (!y && be >= 0) continue;
              size_t used = (al >= 0) + (be >= 0);
              if (used != S.size()) continue;
              BlasBinding bnd;
              bnd.routine = r;
              bnd.arrays = {mat.input, x.input};
              if (y) bnd.arrays.push_back(y->input);
              bnd.transA = ta;
              bnd.alpha = al, bnd.beta = be;
              out.push_back(bnd);
            }
        }
      if (out.empty()) why = "the matrix and vector shapes do not give the output's shape";
      return out;
    }
    case BlasRoutine::Sdot:
      if (A.size() != 2 || !S.empty() || A[0].count != A[1].count || P < 1 || A[0].count % P != 0) {
        why = "sdot needs two inputs of one length and an output that divides it into equal chunks";
        return out;
      }
      out.push_back(BlasBinding{r, {A[0].input, A[1].input}});
      return out;
    case BlasRoutine::Sasum:
      if (A.size() != 1 || !S.empty() || P < 1 || A[0].count % P != 0) {
        why = "sasum needs one input and an output that divides it into equal chunks";
        return out;
      }
      out.push_back(BlasBinding{r, {A[0].input}});
      return out;
    case BlasRoutine::Sscal:
      if (A.size() != 1 || S.size() != 1 || A[0].count != P) {
        why = "sscal needs one array and one scalar input, and an output as long as the array";
        return out;
      }
      {
        BlasBinding bnd{r, {A[0].input}};
        bnd.alpha = S[0].input;
        out.push_back(bnd);
      }
      return out;
  }
  return out;
}

bool agrees(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    double d = std::fabs(static_cast<double>(got[i]) - want[i]);
    double scale = std::max(std::fabs(got[i]), std::fabs(want[i]));
    if (!(d <= std::max(1e-3 * scale, 1e-4))) return false;
  }
  return true;
}

std::string nameOf(const ir::Program& p, int input) {
  return input >= 0 && static_cast<size_t>(input) < p.main->params().size() ? p.main->params()[input]->name()
                                                                            : "?";
}

}  // namespace

bool blasAvailable(std::string* why) {
  const Loaded& l = library();
  if (!l.ok && why) *why = l.why;
  return l.ok;
}

std::string BlasBinding::describe(const ir::Program& p) const {
  auto in = [&](size_t i) { return i < arrays.size() ? nameOf(p, arrays[i]) : std::string("?"); };
  switch (routine) {
    case BlasRoutine::Sgemm: {
      std::string prod = fmt::format("{}{} x {}{}", in(0), transA ? "^T" : "", in(1), transB ? "^T" : "");
      return fmt::format("sgemm {}", transC ? "(" + prod + ")^T" : prod);
    }
    case BlasRoutine::Sgemv: {
      std::string s = fmt::format("{}{}{} x {}", alpha >= 0 ? nameOf(p, alpha) + " * " : "", in(0),
                                  transA ? "^T" : "", in(1));
      if (arrays.size() > 2) s += fmt::format(" + {}{}", beta >= 0 ? nameOf(p, beta) + " * " : "", in(2));
      return "sgemv " + s;
    }
    case BlasRoutine::Sdot:
      return fmt::format("sdot {} . {}", in(0), in(1));
    case BlasRoutine::Sasum:
      return fmt::format("sasum |{}|", in(0));
    case BlasRoutine::Sscal:
      return fmt::format("sscal {} * {}", nameOf(p, alpha), in(0));
  }
  return toString(routine);
}

namespace {
// The operands of binding `bb` of `p` at `sizes`; throws LiftError when its shapes do not fit.
Operands checkedOperands(const BlasBinding& bb, const ir::Program& p, const arith::Env& sizes,
                         size_t outputScalars) {
  Operands ops = operandsOf(p, sizes);
  std::string why;
  bool fits = false;
  for (const BlasBinding& c : candidates(bb.routine, ops, outputScalars, why))
    fits = fits || (c.arrays == bb.arrays && c.alpha == bb.alpha && c.beta == bb.beta &&
                    c.transA == bb.transA && c.transB == bb.transB && c.transC == bb.transC);
  if (!fits)
    throw LiftError(fmt::format("the BLAS reference ({}) does not fit the program's shapes at these sizes{}",
                                bb.describe(p), why.empty() ? "" : ": " + why));
  return ops;
}
}  // namespace

#if LIFT_HAVE_CBLAS
namespace {
// The binding's routine on its arrays (flat, row-major, in the binding's order: sgemm A, B;
// sgemv A, x[, y]; ...) into `out` (sized for the program's output), which it returns; sscal
// scales its array in place and returns that.
const std::vector<float>& callRoutine(const BlasBinding& bb, const Operands& ops,
                                      std::vector<std::vector<float>>& arrays, float alpha, float beta,
                                      std::vector<float>& out) {
  const Blas& b = blas();
  auto operand = [&](size_t i) -> const Operand& { return *findOperand(ops.arrays, bb.arrays.at(i)); };
  switch (bb.routine) {
    case BlasRoutine::Sgemm: {
      const Operand &oa = operand(0), &ob = operand(1);
      int64_t m = bb.transA ? oa.cols() : oa.rows(), k = bb.transA ? oa.rows() : oa.cols();
      int64_t n = bb.transB ? ob.rows() : ob.cols();
      std::vector<float> transposed;
      std::vector<float>& c = bb.transC ? transposed : out;
      c.resize(static_cast<size_t>(m * n));
      b.sgemm(CblasRowMajor, bb.transA ? CblasTrans : CblasNoTrans, bb.transB ? CblasTrans : CblasNoTrans,
              blasInt(m, "m"), blasInt(n, "n"), blasInt(k, "k"), 1.0f, arrays[0].data(),
              blasInt(oa.cols(), "lda"), arrays[1].data(), blasInt(ob.cols(), "ldb"), 0.0f, c.data(),
              blasInt(n, "ldc"));
      if (bb.transC)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j)
            out[static_cast<size_t>(j * m + i)] = c[static_cast<size_t>(i * n + j)];
      return out;
    }
    case BlasRoutine::Sgemv: {
      const Operand& oa = operand(0);
      if (arrays.size() > 2) std::copy(arrays[2].begin(), arrays[2].end(), out.begin());
      b.sgemv(CblasRowMajor, bb.transA ? CblasTrans : CblasNoTrans, blasInt(oa.rows(), "rows"),
              blasInt(oa.cols(), "cols"), alpha, arrays[0].data(), blasInt(oa.cols(), "lda"),
              arrays[1].data(), 1, beta, out.data(), 1);
      return out;
    }
    case BlasRoutine::Sdot: {
      const std::vector<float>&x = arrays[0], &y = arrays[1];
      size_t chunk = x.size() / out.size();
      int n = blasInt(static_cast<int64_t>(chunk), "chunk");
      for (size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(b.dsdot(n, x.data() + i * chunk, 1, y.data() + i * chunk, 1));
      return out;
    }
    case BlasRoutine::Sasum: {
      const std::vector<float>& x = arrays[0];
      size_t chunk = x.size() / out.size();
      int n = blasInt(static_cast<int64_t>(chunk), "chunk");
      for (size_t i = 0; i < out.size(); ++i) out[i] = b.sasum(n, x.data() + i * chunk, 1);
      return out;
    }
    case BlasRoutine::Sscal:
      b.sscal(blasInt(static_cast<int64_t>(arrays[0].size()), "n"), alpha, arrays[0].data(), 1);
      return arrays[0];
  }
  return out;
}

}  // namespace
#endif

std::vector<float> BlasBinding::compute(const ir::Program& p, const std::vector<interp::Value>& inputs,
                                        const arith::Env& sizes, size_t outputScalars) const {
#if LIFT_HAVE_CBLAS
  Operands ops = checkedOperands(*this, p, sizes, outputScalars);
  auto scalar = [&](int input, float def) {
    return input >= 0 ? static_cast<float>(inputs.at(static_cast<size_t>(input)).asDouble()) : def;
  };
  std::vector<std::vector<float>> data;
  for (int input : arrays) data.push_back(floatsOf(inputs.at(static_cast<size_t>(input))));
  bool withY = routine == BlasRoutine::Sgemv && arrays.size() > 2;
  std::vector<float> out(outputScalars);
  return callRoutine(*this, ops, data, scalar(alpha, 1.0f), withY ? scalar(beta, 1.0f) : 0.0f, out);
#else
  (void)p, (void)inputs, (void)sizes, (void)outputScalars;
  throw LiftError(library().why);
#endif
}

double BlasBinding::medianMs(const ir::Program& p, const arith::Env& sizes, int repetitions) const {
#if LIFT_HAVE_CBLAS
  size_t outputScalars = outputScalarsOf(p, sizes);
  Operands ops = checkedOperands(*this, p, sizes, outputScalars);
  std::vector<std::vector<float>> data;
  for (int input : arrays)
    data.emplace_back(static_cast<size_t>(findOperand(ops.arrays, input)->count), 0.5f);
  std::vector<float> out(outputScalars);
  std::vector<double> ms;
  for (int r = -1; r < std::max(1, repetitions); ++r) {  // one warm-up call first
    auto start = std::chrono::steady_clock::now();
    callRoutine(*this, ops, data, 1.0f, 1.0f, out);
    auto end = std::chrono::steady_clock::now();
    if (r >= 0) ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
#else
  (void)p, (void)sizes, (void)repetitions;
  throw LiftError(library().why);
#endif
}

BlasDims blasDims(const BlasBinding& bb, const ir::Program& p, const arith::Env& sizes) {
  size_t outputScalars = outputScalarsOf(p, sizes);
  Operands ops = checkedOperands(bb, p, sizes, outputScalars);
  const Operand& a = *findOperand(ops.arrays, bb.arrays.at(0));
  BlasDims d;
  switch (bb.routine) {
    case BlasRoutine::Sgemm: {
      const Operand& b = *findOperand(ops.arrays, bb.arrays.at(1));
      d.m = bb.transA ? a.cols() : a.rows();
      d.k = bb.transA ? a.rows() : a.cols();
      d.n = bb.transB ? b.rows() : b.cols();
      break;
    }
    case BlasRoutine::Sgemv:
      d.m = a.rows();
      d.n = a.cols();
      break;
    case BlasRoutine::Sdot:
    case BlasRoutine::Sasum:
      d.n = a.count;
      d.chunks = static_cast<int64_t>(outputScalars);
      break;
    case BlasRoutine::Sscal:
      d.n = a.count;
      break;
  }
  return d;
}

double BlasBinding::nominalFlops(const ir::Program& p, const arith::Env& sizes) const {
  Operands ops = operandsOf(p, sizes);
  auto op = [&](size_t i) -> const Operand* {
    return i < arrays.size() ? findOperand(ops.arrays, arrays[i]) : nullptr;
  };
  const Operand* a = op(0);
  if (!a) return 0;
  switch (routine) {
    case BlasRoutine::Sgemm: {
      const Operand* b = op(1);
      if (!b) return 0;
      double m = static_cast<double>(transA ? a->cols() : a->rows());
      double k = static_cast<double>(transA ? a->rows() : a->cols());
      double n = static_cast<double>(transB ? b->rows() : b->cols());
      return 2 * m * n * k;
    }
    case BlasRoutine::Sgemv:
      return 2.0 * static_cast<double>(a->count);
    case BlasRoutine::Sdot:
    case BlasRoutine::Sasum:
      return 2.0 * static_cast<double>(a->count);
    case BlasRoutine::Sscal:
      return static_cast<double>(a->count);
  }
  return 0;
}

std::optional<BlasBinding> bindBlas(const ir::Program& p, BlasRoutine routine, std::string* why) {
  blas();  // throws when OpenBLAS is missing
  auto fail = [&](std::string message) -> std::optional<BlasBinding> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  arith::Env sizes;
  try {
    sizes = interp::chooseSizes(p);
  } catch (const LiftError& e) {
    return fail("no small sizes to compare at: " + e.diagnostic().message);
  }
  Operands ops = operandsOf(p, sizes);
  if (!ops.unusable.empty()) return fail(ops.unusable);
  size_t outScalars = outputScalarsOf(p, sizes);
  std::string reason;
  std::vector<BlasBinding> cands = candidates(routine, ops, outScalars, reason);
  if (cands.empty()) return fail(reason);
  std::string at;
  for (auto& [n, v] : sizes) at += fmt::format("{}{}={}", at.empty() ? "" : ", ", n, v);
  // The smallest sizes of a program whose sizes are constants are those constants: checking a
  // 1024³ matmul would keep the interpreter busy for minutes. Nothing is bound unchecked.
  double work = interp::countWork(p, sizes).applications;
  if (work > kMaxBindingCheckWork)
    return fail(fmt::format(
        "the program is too large at its smallest sizes ({}) to check how {} applies to it ({:.3g} function "
        "applications in the interpreter, at most {:.3g}): give it size variables instead of constants, or "
        "run without a reference",
        at.empty() ? "its sizes are constants" : at, toString(routine), work, kMaxBindingCheckWork));
  std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, 7);
  std::vector<float> expected;
  try {
    expected = floatsOf(interp::interpret(p, inputs, sizes));
  } catch (const LiftError& e) {
    return fail("the interpreter failed at small sizes: " + e.diagnostic().message);
  }
  for (const BlasBinding& c : cands)
    if (agrees(c.compute(p, inputs, sizes, outScalars), expected)) return c;
  return fail(
      fmt::format("the program does not compute {} (no way of applying it to the inputs agrees with the "
                  "interpreter at {})",
                  toString(routine), at));
}

}  // namespace lift::codegen
