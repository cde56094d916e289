// bench_skelcl: the SkelCL programs of seed 000 timed on a list of OpenCL devices, the way the
// seed measures its multi-GPU runs: each repetition starts from data on the host and ends with
// the result on the host (uploads, kernels and downloads included); a second run of each
// repetition times the three phases apart (uploading the inputs, the skeleton on inputs already
// on the devices, downloading the output). One line per case:
//
//   bench_skelcl matmul --size 8192 --device 0,1 [--repeat 3] [--check 64] [--host-memory page-locked]
//                [--host-pool on|off]
//
// prints `case size devices total_ms upload_ms kernels_ms download_ms rate_total rate_kernels
// unit check host_alloc_ms host_memory into_ms host_pool` (medians; into_ms, scan only ("-"
// otherwise): the skeleton on inputs on the devices into an output it wrote before, whose device
// memory it reuses, as torch.cumsum's caching allocator does; host_alloc_ms: allocating the host
// storage of the output's size, which a download of a new output starts with, in the host memory
// the containers use: pageable, or page-locked with --host-memory page-locked; host_pool: whether
// the containers' host copies come from the device set's HostStoragePool — on, the default: every
// run after the first takes the blocks of the previous run's containers, whose pages are faulted
// in or pinned already — or are allocated anew each time, off). Cases (skelcl/programs/): matmul
// (C = A x B, n x n, AllPairs in zip-reduce form, A block-distributed, B copied; GFLOP/s),
// manhattan (the Manhattan distances of n points of n coordinates to n others, AllPairs the same
// way; "GFLOP/s" counting a difference and an addition as matmul counts a product and an
// addition), blur (the Gaussian blur of an n x n image: a 3 x 3 stencil over the image
// overlap-distributed with one halo row; GB/s of the image read and the result written),
// mandelbrot (the n x n Mandelbrot image, a map over an index matrix, block-distributed; Gpixel/s),
// cosine (the cosine similarities of n rows of n coordinates with n columns, AllPairs with a general
// row function, as matmul; 6n^3 flops; no plain version, so only a `cosine-ratio` line saying so),
// scan (the exclusive prefix sum of --size floats, block-distributed; GB/s) and dot (the dot
// product of two vectors of --size floats with ZipReduce, block-distributed; GB/s of both vectors
// read). Before the library's line every case prints `CASE-plain`, the same columns for its plain
// OpenCL version on the first device of the first platform (host to host; upload; kernels, the
// output left on the device — dot: its partial sums read back and added; download), and
// `CASE-ratio`, the library's speed over it host to host and kernels only (> 1: faster) and
// whether the library took a stored kernel; a wrong plain result fails the check too. The two
// take turns, run after run, so a drift of the machine's speed reaches both alike. `--store
// FILE`: the skeletons take the best kernel a result store holds for their program, size and
// device (skelcl/StoredKernel.h); `--lift-program` prints that program (every case; blur: the
// image on one device, whose rows are padded by the halo at both ends; mandelbrot: for the n x n
// image of --size, whose scale its user function holds). Exit status 2 on a bad
// argument or a device error, 1 when the check fails.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "app/liftc/Options.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/ResultStore.h"
#include "skelcl/HostStorage.h"
#include "skelcl/SkelCL.h"
#include "skelcl/programs/CosineSimilarity.h"
#include "skelcl/programs/DotProduct.h"
#include "skelcl/programs/GaussianBlur.h"
#include "skelcl/programs/Mandelbrot.h"
#include "skelcl/programs/ManhattanDistance.h"
#include "skelcl/programs/MatrixMultiplication.h"
#include "skelcl/programs/PrefixSum.h"

namespace {

using namespace lift::skelcl;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string kase;
  size_t size = 1024;
  std::vector<std::string> devices{"0"};
  int repeat = 3;
  int check = 64;  // entries of the result compared with a computation on the host
  HostMemory hostMemory = HostMemory::Pageable;
  bool hostPool = true;                // the containers' host copies from the device set's pool
  ScanForm scanForm = ScanForm::Auto;  // the scan case's
  std::string store;                   // a result store whose kernels the skeletons take
  bool liftProgram = false;            // print the case's high-level program and exit
};

struct Timing {
  double totalMs = 0;     // host to host: uploads, kernels, downloads
  double uploadMs = 0;    // the inputs to the devices
  double kernelsMs = 0;   // inputs already on the devices, output left there
  double downloadMs = 0;  // the output to the host
  double allocMs = 0;     // of that: the output's host storage allocated (HostStorage::allocate)
  double intoMs = 0;      // kernels into an existing output (0: not measured)
  double work = 0;        // flops or bytes of one run
  std::string unit;       // of work / time: GFLOP/s or GB/s
  bool checked = true;
  std::vector<std::string> before;  // lines printed before the case's line (the dot case's plain version)
};

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// What a download of a new output starts with: its host storage, `bytes` of the device set's
// host memory, allocated (and left untouched: each download thread touches its own part), from
// the device set's host pool when it is on (this storage then goes back there).
double hostAllocationMs(DeviceSet& devices, size_t bytes) {
  auto start = Clock::now();
  HostStorage s = HostStorage::allocate(bytes, devices.hostMemory(), devices);
  return msSince(start);
}

// Times a skeleton program as the cases do: `repeat` runs after one that builds the kernels, the
// result of every run judged by `check` (a race shows in some runs only). Each run goes host to
// host — the inputs `makeInputs()` makes on the host, `run(inputs)` applies the skeleton, the
// result's host data read — and then again phase by phase: `upload(inputs)` on fresh inputs,
// `run`, the download of the output (with `outputElements` elements). `between`, when given, is
// called after each run: a round of the plain version (PlainRounds), so that both take turns and
// a drift of the machine's speed — pageable copies on a GPU machine moved by 30 % from one
// second to the next (bench/gpu/cl_host_copies.cpp) — reaches both alike.
template <class MakeInputs, class Upload, class Run, class Check>
void timeRuns(const Options& o, DeviceSet& devices, size_t outputElements, MakeInputs makeInputs,
              Upload upload, Run run, Check check, Timing& t, const std::function<void()>& between = {}) {
  std::vector<double> total, uploads, kernels, downloads, allocs;
  for (int r = 0; r < o.repeat + 1; ++r) {
    {
      auto in = makeInputs();
      auto start = Clock::now();
      auto out = run(in);
      const auto result = out.hostData();
      total.push_back(msSince(start));
      t.checked = check(result) && t.checked;
    }
    auto in = makeInputs();
    auto start = Clock::now();
    upload(in);
    uploads.push_back(msSince(start));
    start = Clock::now();
    auto out = run(in);
    kernels.push_back(msSince(start));
    start = Clock::now();
    const auto downloaded = out.hostData();
    downloads.push_back(msSince(start));
    t.checked = check(downloaded) && t.checked;
    allocs.push_back(hostAllocationMs(devices, outputElements * sizeof(float)));
    if (between) between();
  }
  for (auto* v : {&total, &uploads, &kernels, &downloads, &allocs}) v->erase(v->begin());
  t.totalMs = median(total);
  t.uploadMs = median(uploads);
  t.kernelsMs = median(kernels);
  t.downloadMs = median(downloads);
  t.allocMs = median(allocs);
}

// The plain OpenCL version of a case (skelcl/programs/), timed in rounds as timeRuns times the
// library's, and in turns with it (`round` is timeRuns' `between`); the first round warms up and
// is not counted. A round goes host to host (`upload()`, `run()`, `download()`, which downloads
// into host memory the case keeps over the runs, as the library's host pool keeps its
// containers'), then phase by phase; every result judged by `check`. `report` adds the
// `CASE-plain` line (one device; the library's columns) and the `CASE-ratio` line (the library's
// speed over the plain version's, host to host and kernels only: > 1 is faster; `stored`: the
// store id of the kernel the library's last call took, 0 for its own) to the lines printed
// before the library's.
template <class Element>
class PlainRounds {
 public:
  PlainRounds(std::function<void()> upload, std::function<void()> run,
              std::function<std::vector<Element>&()> download,
              std::function<bool(std::span<const Element>)> check)
      : upload_(std::move(upload)),
        run_(std::move(run)),
        download_(std::move(download)),
        check_(std::move(check)) {}

  void round() {
    auto start = Clock::now();
    upload_();
    run_();
    std::vector<Element>& result = download_();
    const double total = msSince(start);
    checked_ = check_(result) && checked_;
    std::fill(result.begin(), result.end(), Element(1e9));  // no stale result passes the next check
    start = Clock::now();
    upload_();
    const double upload = msSince(start);
    start = Clock::now();
    run_();
    const double kernels = msSince(start);
    start = Clock::now();
    std::vector<Element>& downloaded = download_();
    const double download = msSince(start);
    checked_ = check_(downloaded) && checked_;
    std::fill(downloaded.begin(), downloaded.end(), Element(1e9));
    if (warm_) {
      total_.push_back(total);
      uploads_.push_back(upload);
      kernels_.push_back(kernels);
      downloads_.push_back(download);
    }
    warm_ = true;
  }

  void report(const Options& o, int64_t stored, Timing& t) const {
    const double pt = median(total_), pu = median(uploads_), pk = median(kernels_), pd = median(downloads_);
    t.before.push_back(fmt::format("{}-plain {} 1 {:.3f} {:.3f} {:.3f} {:.3f} {:.1f} {:.1f} {} {} 0.000 -",
                                   o.kase, o.size, pt, pu, pk, pd, t.work / pt / 1e6, t.work / pk / 1e6,
                                   t.unit, checked_ ? "ok" : "WRONG"));
    t.before.push_back(
        fmt::format("{}-ratio {} {} library/plain speed: host to host {:.2f}x, kernels {:.2f}x; {}", o.kase,
                    o.size, o.devices.size(), pt / t.totalMs, pk / t.kernelsMs,
                    stored ? fmt::format("stored kernel {}", stored) : "the skeleton's kernel"));
    t.checked = t.checked && checked_;
  }

 private:
  std::function<void()> upload_, run_;
  std::function<std::vector<Element>&()> download_;
  std::function<bool(std::span<const Element>)> check_;
  std::vector<double> total_, uploads_, kernels_, downloads_;
  bool checked_ = true, warm_ = false;
};

// `checks` entries of c (n x n), c(i, j) the sum over x of f(a(i, x), b(x, j)), against sums on
// the host in double: the matrix product (f = a * b) or the Manhattan distances (|a - b|).
template <class F>
bool allPairsMatches(const std::vector<float>& a, const std::vector<float>& b, std::span<const float> c,
                     size_t n, int checks, F f) {
  std::mt19937 rng(3);
  for (int k = 0; k < checks; ++k) {
    const size_t i = rng() % n, j = rng() % n;
    double expected = 0, scale = 0;
    for (size_t x = 0; x < n; ++x) {
      expected += f(double(a[i * n + x]), double(b[x * n + j]));
      scale += std::fabs(f(double(a[i * n + x]), double(b[x * n + j])));
    }
    if (std::fabs(c[i * n + j] - expected) > 1e-5 * scale + 1e-6) return false;
  }
  return true;
}

// Times an AllPairs program `apply(A, B)` of two n x n matrices (timeRuns): A block-distributed,
// B copied to every device.
template <class Apply, class Check>
void timeAllPairsRuns(const Options& o, const std::shared_ptr<DeviceSet>& devices,
                      const std::vector<float>& a, const std::vector<float>& b, const Apply& apply,
                      Check matches, Timing& t, const std::function<void()>& between = {}) {
  const size_t n = o.size;
  struct Operands {
    Matrix<float> A, B;
  };
  timeRuns(
      o, *devices, n * n,
      [&] {
        Operands in{Matrix<float>(devices, n, n, a), Matrix<float>(devices, n, n, b)};
        in.A.setDistribution(Distribution::block());
        return in;
      },
      [](Operands& in) {
        in.A.prepareOnDevices(Distribution::block());
        in.B.prepareOnDevices(Distribution::copy());
      },
      [&](Operands& in) { return apply(in.A, in.B); }, matches, t, between);
}

// C(i, j) = the sum over x of f(A(i, x), B(x, j)), n x n, with SkelCL's AllPairs (`allPairs`: A
// block-distributed, B copied), in turns with its plain OpenCL version on one device (`plain`:
// a 16 x 16 tile of C per work-group through local memory).
template <class Library, class Plain, class F>
Timing allPairs(const std::shared_ptr<DeviceSet>& devices, const Options& o, const Library& library,
                Plain& plain, F f) {
  const size_t n = o.size;
  const std::vector<float> a = randomFloats(n * n, 1), b = randomFloats(n * n, 2);
  Timing t;
  t.work = 2.0 * double(n) * double(n) * double(n);
  t.unit = "GFLOP/s";
  auto matches = [&](std::span<const float> c) { return allPairsMatches(a, b, c, n, o.check, f); };
  std::vector<float> c;  // the plain version's output on the host, kept over the runs
  PlainRounds<float> plainRounds([&] { plain.upload(a, b, n, n, n); }, [&] { plain.run(); },
                                 [&]() -> std::vector<float>& { return plain.download(c), c; }, matches);
  timeAllPairsRuns(o, devices, a, b, library, matches, t, [&] { plainRounds.round(); });
  plainRounds.report(o, library.allPairs().skeleton().storedKernels().lastUsed(), t);
  return t;
}

// C = A x B, n x n (skelcl/programs/MatrixMultiplication.h); GFLOP/s: 2n^3 flops.
Timing matmul(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const MatrixMultiplication mm;
  OpenclMatrixMultiplication plain;
  return allPairs(devices, o, mm, plain, [](double x, double y) { return x * y; });
}

// The Manhattan distances of n points of n coordinates to n others (skelcl/programs/
// ManhattanDistance.h); "GFLOP/s": 2n^3 operations (a difference and an addition each), as matmul.
Timing manhattan(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const ManhattanDistance distance;
  OpenclManhattanDistance plain;
  return allPairs(devices, o, distance, plain, [](double x, double y) { return std::fabs(x - y); });
}

// The cosine similarities of n rows of n coordinates with n columns (skelcl/programs/
// CosineSimilarity.h), AllPairs with a general row function, A block-distributed, B copied; no plain
// version. GFLOP/s: 6n^3 (three products and three additions per coordinate).
Timing cosine(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const CosineSimilarity similarity;
  const size_t n = o.size;
  const std::vector<float> a = randomFloats(n * n, 1), b = randomFloats(n * n, 2);
  Timing t;
  t.work = 6.0 * double(n) * double(n) * double(n);
  t.unit = "GFLOP/s";
  auto matches = [&](std::span<const float> c) {
    std::mt19937 rng(3);
    for (int k = 0; k < o.check; ++k) {
      const size_t i = rng() % n, j = rng() % n;
      double ab = 0, aa = 0, bb = 0;
      for (size_t x = 0; x < n; ++x) {
        ab += double(a[i * n + x]) * b[x * n + j];
        aa += double(a[i * n + x]) * a[i * n + x];
        bb += double(b[x * n + j]) * b[x * n + j];
      }
      if (std::fabs(c[i * n + j] - ab / std::sqrt(aa * bb)) > 1e-4) return false;
    }
    return true;
  };
  timeAllPairsRuns(o, devices, a, b, similarity, matches, t);
  const int64_t stored = similarity.allPairs().skeleton().storedKernels().lastUsed();
  t.before.push_back(fmt::format("cosine-ratio {} {} no plain version; {}", n, o.devices.size(),
                                 stored ? fmt::format("stored kernel {}", stored) : "the skeleton's kernel"));
  return t;
}

// `checks` entries of y, the exclusive prefix sum of x, against sums on the host in double (in one
// pass over x, the entries in order).
bool prefixSumMatches(const std::vector<float>& x, std::span<const float> y, int checks) {
  std::mt19937 rng(4);
  std::vector<size_t> at(static_cast<size_t>(checks));
  for (size_t& i : at) i = rng() % x.size();
  std::sort(at.begin(), at.end());
  double sum = 0, scale = 0;
  size_t next = 0;
  for (size_t i = 0; i < x.size() && next < at.size(); ++i) {
    for (; next < at.size() && at[next] == i; ++next)
      if (std::fabs(y[i] - sum) > 1e-5 * scale + 1e-6) return false;
    sum += x[i];
    scale += std::fabs(x[i]);
  }
  return true;
}

// y = the exclusive prefix sum of n floats with SkelCL's Scan, x block-distributed. GB/s counts
// the bytes the scan must move, x read once and y written once (8n; the chunked scan reads x
// twice, ScanSkeleton.h).
Timing scan(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const size_t n = o.size;
  Scan<float(float)> prefixSum("float func(float x, float y) { return x + y; }", "0");
  prefixSum.setForm(o.scanForm);
  const std::vector<float> a = randomFloats(n, 1);
  Timing t;
  t.work = 2.0 * sizeof(float) * double(n);
  t.unit = "GB/s";
  auto matches = [&](std::span<const float> y) { return prefixSumMatches(a, y, o.check); };
  OpenclPrefixSum plain;  // skelcl/programs/PrefixSum.h: tiles of work-groups, on one device
  std::vector<float> plainY;
  PlainRounds<float> plainRounds([&] { plain.upload(a); }, [&] { plain.run(); },
                                 [&]() -> std::vector<float>& { return plain.download(plainY), plainY; },
                                 matches);
  timeRuns(
      o, *devices, n,
      [&] {
        Vector<float> x(devices, a);
        x.setDistribution(Distribution::block());
        return x;
      },
      [](Vector<float>& x) { x.prepareOnDevices(Distribution::block()); },
      [&](Vector<float>& x) { return prefixSum(x); }, matches, t, [&] { plainRounds.round(); });
  // Into the output of the first run again and again: no device allocation per run.
  Vector<float> x(devices, a);
  x.setDistribution(Distribution::block());
  x.prepareOnDevices(Distribution::block());
  Vector<float> y = prefixSum(x);
  std::vector<double> into;
  for (int r = 0; r < o.repeat; ++r) {
    auto start = Clock::now();
    prefixSum(x, y);
    into.push_back(msSince(start));
  }
  t.intoMs = median(into);
  t.checked = t.checked && matches(y.hostData());
  // A new output each run from an input that has been on the devices for a while, as
  // torch.cumsum(x) is timed: the kernels column above starts right after the upload, whose last
  // bytes a blocking write of pageable memory may still be moving when it returns.
  std::vector<double> fresh;
  for (int r = 0; r < o.repeat; ++r) {
    auto start = Clock::now();
    Vector<float> z = prefixSum(x);
    fresh.push_back(msSince(start));
    if (r == 0) t.checked = t.checked && matches(z.hostData());
  }
  t.before.push_back(
      fmt::format("scan-resident {} {} a new output each run, the input on the devices: {:.3f} ms; "
                  "into an existing output: {:.3f} ms",
                  n, o.devices.size(), median(fresh), t.intoMs));
  plainRounds.report(o, prefixSum.skeleton().storedKernels().lastUsed(), t);
  return t;
}

// `checks` pixels of the blurred n x n image against the weights applied on the host (0 outside).
bool blurMatches(const std::vector<float>& image, std::span<const float> out, size_t n, int checks) {
  static const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
  std::mt19937 rng(5);
  for (int k = 0; k < checks; ++k) {
    const auto r = static_cast<long>(rng() % n), c = static_cast<long>(rng() % n);
    double expected = 0;
    for (long dy = -1; dy <= 1; ++dy)
      for (long dx = -1; dx <= 1; ++dx) {
        const long y = r + dy, x = c + dx;
        if (y >= 0 && x >= 0 && y < long(n) && x < long(n)) expected += w[dy + 1][dx + 1] * image[y * n + x];
      }
    if (std::fabs(out[r * n + c] - expected / 16) > 1e-5) return false;
  }
  return true;
}

// The Gaussian blur of an n x n image, overlap-distributed with one halo row, in turns with the
// plain OpenCL version on one device.
Timing blur(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const size_t n = o.size;
  const GaussianBlur gauss;
  const std::vector<float> image = randomFloats(n * n, 4);
  auto matches = [&](std::span<const float> out) { return blurMatches(image, out, n, o.check); };
  Timing t;
  t.work = 2.0 * double(n) * double(n) * sizeof(float);
  t.unit = "GB/s";
  OpenclGaussianBlur plain;
  std::vector<float> out;
  PlainRounds<float> plainRounds([&] { plain.upload(image, n, n); }, [&] { plain.run(); },
                                 [&]() -> std::vector<float>& { return plain.download(out), out; }, matches);
  timeRuns(
      o, *devices, n * n, [&] { return Matrix<float>(devices, n, n, image); },
      [](Matrix<float>& in) { in.prepareOnDevices(Distribution::overlap(1)); },
      [&](Matrix<float>& in) { return gauss(in); }, matches, t, [&] { plainRounds.round(); });
  plainRounds.report(o, gauss.stencil().skeleton().storedKernels(2).lastUsed(), t);
  return t;
}

// `checks` pixels of the n x n Mandelbrot image against the host's iteration counts; a few (one
// in 16) may differ, on the set's boundary, where the count depends on the last bits (OpenCL may
// contract x * x + y * y into an fma; the plain version scales in float).
bool mandelbrotMatches(std::span<const int32_t> image, size_t n, int checks) {
  const float scale = static_cast<float>(3.0 / double(n));
  std::mt19937 rng(6);
  int differing = 0;
  for (int k = 0; k < checks; ++k) {
    const size_t r = rng() % n, c = rng() % n;
    float cr = -2.0f + float(c) * scale, ci = -1.5f + float(r) * scale, x = 0.0f, y = 0.0f;
    int i = 0;
    for (; i < kMandelbrotIterations && x * x + y * y <= 4.0f; ++i) {
      const float t = x * x - y * y + cr;
      y = 2.0f * x * y + ci;
      x = t;
    }
    differing += image[r * n + c] != i;
  }
  return differing <= checks / 16;
}

// The Mandelbrot set of an n x n image (skelcl/programs/Mandelbrot.h): the library's map over an
// index matrix, block-distributed, in turns with the plain OpenCL version on one device. Nothing is
// uploaded (the index matrix's row and column numbers are the skeleton's); "Gpixel/s".
Timing mandelbrot(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const size_t n = o.size;
  const Mandelbrot mandelbrot(n, n);
  Timing t;
  t.work = double(n) * double(n);
  t.unit = "Gpixel/s";
  auto matches = [&](std::span<const int32_t> image) { return mandelbrotMatches(image, n, o.check); };
  OpenCLMandelbrot plain;
  std::vector<int32_t> image;
  PlainRounds<int32_t> plainRounds([] {}, [&] { plain.run(n, n); },
                                   [&]() -> std::vector<int32_t>& { return plain.download(image), image; },
                                   matches);
  timeRuns(
      o, *devices, n * n, [&] { return IndexMatrix(devices, n, n); }, [](IndexMatrix&) {},
      [&](IndexMatrix& index) { return mandelbrot.map()(index); }, matches, t, [&] { plainRounds.round(); });
  plainRounds.report(o, mandelbrot.map().skeleton().storedKernels().lastUsed(), t);
  return t;
}

// The dot product of two vectors of n floats: the library's ZipReduce (one fused kernel per
// device, block-distributed) and the plain OpenCL version (skelcl/programs/DotProduct.h:
// work-groups striding over the vectors, on the first device of the first platform), each host to host (the
// vectors' host data uploaded, the result on the host) and kernels only (the inputs already on the device,
// the result on the host). The plain version's line (`dot-plain`, one device) and the ratios of the library's
// speed to it (`dot-ratio`: > 1 is faster) come before the library's.
Timing dot(const std::shared_ptr<DeviceSet>& devices, const Options& o) {
  const size_t n = o.size;
  Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
  Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
  ZipReduce<float(float, float)> dotProduct(sum, mult);
  const std::vector<float> a = randomFloats(n, 1), b = randomFloats(n, 2);
  double expected = 0, scale = 0;
  for (size_t i = 0; i < n; ++i) expected += double(a[i]) * b[i], scale += std::fabs(double(a[i]) * b[i]);
  auto matches = [&](float v) { return std::fabs(v - expected) <= 1e-5 * scale + 1e-6; };
  OpenclDotProduct plain;
  std::vector<double> total, uploads, kernels, plainTotal, plainUploads, plainKernels;
  bool plainChecked = true;
  Timing t;
  t.work = 2.0 * sizeof(float) * double(n);
  t.unit = "GB/s";
  auto vectors = [&] {
    std::pair<Vector<float>, Vector<float>> xy{Vector<float>(devices, a), Vector<float>(devices, b)};
    xy.first.setDistribution(Distribution::block());
    xy.second.setDistribution(Distribution::block());
    return xy;
  };
  for (int r = 0; r < o.repeat + 1; ++r) {
    {
      auto [x, y] = vectors();
      auto start = Clock::now();
      const float v = dotProduct(x, y);
      total.push_back(msSince(start));
      if (r == 0) t.checked = matches(v);
    }
    auto [x, y] = vectors();
    auto start = Clock::now();
    x.prepareOnDevices(Distribution::block());
    y.prepareOnDevices(Distribution::block());
    uploads.push_back(msSince(start));
    start = Clock::now();
    dotProduct(x, y);
    kernels.push_back(msSince(start));
    start = Clock::now();
    const float v = plain(a, b);
    plainTotal.push_back(msSince(start));
    if (r == 0) plainChecked = matches(v);
    start = Clock::now();
    plain.upload(a, b);
    plainUploads.push_back(msSince(start));
    start = Clock::now();
    plain.run();
    plainKernels.push_back(msSince(start));
  }
  for (auto* v : {&total, &uploads, &kernels, &plainTotal, &plainUploads, &plainKernels})
    v->erase(v->begin());
  t.totalMs = median(total);
  t.uploadMs = median(uploads);
  t.kernelsMs = median(kernels);
  const double pt = median(plainTotal), pu = median(plainUploads), pk = median(plainKernels);
  t.before.push_back(fmt::format("dot-plain {} 1 {:.3f} {:.3f} {:.3f} 0.000 {:.1f} {:.1f} GB/s {} 0.000 -", n,
                                 pt, pu, pk, t.work / pt / 1e6, t.work / pk / 1e6,
                                 plainChecked ? "ok" : "WRONG"));
  const int64_t stored = dotProduct.skeleton().storedKernels().lastUsed();
  t.before.push_back(
      fmt::format("dot-ratio {} {} library/plain speed: host to host {:.2f}x, kernels {:.2f}x; {}", n,
                  o.devices.size(), pt / t.totalMs, pk / t.kernelsMs,
                  stored ? fmt::format("stored kernel {}", stored) : "the skeleton's kernel"));
  t.checked = t.checked && plainChecked;
  return t;
}

const std::map<std::string, std::function<Timing(const std::shared_ptr<DeviceSet>&, const Options&)>>&
cases() {
  static const std::map<std::string, std::function<Timing(const std::shared_ptr<DeviceSet>&, const Options&)>>
      c{
          {"blur", blur},           {"cosine", cosine}, {"dot", dot},   {"mandelbrot", mandelbrot},
          {"manhattan", manhattan}, {"matmul", matmul}, {"scan", scan},
      };
  return c;
}

// The command line on CLI11 with liftc's parsers (positive integers, devices). A usage error
// exits with status 2.
Options parse(int argc, char** argv) {
  Options o;
  std::vector<std::string> names;
  for (const auto& [name, f] : cases()) names.push_back(name);
  CLI::App app("bench_skelcl: SkelCL's programs timed on OpenCL devices, transfers included", "bench_skelcl");
  app.add_option("CASE", o.kase, "the program: " + fmt::format("{}", fmt::join(names, ", ")))
      ->required()
      ->check(CLI::IsMember(names));
  app.add_option(
      "--store", o.store,
      "a result store: the skeletons take the best kernel it holds for their program, size and device");
  app.add_flag(
      "--lift-program", o.liftProgram,
      "print the case's high-level program, the one to search (liftc explore) for --store, and exit");
  app.add_option("--size", o.size, "n: the vector's length or the matrices' side")
      ->check(lift::liftc::integerIn(1));
  lift::liftc::addDeviceOption(app, o.devices)
      ->delimiter(',')
      ->description(
          "the OpenCL devices, repeated or separated by commas (0,1): an index or a part of a name or "
          "type as `liftc devices` lists them; one may be named twice (default 0)");
  app.add_option("--repeat", o.repeat, "timed runs after the first, which builds the kernels")
      ->check(lift::liftc::integerIn(1));
  app.add_option("--check", o.check, "entries of the result compared with the host's")
      ->check(lift::liftc::integerIn(1));
  app.add_option_function<std::string>(
         "--host-memory", [&o](const std::string& text) { o.hostMemory = *hostMemoryNamed(text); },
         "the containers' host copies: pageable (default) or page-locked")
      ->check(CLI::IsMember({describe(HostMemory::Pageable), describe(HostMemory::PageLocked)}));
  app.add_option_function<std::string>(
         "--host-pool", [&o](const std::string& text) { o.hostPool = text == "on"; },
         "on (default): the containers' host copies that the runs let go of are kept for the next "
         "runs' (HostStoragePool); off: each container allocates its own")
      ->check(CLI::IsMember({"on", "off"}));
  const std::map<std::string, ScanForm> forms{{"auto", ScanForm::Auto},
                                              {"chunks", ScanForm::Chunks},
                                              {"work-groups", ScanForm::WorkGroups},
                                              {"work-groups-multi-pass", ScanForm::WorkGroupsMultiPass}};
  app.add_option("--scan-form", o.scanForm,
                 "scan: in chunks (a work-item each), in work-groups (a tile each, scanned in local memory; "
                 "in one pass with decoupled look-back where the device can), in work-groups in several "
                 "passes, or auto (work-groups on GPUs)")
      ->transform(CLI::CheckedTransformer(forms));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    std::exit(status == 0 ? 0 : 2);
  }
  return o;
}

}  // namespace

// The high-level program whose stored kernels the case's skeleton takes (mandelbrot: for an image
// of size x size, whose scale its user function holds).
std::string liftProgram(const std::string& kase, size_t size) {
  Zip<float(float, float)> mult("float func(float x, float y) { return x * y; }");
  Reduce<float(float)> sum("float func(float x, float y) { return x + y; }", "0");
  if (kase == "dot") return ZipReduce<float(float, float)>(sum, mult).skeleton().storedKernels().liftText();
  if (kase == "matmul") return MatrixMultiplication().allPairs().skeleton().storedKernels().liftText();
  if (kase == "cosine") return CosineSimilarity().allPairs().skeleton().storedKernels().liftText();
  if (kase == "manhattan") return ManhattanDistance().allPairs().skeleton().storedKernels().liftText();
  if (kase == "blur") return GaussianBlur().stencil().skeleton().storedKernels(2).liftText();
  if (kase == "mandelbrot") return Mandelbrot(size, size).map().skeleton().storedKernels().liftText();
  if (kase == "scan")
    return Scan<float(float)>("float func(float x, float y) { return x + y; }", "0")
        .skeleton()
        .storedKernels()
        .liftText();
  throw lift::LiftError(fmt::format("--lift-program: no case {}", kase));
}

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    if (o.liftProgram) {
      std::printf("%s", liftProgram(o.kase, o.size).c_str());
      return 0;
    }
    auto devices = DeviceSet::open(o.devices);
    devices->setHostMemory(o.hostMemory);
    devices->setHostPooling(o.hostPool);
    if (!o.store.empty())
      devices->setResultStore(std::make_shared<lift::explore::ResultStore>(
          o.store, lift::explore::ResultStore::Access::ReadOnly));
    const Timing t = cases().at(o.kase)(devices, o);
    for (const std::string& line : t.before) std::printf("%s\n", line.c_str());
    const double scale = 1e6;  // flops or bytes per ms -> G per s
    const std::string into = t.intoMs > 0 ? fmt::format("{:.3f}", t.intoMs) : "-";
    std::printf("%s %zu %zu %.3f %.3f %.3f %.3f %.1f %.1f %s %s %.3f %s %s %s\n", o.kase.c_str(), o.size,
                o.devices.size(), t.totalMs, t.uploadMs, t.kernelsMs, t.downloadMs,
                t.work / t.totalMs / scale, t.work / t.kernelsMs / scale, t.unit.c_str(),
                t.checked ? "ok" : "WRONG", t.allocMs, describe(o.hostMemory).c_str(), into.c_str(),
                o.hostPool ? "on" : "off");
    return t.checked ? 0 : 1;
  } catch (const lift::LiftError& e) {
    std::fprintf(stderr, "%s\n", e.what());  // "error: ..."
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_skelcl: %s\n", e.what());
    return 2;
  }
}
