// ScanSkeleton: the untyped implementation of Scan — the exclusive prefix scan of a vector with an
// associative user function and its identity (element i combines the identity with the elements
// before i). Each device scans its own part in the work-efficient way of rule
// scan-split-chunks, in one of three forms (ScanForm). In chunks and in the multi-pass
// work-group form the first program sums each chunk or tile; each chunk's offset is the fold of
// everything before it, on earlier devices too; the second program scans each chunk from its
// offset. The single pass does both in one kernel.
//   - Chunks: G chunks of C elements, one work-item each: `join o mapGlb0(toGlobal(mapSeq(id))
//     o reduceSeq(f, z)) o split(C)` sums them, the host scans the totals of every device's
//     chunks in order, `join o mapGlb0(fun(p => scanSeq(f, get(0, p))
//     $ get(1, p))) $ zip(offsets, split(C) $ x)` scans them.
//   - WorkGroups, in one pass where the device can (SinglePassScan.h: decoupled look-back, the
//     input read once; the kernel's text written around the user function, not generated from
//     a .lift program): each work-group takes the next tile of 4096 elements, scans it in local
//     memory, and finds its offset from its predecessors' published totals and prefixes. Over
//     several parts (block distribution) each part's total comes first from the multi-pass
//     form's totals kernels below, the host folds them into each part's carry, and the single
//     pass starts from it.
//   - WorkGroupsMultiPass (the fallback: devices before OpenCL C 1.1, or on request): G tiles
//     of kTile elements, one work-group of kWorkGroup work-items a tile,
//     each work-item kVectorsPerItem vectors of kVectorWidth consecutive elements, read with
//     vector loads into private memory (neighbouring work-items read neighbouring vectors:
//     coalesced), then summed in registers. The totals: the work-group halves the work-items'
//     sums in local memory. The scan: the work-group scans those sums in local memory (Hillis
//     and Steele's scan written in Lift's patterns: the sums shifted right behind the identity,
//     then log2(kWorkGroup) rounds in which element i becomes f(r[i - d], r[i]) for d = 1, 2,
//     4, ..., r[i - d] read through pad(d, 0, identity) where i < d), and each work-item scans
//     its registers (scanSeq) from the tile's offset combined with its sum's scan and stores
//     them as vectors. The tiles' offsets never leave the device: their totals are scanned in
//     the same way, level after level (tiles of the totals), until at most kTile are left; one
//     work-group scans those (padded with the identity to kWorkGroup*E, E consecutive totals a
//     work-item, the same local-memory scan) from the part's carry, the fold of the parts
//     before it, which the host makes from each part's total (that work-group's reduction of
//     the last totals) when there are several parts. No host round trip on one device: for
//     2^26 elements five kernels (two levels of totals, the last level's scan, two levels of
//     scans), the input read twice.
// The single pass's tile counter and tile words and the multi-pass form's totals are the
// skeleton's scratch buffers, leased from the device set's DeviceBufferPool and kept from one run
// to the next (the counter and words zeroed by a fill each run).
// A part that is not G chunks long is padded with the identity on the device (not in one pass:
// its kernel reads the identity past the end). The output has the input's distribution (single,
// copy or block; in chunks a copy is scanned on every device from the first device's totals).
// When the container is one part (one device, or a copy on every device) and the device set has
// a result store holding kernels of the skeleton's high-level program
//   scan(f, identity) $ x        (x: [T]N)
// (`liftc explore` on storedKernels().liftText()) for N on each part's device, the best of them
// scans each part instead (StoredKernel.h). The parts of a block distribution over several
// devices take none: each starts from the fold of the parts before it, which a stored scan of
// the high-level program does not take.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "skelcl/ContainerStorage.h"
#include "skelcl/ScalarOperator.h"
#include "skelcl/SinglePassScan.h"
#include "skelcl/SkeletonKernel.h"
#include "skelcl/StoredKernel.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

// How a device scans its part: in chunks, one work-item each (a loop streaming its chunk: the
// CPU device's best), or in tiles, one work-group each (scanned in local memory: many
// work-items for a GPU), in one pass with decoupled look-back where the device can
// (WorkGroups; the multi-pass form elsewhere) or in several (WorkGroupsMultiPass). Auto:
// WorkGroups on GPUs (validated on an H100), chunks on other devices.
enum class ScanForm { Auto, Chunks, WorkGroups, WorkGroupsMultiPass };

class ScanSkeleton {
 public:
  // `type`: the element type's OpenCL name; `identity`: its value as C text ("0", "1.5f").
  ScanSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
               const std::string& identity);

  // Scans `in` into `out` (as many elements, the same device set). Uses the input's
  // distribution, block when it has none; throws LiftError for an overlap distribution, sizes
  // or device sets that differ.
  void run(const ContainerStorage& in, ContainerStorage& out) const;

  ScanForm form() const { return form_; }
  void setForm(ScanForm f) { form_ = f; }
  // The form used on `device` (Auto resolved; WorkGroups only where the single pass runs).
  ScanForm formOn(const runtime::DeviceInfo& device) const;

  // The kernel that scans the chunks (or tiles) from their offsets, and the one that sums them
  // (WorkGroups: the multi-pass form's).
  const SkeletonKernel& kernel(ScanForm f = ScanForm::Chunks) const { return *programs(f).scan; }
  const SkeletonKernel& totalsKernel(ScanForm f = ScanForm::Chunks) const { return *programs(f).totals; }
  const UserFunction& userFunction() const { return function_; }
  // The high-level program and the kernels taken from the device set's result store.
  const StoredKernels& storedKernels() const { return *stored_; }
  // At most this many chunks on each device (tiles: as many as the part needs).
  static constexpr size_t kMaxChunks = 1024;
  // Work-items of a tile's work-group (a power of two: the totals halve it kWorkGroupLog2 times).
  static constexpr size_t kWorkGroup = 256;
  static constexpr int kWorkGroupLog2 = 8;
  static_assert(kWorkGroup == size_t(1) << kWorkGroupLog2);
  // A work-item's share of a tile in work-groups: kVectorsPerItem vectors of kVectorWidth.
  static constexpr size_t kVectorWidth = 4;
  // One vector a work-item: neighbouring work-items read and write neighbouring vectors
  // (coalesced). Four vectors of consecutive elements a work-item ran the scan 3.5x slower on an
  // H100 (docs/PERFORMANCE.md, the scan's section).
  static constexpr size_t kVectorsPerItem = 1;
  static constexpr size_t kTile = kWorkGroup * kVectorWidth * kVectorsPerItem;

 private:
  struct Programs {
    std::unique_ptr<SkeletonKernel> totals, scan;
    // Work-groups only: the total of the tiles' totals (a part's, for the carries) and their
    // scan from the carry (the tiles' offsets), by one work-group.
    std::unique_ptr<SkeletonKernel> totalsTotal, totalsScan;
  };
  const Programs& programs(ScanForm f) const { return f == ScanForm::Chunks ? chunks_ : workGroups_; }
  // `f` on `device`: WorkGroups becomes WorkGroupsMultiPass where the single pass cannot run.
  static ScanForm resolved(ScanForm f, const runtime::DeviceInfo& device, runtime::ScalarType type);

  // A device temporary of the scan's own on `device` (the totals of the tiles, their offsets, a
  // part's carry), leased from the device set's pool and kept from one run to the next by its
  // context, part and role: the next run of a size that fits reuses it (the device's queue is in
  // order); a larger size leases a new one and gives the old one back to the pool. The input's
  // and the output's padded copies are not kept.
  cl::Buffer scratch(DeviceSet& devices, int device, size_t part, const std::string& role,
                     size_t bytes) const;
  // Scans every part of `in` into `out` with the best stored kernel for its size and device,
  // when each has one and none `carries` (starts from the parts before it); false: nothing run.
  bool runStored(const ContainerStorage& in, ContainerStorage& out, bool carries) const;

  std::string what_;
  runtime::ScalarType type_;
  ScalarOperator operator_;
  UserFunction function_;
  Programs chunks_, workGroups_;
  std::unique_ptr<StoredKernels> stored_;
  std::unique_ptr<SinglePassScanKernel> singlePass_;
  ScanForm form_ = ScanForm::Auto;
  mutable std::map<std::tuple<cl_context, size_t, std::string>, DeviceBufferPool::Lease> scratch_;
};

// The .lift programs (exposed for tests and documentation; `identity` as a .lift literal): in
// chunks, the one that scans the chunks from their offsets (the totals are Reduce's program);
// in work-groups, the ones that sum the tiles of kTile elements and that scan them from their
// offsets (vector loads and stores), and the ones that sum G tiles of kWorkGroup*E elements
// and scan them from their offsets, E consecutive scalars a work-item (the tiles' totals).
std::string chunkScanProgram(const UserFunction& f);
std::string vectorTileTotalsProgram(const UserFunction& f, const std::string& identity);
std::string vectorTileScanProgram(const UserFunction& f, const std::string& identity);
std::string tileTotalsProgram(const UserFunction& f, const std::string& identity);
std::string tileScanProgram(const UserFunction& f, const std::string& identity);
// The work-group's exclusive scan of its kWorkGroup sums in local memory (Hillis and Steele),
// as a function in .lift text (the rounds composed after the shift).
std::string workGroupScanText(const UserFunction& f, const std::string& identity);
// The high-level program whose stored kernels the skeleton takes.
std::string scanSearchProgram(const UserFunction& f, const std::string& identity);

}  // namespace lift::skelcl
