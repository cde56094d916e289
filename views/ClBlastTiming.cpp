// See ClBlastTiming.h.
#include "views/ClBlastTiming.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "codegen/runtime/ClError.h"
#include "core/support/Diagnostic.h"

namespace lift::views {

using codegen::BlasRoutine;
using Dims = codegen::BlasDims;

std::string describeClBlastCall(const codegen::BlasBinding& binding, const Dims& d) {
  switch (binding.routine) {
    case BlasRoutine::Sgemm:
      return fmt::format("sgemm m={} n={} k={}", d.m, d.n, d.k);
    case BlasRoutine::Sgemv:
      return fmt::format("sgemv {}x{}{}", d.m, d.n, binding.transA ? " transposed" : "");
    case BlasRoutine::Sdot:
    case BlasRoutine::Sasum:
    case BlasRoutine::Sscal:
      return fmt::format("{} n={}", codegen::toString(binding.routine), d.n);
  }
  return codegen::toString(binding.routine);
}

namespace {

// The device buffers of one call, filled with 0.5, and the call itself.
class Call {
 public:
  Call(const ClBlastLibrary& lib, runtime::DeviceContext& ctx, const codegen::BlasBinding& b, const Dims& d)
      : lib_(lib), ctx_(ctx), b_(b), d_(d) {
    auto u = [](int64_t v) { return static_cast<size_t>(v); };
    switch (b.routine) {
      case BlasRoutine::Sgemm:
        buffers_ = {buffer(u(d.m * d.k)), buffer(u(d.k * d.n)), buffer(u(d.m * d.n))};
        break;
      case BlasRoutine::Sgemv:  // A, x, y
        buffers_ = {buffer(u(d.m * d.n)), buffer(u(b.transA ? d.m : d.n)), buffer(u(b.transA ? d.n : d.m))};
        break;
      case BlasRoutine::Sdot:
        buffers_ = {buffer(u(d.n)), buffer(u(d.n)), buffer(1)};
        break;
      case BlasRoutine::Sasum:
        buffers_ = {buffer(u(d.n)), buffer(1)};
        break;
      case BlasRoutine::Sscal:
        buffers_ = {buffer(u(d.n))};
        break;
    }
    ctx_.queue().finish();
  }

  // One call, finished; the status CLBlast returned.
  ClBlastLibrary::Status operator()() {
    cl_command_queue q = ctx_.queue()();
    auto mem = [&](size_t i) { return buffers_.at(i)(); };
    auto u = [](int64_t v) { return static_cast<size_t>(v); };
    using L = ClBlastLibrary;
    auto t = [](bool transposed) { return transposed ? L::Yes : L::No; };
    L::Status s = 0;
    switch (b_.routine) {
      case BlasRoutine::Sgemm: {
        // A stored m x k (k x m transposed), B stored k x n (n x k), C m x n, all row-major.
        size_t lda = u(b_.transA ? d_.m : d_.k), ldb = u(b_.transB ? d_.k : d_.n);
        if (!b_.transC) {
          s = lib_.sgemm(L::RowMajor, t(b_.transA), t(b_.transB), u(d_.m), u(d_.n), u(d_.k), 1.0f, mem(0), 0,
                         lda, mem(1), 0, ldb, 0.0f, mem(2), 0, u(d_.n), &q, nullptr);
        } else {  // the program's output is C^T = op(B)^T op(A)^T, n x m
          s = lib_.sgemm(L::RowMajor, t(!b_.transB), t(!b_.transA), u(d_.n), u(d_.m), u(d_.k), 1.0f, mem(1),
                         0, ldb, mem(0), 0, lda, 0.0f, mem(2), 0, u(d_.m), &q, nullptr);
        }
        break;
      }
      case BlasRoutine::Sgemv:
        s = lib_.sgemv(L::RowMajor, t(b_.transA), u(d_.m), u(d_.n), 1.0f, mem(0), 0, u(d_.n), mem(1), 0, 1,
                       b_.arrays.size() > 2 ? 1.0f : 0.0f, mem(2), 0, 1, &q, nullptr);
        break;
      case BlasRoutine::Sdot:
        s = lib_.sdot(u(d_.n), mem(2), 0, mem(0), 0, 1, mem(1), 0, 1, &q, nullptr);
        break;
      case BlasRoutine::Sasum:
        s = lib_.sasum(u(d_.n), mem(1), 0, mem(0), 0, 1, &q, nullptr);
        break;
      case BlasRoutine::Sscal:
        s = lib_.sscal(u(d_.n), 1.0f, mem(0), 0, 1, &q, nullptr);
        break;
    }
    clFinish(q);
    return s;
  }

 private:
  cl::Buffer buffer(size_t floats) {
    cl::Buffer b(ctx_.context(), CL_MEM_READ_WRITE, std::max<size_t>(floats, 1) * sizeof(float));
    ctx_.queue().enqueueFillBuffer(b, 0.5f, 0, std::max<size_t>(floats, 1) * sizeof(float));
    return b;
  }

  const ClBlastLibrary& lib_;
  runtime::DeviceContext& ctx_;
  const codegen::BlasBinding& b_;
  const Dims& d_;
  std::vector<cl::Buffer> buffers_;
};

}  // namespace

std::optional<double> clblastMedianMs(const ClBlastLibrary& clblast, const runtime::Device& device,
                                      const codegen::BlasBinding& binding, const Dims& dims, int repetitions,
                                      const std::function<bool()>& cancelled) {
  if (!clblast.ok()) throw LiftError(clblast.why);
  try {
    runtime::DeviceContext ctx(device);
    Call call(clblast, ctx, binding, dims);
    std::vector<double> ms;
    for (int r = -1; r < std::max(1, repetitions); ++r) {  // a warm-up call first: it builds the kernels
      if (cancelled && cancelled()) return std::nullopt;
      auto start = std::chrono::steady_clock::now();
      ClBlastLibrary::Status s = call();
      auto end = std::chrono::steady_clock::now();
      if (s != 0) throw LiftError(ClBlastLibrary::describeStatus(s));
      if (r >= 0) ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  } catch (const cl::Error& e) {
    throw LiftError(fmt::format("the device refused {} ({})", e.what(), runtime::describeClError(e.err())));
  }
}

}  // namespace lift::views
