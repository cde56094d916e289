// Times blocking downloads (clEnqueueReadBuffer) and uploads (clEnqueueWriteBuffer) of one
// device buffer on the first GPU (else the first device) into and out of host memory made in
// different ways: a std::vector kept over the runs (what the plain OpenCL versions of
// skelcl/programs/ download into), a `new std::byte[]` block whose pages were touched one byte a
// page (what SkelCL's HostStorage gives a container's first host copy) or wholly, blocks aligned
// to 64 bytes, 4 KiB and 2 MiB (the last with and without transparent huge pages asked for by
// madvise), and page-locked memory (a CL_MEM_ALLOC_HOST_PTR buffer mapped once). The ways take
// turns, round after round, so a drift of the machine's speed reaches all of them; each figure is
// the median wall time of ROUNDS copies. For telling why a library's pageable download is slower
// than a plain program's into the same number of bytes (issue 16's Mandelbrot image). Prints the
// kernel's transparent-huge-page setting and, per way, the block's address modulo 4 KiB and how
// much of it is backed by huge pages (AnonHugePages in /proc/self/smaps).
//
// Usage: cl_host_copies [MIB (default 256)] [ROUNDS (default 11)]
// pack-gpu.sh builds it into .gpu-ex/.
#include "ClFirstDevice.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "cl_host_copies: %s failed (%d)\n", what, err);
    std::exit(2);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string firstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line.empty() ? "(not readable)" : line;
}

// The KiB of the mapping that holds `p` backed by transparent huge pages, -1 when unknown.
long hugeKiB(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && line.find(':') > line.find(' ')) {
      inside = begin <= at && at < end;
      continue;
    }
    if (inside && line.rfind("AnonHugePages:", 0) == 0) return std::strtol(line.c_str() + 14, nullptr, 10);
  }
  return -1;
}

struct Way {
  std::string name;
  std::byte* data = nullptr;
  std::function<void()> free;
};

// A zeroed block aligned to `alignment` bytes; `advice` for madvise, 0 for none.
std::byte* aligned(size_t bytes, size_t alignment, int advice) {
  void* p = nullptr;
  if (posix_memalign(&p, alignment, bytes) != 0) return nullptr;
  if (advice != 0) madvise(p, bytes, advice);
  std::memset(p, 0, bytes);
  return static_cast<std::byte*>(p);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 11;
  const size_t bytes = mib << 20;
  cl_device_id dev = firstDeviceOrExit("cl_host_copies");
  const std::string name = deviceName(dev);
  std::printf("device: %s; %zu MiB each way, median of %d rounds (ways in turn)\n", name.c_str(), mib,
              rounds);
  std::printf("transparent_hugepage/enabled: %s\n",
              firstLine("/sys/kernel/mm/transparent_hugepage/enabled").c_str());
  std::printf("transparent_hugepage/defrag: %s\n",
              firstLine("/sys/kernel/mm/transparent_hugepage/defrag").c_str());
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  check(err, "clCreateCommandQueue");
  cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  const cl_uint pattern = 7;
  check(clEnqueueFillBuffer(q, buffer, &pattern, sizeof pattern, 0, bytes, 0, nullptr, nullptr), "fill");
  check(clFinish(q), "clFinish");

  std::vector<Way> ways;
  auto vec = std::make_shared<std::vector<int32_t>>(bytes / sizeof(int32_t));
  ways.push_back({"std::vector (zeroed), kept", reinterpret_cast<std::byte*>(vec->data()), [vec] {}});
  {
    auto* p = new std::byte[bytes];
    for (size_t at = 0; at < bytes; at += 4096) p[at] = std::byte{0};
    ways.push_back({"new[], one byte a page touched", p, [p] { delete[] p; }});
  }
  {
    auto* p = new std::byte[bytes];
    std::memset(p, 0, bytes);
    ways.push_back({"new[], memset", p, [p] { delete[] p; }});
  }
  const struct {
    const char* name;
    size_t alignment;
    int advice;
  } alignedWays[] = {{"64 B aligned", 64, 0},
                     {"4 KiB aligned", 4096, 0},
                     {"2 MiB aligned", size_t{2} << 20, 0},
                     {"2 MiB aligned, MADV_HUGEPAGE", size_t{2} << 20, MADV_HUGEPAGE},
                     {"2 MiB aligned, MADV_NOHUGEPAGE", size_t{2} << 20, MADV_NOHUGEPAGE}};
  for (const auto& a : alignedWays)
    if (std::byte* p = aligned(bytes, a.alignment, a.advice)) ways.push_back({a.name, p, [p] { free(p); }});
  cl_mem pinned = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  check(err, "clCreateBuffer (page-locked)");
  auto* mapped = static_cast<std::byte*>(clEnqueueMapBuffer(q, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                            bytes, 0, nullptr, nullptr, &err));
  check(err, "clEnqueueMapBuffer");
  ways.push_back({"page-locked (ALLOC_HOST_PTR, mapped)", mapped, [] {}});

  std::vector<std::vector<double>> down(ways.size()), up(ways.size());
  for (int r = 0; r < rounds + 1; ++r)
    for (size_t w = 0; w < ways.size(); ++w) {
      auto start = std::chrono::steady_clock::now();
      check(clEnqueueReadBuffer(q, buffer, CL_TRUE, 0, bytes, ways[w].data, 0, nullptr, nullptr), "read");
      const double d =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      start = std::chrono::steady_clock::now();
      check(clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, bytes, ways[w].data, 0, nullptr, nullptr), "write");
      const double u =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (r == 0) continue;  // the first round warms the driver's staging
      down[w].push_back(d);
      up[w].push_back(u);
    }
  std::printf(
      "| host memory | address mod 4 KiB | download ms | GB/s | upload ms | GB/s | huge pages |\n"
      "|---|---|---|---|---|---|---|\n");
  for (size_t w = 0; w < ways.size(); ++w) {
    const double d = median(down[w]), u = median(up[w]);
    const long huge = hugeKiB(ways[w].data);
    std::printf("| %s | %zu | %.2f | %.1f | %.2f | %.1f | %s |\n", ways[w].name.c_str(),
                size_t(reinterpret_cast<uintptr_t>(ways[w].data) % 4096), d, double(bytes) / d / 1e6, u,
                double(bytes) / u / 1e6, huge < 0 ? "?" : (std::to_string(huge >> 10) + " MiB").c_str());
  }
  clEnqueueUnmapMemObject(q, pinned, mapped, 0, nullptr, nullptr);
  clFinish(q);
  for (Way& w : ways) w.free();
  clReleaseMemObject(pinned);
  clReleaseMemObject(buffer);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
