// SinglePassScan: the scan's single-pass kernel for the work-group form (Merrill and Garland,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016), which reads the input once
// and writes the output once. The kernel's OpenCL C text is written here around the user
// function, which the compiler's C printer (core/cfun) emits from the skeleton's parsed program;
// the patterns of the language have no spin-wait on another work-group's flag, so the kernel is
// not generated from a .lift program. Each work-group:
//   1. takes a tile id from an atomic counter (status[0]), so it only ever waits on tiles whose
//      work-groups started before it — forward progress holds wherever a started work-group
//      keeps running (GPUs, and PoCL's threads, which run a work-group to its end);
//   2. reads its tile of kTile elements, kVectorsPerItem vectors of 4 a work-item, vector k of
//      work-item j at vector k*kWorkGroup + j of the tile (neighbouring work-items read
//      neighbouring vectors: coalesced), each vector's fold in registers; the kVectorsPerItem rows
//      of kWorkGroup folds are scanned in local memory (Hillis and Steele, two buffers in turn: one
//      barrier a round), the rows' totals folded in order give the tile's aggregate;
//   3. publishes the aggregate (status 1), or, tile 0, its inclusive prefix from the carry
//      (status 2): the status and the value's 32 bits in one 64-bit word, written by atom_xchg and
//      read by atom_or(p, 0), so a reader that sees a status sees its value. (A first form stored
//      the value, then mem_fence(CLK_GLOBAL_MEM_FENCE), then the status in another word: on an
//      H100 readers saw the status before the value — NVIDIA's fence orders only within a
//      work-group — and prefixes came out wrong);
//   4. looks back over windows of kWindow predecessors at once (one work-item each, spinning
//      until its tile's status is set), combined right to left by work-item 0 until a tile with
//      its inclusive prefix: that combination is the tile's exclusive prefix; publishes its own
//      inclusive prefix (status 2);
//   5. writes each element's exclusive prefix as vectors, where the input was read.
// It needs the element type's vectors of 4, a 32-bit element type, 32-bit atomics on global ints
// (OpenCL C 1.1) and cl_khr_int64_base_atomics. The operator must be associative (the order of the operands
// is kept: it need not be commutative). Only the last tile is partial (elements past n read as the identity,
// not written).
#pragma once

#include <CL/opencl.hpp>

#include <map>
#include <string>

#include "codegen/runtime/DeviceInfo.h"
#include "codegen/runtime/HostArray.h"
#include "core/ir/IR.h"
#include "skelcl/DeviceSet.h"

namespace lift::skelcl {

class SinglePassScanKernel {
 public:
  static constexpr size_t kWorkGroup = 256;
  static constexpr size_t kVectorsPerItem = 4;
  static constexpr size_t kTile = kWorkGroup * 4 * kVectorsPerItem;
  // Predecessors looked at in one step of the look-back.
  static constexpr size_t kWindow = 32;

  // `f`: the user function as the compiler parsed it; `identity`: its identity as a C literal;
  // `what` names the skeleton in messages.
  SinglePassScanKernel(const ir::UserFunDef& f, runtime::ScalarType type, const std::string& identity,
                       const std::string& what);

  // Whether `device` can run it for elements of `type` (OpenCL C 1.1 or later: atomics on global
  // ints; 32-bit elements, which share a 64-bit word with their status).
  static bool supports(const runtime::DeviceInfo& device, runtime::ScalarType type);
  static size_t tiles(size_t n) { return (n + kTile - 1) / kTile; }
  const std::string& source() const { return source_; }

  // The buffers of one scan of n > 0 elements: `counter` (one int, zero) and `words` (tiles(n)
  // 64-bit words, zero: each tile's status and value).
  struct Buffers {
    cl::Buffer in, out, counter, words;
  };
  // Enqueues the scan on `device` of `devices` from `carry` (one element of `carryBytes`,
  // combined before the first: a kernel argument); returns without waiting. Build failures are
  // BuildErrors, OpenCL failures DeviceErrors, n >= 2^31 a LiftError.
  void enqueue(DeviceSet& devices, int device, const Buffers& buffers, const void* carry, size_t carryBytes,
               size_t n);

 private:
  std::string what_;
  std::string source_;
  std::map<cl_context, cl::Kernel> kernels_;  // by the context of the device
};

}  // namespace lift::skelcl
