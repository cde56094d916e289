// The single-pass scan kernel's text around the user function, and its launch (SinglePassScan.h).
#include "skelcl/SinglePassScan.h"

#include <fmt/format.h>

#include <cstdio>
#include <limits>

#include "core/cfun/CFunPrinter.h"
#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {

// The kernel, after the definitions of SKELCL_T (the element type), SKELCL_T4 (its vector of 4),
// SKELCL_ID (the identity), SKELCL_WG, SKELCL_V, SKELCL_WINDOW (the sizes of SinglePassScan.h)
// and of the user function skelcl_op.
constexpr const char* kKernel = R"CL(
// A tile's word: its status in the high 32 bits (nothing yet, its aggregate, its inclusive
// prefix), the value's bits in the low 32, written and read by one 64-bit atomic each, so that a
// reader that sees a status sees its value (no ordering between two words across work-groups
// is needed: mem_fence orders only within a work-group on some devices).
#ifndef cl_khr_int64_base_atomics
#error "the single-pass scan needs cl_khr_int64_base_atomics (64-bit atomics on global memory)"
#endif
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define SKELCL_NONE 0UL
#define SKELCL_AGGREGATE 1UL
#define SKELCL_PREFIX 2UL
#define SKELCL_PUBLISH(word, status, value) atom_xchg(word, ((status) << 32) | (ulong)as_uint(value))

kernel __attribute__((reqd_work_group_size(SKELCL_WG, 1, 1)))
void skelcl_single_pass_scan(global const SKELCL_T* in, global SKELCL_T* out, SKELCL_T carry,
                             global volatile int* counter, global volatile ulong* words, int n) {
  local SKELCL_T rows[2][SKELCL_V][SKELCL_WG];
  local int tileId, found;
  local ulong windowStatus[SKELCL_WINDOW];
  local SKELCL_T windowValues[SKELCL_WINDOW];
  local SKELCL_T exclusive;
  const int lid = get_local_id(0);

  // 1. The tile id: tiles are taken in the order their work-groups start.
  if (lid == 0) tileId = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int tile = tileId;
  const long start = (long)tile * (SKELCL_WG * 4 * SKELCL_V);

  // 2. Vector k of this work-item is vector k * SKELCL_WG + lid of the tile; its fold goes to
  // row k, and the rows are scanned in local memory.
  SKELCL_T4 v[SKELCL_V];
  for (int k = 0; k < SKELCL_V; ++k) {
    const long e = start + 4 * (long)(k * SKELCL_WG + lid);
    if (e + 3 < n) {
      v[k] = vload4(0, in + e);
    } else {
      v[k].x = e < n ? in[e] : SKELCL_ID;
      v[k].y = e + 1 < n ? in[e + 1] : SKELCL_ID;
      v[k].z = e + 2 < n ? in[e + 2] : SKELCL_ID;
      v[k].w = SKELCL_ID;
    }
    rows[0][k][lid] = skelcl_op(skelcl_op(skelcl_op(v[k].x, v[k].y), v[k].z), v[k].w);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int from = 0;
  for (int d = 1; d < SKELCL_WG; d *= 2) {
    for (int k = 0; k < SKELCL_V; ++k)
      rows[1 - from][k][lid] = lid >= d ? skelcl_op(rows[from][k][lid - d], rows[from][k][lid]) : rows[from][k][lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    from = 1 - from;
  }

  // 3. The tile's aggregate, or tile 0's inclusive prefix, published.
  SKELCL_T aggregate = SKELCL_ID, acc = SKELCL_ID;
  if (lid == 0) {
    aggregate = rows[from][0][SKELCL_WG - 1];
    for (int k = 1; k < SKELCL_V; ++k) aggregate = skelcl_op(aggregate, rows[from][k][SKELCL_WG - 1]);
    if (tile == 0) {
      exclusive = carry;
      SKELCL_PUBLISH(&words[0], SKELCL_PREFIX, skelcl_op(exclusive, aggregate));
    } else {
      SKELCL_PUBLISH(&words[tile], SKELCL_AGGREGATE, aggregate);
    }
    found = tile == 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // 4. The look-back, SKELCL_WINDOW predecessors a step, nearest first; `acc` (work-item 0's)
  // is the fold of the aggregates passed so far. Tile 0 publishes its prefix without waiting,
  // so every look-back ends.
  for (int base = tile - 1; !found; base -= SKELCL_WINDOW) {
    if (lid < SKELCL_WINDOW) {
      const int p = base - lid;
      ulong w = 0;
      if (p >= 0) {
        while (((w = atom_or(&words[p], 0UL)) >> 32) == SKELCL_NONE) {
        }
      }
      windowStatus[lid] = w >> 32;
      windowValues[lid] = p >= 0 ? SKELCL_AS_T((uint)w) : SKELCL_ID;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      for (int w = 0; w < SKELCL_WINDOW && !found; ++w) {
        acc = skelcl_op(windowValues[w], acc);
        found = windowStatus[w] == SKELCL_PREFIX;
      }
      if (found) {
        exclusive = acc;
        SKELCL_PUBLISH(&words[tile], SKELCL_PREFIX, skelcl_op(acc, aggregate));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // 5. Each element's exclusive prefix: the tile's, the rows' before, the row's before this
  // work-item's vector, the vector's elements before.
  SKELCL_T rowsBefore = exclusive;
  for (int k = 0; k < SKELCL_V; ++k) {
    const long e = start + 4 * (long)(k * SKELCL_WG + lid);
    SKELCL_T4 r;
    r.x = lid > 0 ? skelcl_op(rowsBefore, rows[from][k][lid - 1]) : rowsBefore;
    r.y = skelcl_op(r.x, v[k].x);
    r.z = skelcl_op(r.y, v[k].y);
    r.w = skelcl_op(r.z, v[k].z);
    if (e + 3 < n) {
      vstore4(r, 0, out + e);
    } else {
      if (e < n) out[e] = r.x;
      if (e + 1 < n) out[e + 1] = r.y;
      if (e + 2 < n) out[e + 2] = r.z;
    }
    rowsBefore = skelcl_op(rowsBefore, rows[from][k][SKELCL_WG - 1]);
  }
}
)CL";

}  // namespace

SinglePassScanKernel::SinglePassScanKernel(const ir::UserFunDef& f, runtime::ScalarType type,
                                           const std::string& identity, const std::string& what)
    : what_(what) {
  LIFT_ASSERT(f.body, what + ": the single-pass scan needs the user function's parsed body");
  const std::string t = runtime::toString(type);
  source_ = fmt::format(
      "// {} in one pass with decoupled look-back (skelcl/SinglePassScan.h).\n{}"
      "#define SKELCL_T {}\n#define SKELCL_T4 {}4\n#define SKELCL_AS_T as_{}\n#define SKELCL_ID (({}){})\n"
      "#define SKELCL_WG {}\n#define SKELCL_V {}\n#define SKELCL_WINDOW {}\n\n{}\n{}",
      what, type == runtime::ScalarType::Double ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", t,
      t, t, t, identity, kWorkGroup, kVectorsPerItem, kWindow, cfun::printFunction("skelcl_op", *f.body),
      kKernel);
}

bool SinglePassScanKernel::supports(const runtime::DeviceInfo& device, runtime::ScalarType type) {
  // A value and its status share one 64-bit word. "OpenCL C 1.2 ...": atomic_inc on global ints
  // is core from 1.1 (the 64-bit atomics are an extension: the kernel's build says so if missing).
  if (runtime::sizeOf(type) != 4) return false;
  int major = 0, minor = 0;
  if (std::sscanf(device.openclCVersion.c_str(), "OpenCL C %d.%d", &major, &minor) != 2) return false;
  return major > 1 || (major == 1 && minor >= 1);
}

void SinglePassScanKernel::enqueue(DeviceSet& devices, int device, const Buffers& b, const void* carry,
                                   size_t carryBytes, size_t n) {
  if (n > size_t(std::numeric_limits<int32_t>::max()))
    throw LiftError(fmt::format("{}: {} elements on one device; the kernels take at most 2^31-1", what_, n));
  runtime::DeviceContext& ctx = devices.context(device);
  auto it = kernels_.find(ctx.context()());
  if (it == kernels_.end()) {
    runtime::BuiltProgram built = devices.cache().build(ctx, source_, "", "skelcl_single_pass_scan.cl");
    cl::Kernel kernel;
    devices.guarded(device, "creating the kernel skelcl_single_pass_scan",
                    [&] { kernel = cl::Kernel(built.program, "skelcl_single_pass_scan"); });
    it = kernels_.emplace(ctx.context()(), kernel).first;
  }
  cl::Kernel& kernel = it->second;
  devices.guarded(device, "launching skelcl_single_pass_scan", [&] {
    kernel.setArg(0, b.in);
    kernel.setArg(1, b.out);
    kernel.setArg(2, carryBytes, carry);
    kernel.setArg(3, b.counter);
    kernel.setArg(4, b.words);
    kernel.setArg(5, static_cast<cl_int>(n));
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(tiles(n) * kWorkGroup),
                                     cl::NDRange(kWorkGroup));
  });
}

}  // namespace lift::skelcl
