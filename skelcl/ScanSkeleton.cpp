// Scan: per device, the tiles' totals, then (after the host scanned every device's totals in
// order) each tile scanned from its offset by a work-group; or each part in one pass.
#include "skelcl/ScanSkeleton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "skelcl/ReduceSkeleton.h"

namespace lift::skelcl {

std::string tileTotalsProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G, E;\n{0}\nfun skelcl_scan_totals(x: [{1}]G*{3}*E) =\n"
      "  join o mapWrg0(\n"
      "    join o toGlobal(mapLcl0(mapSeq(id))) o split(1) o\n"
      "    iterate{4}(join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {5})) o split(2)) o\n"
      "    join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {5})) o split(E)\n"
      "  ) o split({3}*E) $ x\n",
      f.liftText(), f.returnType, f.name, ScanSkeleton::kWorkGroup, ScanSkeleton::kWorkGroupLog2, identity);
}

std::string chunkScanProgram(const UserFunction& f) {
  return fmt::format(
      "size G, C;\n{}\nfun skelcl_scan(offsets: [{}]G, x: [{}]G*C) =\n"
      "  join o mapGlb0(fun(p => scanSeq({}, get(0, p)) $ get(1, p))) $ zip(offsets, split(C) $ x)\n",
      f.liftText(), f.returnType, f.returnType, f.name);
}

std::string workGroupScanText(const UserFunction& f, const std::string& identity) {
  // Applied right to left: the shift behind the identity, then the rounds d = 1, 2, 4, ...
  std::string rounds;
  for (size_t d = 1; d < ScanSkeleton::kWorkGroup; d *= 2)
    rounds = fmt::format(
                 "fun(r => toLocal(mapLcl0(fun(a => {0}(get(0, a), get(1, a))))) $ "
                 "zip(get(0) o slide({1}, {2}) o pad({2}, 0, {3}) $ r, r)) o\n        ",
                 f.name, ScanSkeleton::kWorkGroup, d, identity) +
             rounds;
  return rounds + fmt::format("get(0) o slide({0}, 1) o pad(1, 0, {1})", ScanSkeleton::kWorkGroup, identity);
}

std::string tileScanProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G, E;\n{0}\nfun skelcl_scan(offsets: [{1}]G, x: [{1}]G*{3}*E) =\n"
      "  join o mapWrg0(fun(p =>\n"
      "    join o mapLcl0(fun(q => scanSeq({2}, {2}(get(0, p), get(0, q))) $ get(1, q))) $\n"
      "      zip({5} o\n"
      "        join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {4})) o split(E) $ get(1, p),\n"
      "        split(E) $ get(1, p))\n"
      "  )) $ zip(offsets, split({3}*E) $ x)\n",
      f.liftText(), f.returnType, f.name, ScanSkeleton::kWorkGroup, identity, workGroupScanText(f, identity));
}

std::string vectorTileTotalsProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G;\n{0}\nfun skelcl_scan_totals(x: [{1}]G*{3}) =\n"
      "  join o mapWrg0(\n"
      "    join o toGlobal(mapLcl0(mapSeq(id))) o split(1) o\n"
      "    iterate{4}(join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {5})) o split(2)) o\n"
      "    join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {5}) o asScalar o toPrivate(mapSeq(id))) o\n"
      "      split({6}) o asVector{7}\n"
      "  ) o split({3}) $ x\n",
      f.liftText(), f.returnType, f.name, ScanSkeleton::kTile, ScanSkeleton::kWorkGroupLog2, identity,
      ScanSkeleton::kVectorsPerItem, ScanSkeleton::kVectorWidth);
}

std::string vectorTileScanProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G;\n{0}\nfun skelcl_scan(offsets: [{1}]G, x: [{1}]G*{3}) =\n"
      "  join o mapWrg0(fun(p =>\n"
      "    fun(xs =>\n"
      "      join o mapLcl0(fun(q =>\n"
      "        asScalar o toGlobal(mapSeq(id)) o asVector{7} o\n"
      "          toPrivate(scanSeq({2}, {2}(get(0, p), get(0, q)))) o asScalar $ get(1, q))) $\n"
      "        zip({5} o\n"
      "          join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq({2}, {4}) o asScalar) $ xs,\n"
      "          xs)\n"
      "    ) $ toPrivate(mapLcl0(mapSeq(id))) o split({6}) o asVector{7} $ get(1, p)\n"
      "  )) $ zip(offsets, split({3}) $ x)\n",
      f.liftText(), f.returnType, f.name, ScanSkeleton::kTile, identity, workGroupScanText(f, identity),
      ScanSkeleton::kVectorsPerItem, ScanSkeleton::kVectorWidth);
}

std::string scanSearchProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format("size N;\n{}\nfun skelcl_scan(x: [{}]N) = scan({}, {}) $ x\n", f.liftText(),
                     f.returnType, f.name, identity);
}

ScanSkeleton::ScanSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
                           const std::string& identity)
    : what_(what), type_(type), operator_(what, type, identity) {
  const std::string name = runtime::toString(type);
  function_ = parseUserFunction(source, what, name, {name, name});
  const std::string z = operator_.identityLiteral();
  chunks_.totals = std::make_unique<SkeletonKernel>(reduceProgram(function_, z), what);
  chunks_.scan = std::make_unique<SkeletonKernel>(chunkScanProgram(function_), what);
  workGroups_.totals = std::make_unique<SkeletonKernel>(vectorTileTotalsProgram(function_, z), what);
  workGroups_.scan = std::make_unique<SkeletonKernel>(vectorTileScanProgram(function_, z), what);
  workGroups_.totalsTotal = std::make_unique<SkeletonKernel>(tileTotalsProgram(function_, z), what);
  workGroups_.totalsScan = std::make_unique<SkeletonKernel>(tileScanProgram(function_, z), what);
  stored_ = std::make_unique<StoredKernels>(scanSearchProgram(function_, z), what);
  operator_.setFunction(chunks_.totals->program().userFuns.front());
  singlePass_ =
      std::make_unique<SinglePassScanKernel>(*workGroups_.scan->program().userFuns.front(), type, z, what);
}

cl::Buffer ScanSkeleton::scratch(DeviceSet& devices, int device, size_t part, const std::string& role,
                                 size_t bytes) const {
  const cl::Context& context = devices.context(device).context();
  DeviceBufferPool::Lease& lease = scratch_[{context(), part, role}];
  if (lease.bytes() < bytes) lease = devices.bufferPool().acquire(context, bytes);
  return lease.buffer();
}

ScanForm ScanSkeleton::resolved(ScanForm f, const runtime::DeviceInfo& device, runtime::ScalarType type) {
  // Auto: the single pass on GPUs (validated on an H100 since its tiles publish a status and its
  // value in one 64-bit word; SinglePassScan.h), else the multi-pass work-groups there; chunks on
  // other devices (PoCL runs one work-item's chunk faster than a work-group's tile).
  if (f == ScanForm::Auto) f = device.type == "GPU" ? ScanForm::WorkGroups : ScanForm::Chunks;
  if (f == ScanForm::WorkGroups && !SinglePassScanKernel::supports(device, type))
    f = ScanForm::WorkGroupsMultiPass;
  return f;
}

ScanForm ScanSkeleton::formOn(const runtime::DeviceInfo& device) const {
  return resolved(form_, device, type_);
}

void ScanSkeleton::run(const ContainerStorage& in, ContainerStorage& out) const {
  if (in.devices() != out.devices())
    throw LiftError(fmt::format("{}: the output lives on another device set than the input", what_));
  if (in.elementCount() != out.elementCount())
    throw LiftError(fmt::format("{}: the output has {} elements, the input {}", what_, out.elementCount(),
                                in.elementCount()));
  const Distribution d = in.distribution().value_or(Distribution::block());
  if (d.kind() == Distribution::Kind::Overlap)
    throw LiftError(
        fmt::format("{}: a scan of a container distributed as {} (its halos would need the scan of "
                    "their neighbours); distribute it as single, copy or block",
                    what_, d.describe()));
  in.prepareOnDevices(d);
  out.allocateOnDevices(d);
  if (in.elementCount() == 0) {
    out.markWrittenOnDevices();
    return;
  }
  DeviceSet& devices = *in.devices();
  const std::vector<Part>& parts = in.parts();
  const bool copies = d.kind() == Distribution::Kind::Copy;
  // Each part starts from the fold of the parts before it, unless it is the only one or a copy.
  const bool carries = !copies && parts.size() > 1;
  if (runStored(in, out, carries)) return;
  const size_t bytes = runtime::sizeOf(type_);
  auto size = [](size_t v) { return static_cast<int64_t>(v); };

  // Each part as G chunks of C elements (padded with the identity), and the chunks' totals. In
  // work-groups a chunk is a tile of kTile elements, and the tiles' totals are scanned the same
  // way, level after level, until at most kTile are left: those (padded with the identity to
  // kWorkGroup*E) one work-group scans with the scalar programs. In one pass, the same totals
  // only when the part needs a carry (its total), and no padding otherwise.
  struct Level {
    size_t tiles = 0;
    cl::Buffer input, totals;  // input: tiles*kTile elements; totals: the next level's input
    arith::Env sizes;
  };
  struct Chunking {
    ScanForm form = ScanForm::Chunks;
    size_t count = 0, chunks = 0, chunk = 0;
    cl::Buffer input, totals;
    arith::Env sizes;
    // Work-groups only: the levels of vector tiles (the first is the part's), then the last
    // totals' length kWorkGroup*E (`top`, in `totals`), their total, the part's carry (the fold
    // of the parts before it) and their offsets.
    std::vector<Level> levels;
    arith::Env totalSizes;
    cl::Buffer total, carry, offsets;
    // In one pass: the tile counter and the tiles' words (status and value).
    cl::Buffer counter, words;
  };
  std::vector<Chunking> chunking(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    runtime::DeviceContext& ctx = devices.context(p.device);
    Chunking& c = chunking[i];
    // Every copy is chunked as the first, whose totals it shares in chunks.
    c.form = copies && i > 0 ? resolved(chunking[0].form, ctx.device().info(), type_)
                             : formOn(ctx.device().info());
    const bool tiles = c.form != ScanForm::Chunks;
    const bool onePass = c.form == ScanForm::WorkGroups;
    // The multi-pass form's totals: for its scan, or for the part's total.
    const bool totals = !tiles || !onePass || carries;
    c.count = p.rows() * in.rowLength();
    if (tiles) {
      c.chunk = kTile;
      c.chunks = (c.count + kTile - 1) / kTile;
      if (totals) {
        for (size_t n = c.chunks;; n = (n + kTile - 1) / kTile) {
          c.levels.push_back(Level{n, {}, {}, arith::Env{{"G", size(n)}}});
          if (n <= kTile) break;
        }
        c.sizes = c.levels.front().sizes;
      }
    } else {
      c.chunks = std::min(c.count, kMaxChunks);
      c.chunk = (c.count + c.chunks - 1) / c.chunks;
      c.chunks = (c.count + c.chunk - 1) / c.chunk;
      c.sizes = arith::Env{{"G", size(c.chunks)}, {"C", size(c.chunk)}};
    }
    c.input = in.buffer(i);
    devices.guarded(p.device, "allocating the chunks of " + what_, [&] {
      if (totals && c.chunks * c.chunk != c.count) {
        c.input = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * c.chunk * bytes);
        ctx.queue().enqueueCopyBuffer(in.buffer(i), c.input, 0, 0, c.count * bytes);
        operator_.fillWithIdentity(ctx.queue(), c.input, c.count * bytes,
                                   (c.chunks * c.chunk - c.count) * bytes);
      }
      if (tiles) {
        // Level k's totals are level k+1's input, padded to whole tiles (the last level's:
        // to kWorkGroup*E for the one work-group that scans them).
        if (totals) c.levels.front().input = c.input;
        for (size_t k = 0; k < c.levels.size(); ++k) {
          const size_t n = c.levels[k].tiles;
          const bool last = k + 1 == c.levels.size();
          const size_t perItem = (n + kWorkGroup - 1) / kWorkGroup;
          const size_t padded = last ? kWorkGroup * perItem : c.levels[k + 1].tiles * kTile;
          c.levels[k].totals = scratch(devices, p.device, i, fmt::format("totals {}", k), padded * bytes);
          if (padded > n)
            operator_.fillWithIdentity(ctx.queue(), c.levels[k].totals, n * bytes, (padded - n) * bytes);
          if (!last) {
            c.levels[k + 1].input = c.levels[k].totals;
            continue;
          }
          c.totals = c.levels[k].totals;
          c.totalSizes = arith::Env{{"G", 1}, {"E", size(perItem)}};
          c.offsets = scratch(devices, p.device, i, "offsets", padded * bytes);
        }
        if (!onePass) c.carry = scratch(devices, p.device, i, "carry", bytes);
        if (carries) c.total = scratch(devices, p.device, i, "total", bytes);
        if (onePass) {
          const size_t n = SinglePassScanKernel::tiles(c.count);
          c.counter = scratch(devices, p.device, i, "tile counter", sizeof(cl_int));
          c.words = scratch(devices, p.device, i, "tile words", n * sizeof(cl_ulong));
        }
      } else {
        c.totals = scratch(devices, p.device, i, "chunk totals", c.chunks * bytes);
      }
    });
    if (!tiles && copies && i > 0) continue;  // every copy has the first one's totals
    if (tiles) {
      for (const Level& l : c.levels)
        workGroups_.totals->enqueue(devices, p.device, {l.input, l.totals}, l.sizes);
      if (carries) workGroups_.totalsTotal->enqueue(devices, p.device, {c.totals, c.total}, c.totalSizes);
    } else {
      chunks_.totals->enqueue(devices, p.device, {c.input, c.totals}, c.sizes);
    }
  }

  // On the host, part after part: in chunks, the offsets (the exclusive scan of all chunks'
  // totals); in work-groups, the part's carry (the fold of the parts' totals before it; the
  // identity for a single part or a copy, whose tiles' offsets the device scans itself). Device
  // data is packed (`bytes` per element); a slot holds one element at its start.
  cfun::Scalar running = operator_.identity();
  std::vector<std::vector<std::byte>> offsets(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    Chunking& c = chunking[i];
    if (c.form != ScanForm::Chunks) {
      offsets[i].resize(bytes);
      std::memcpy(offsets[i].data(), &running, bytes);
      if (!carries) continue;
      cfun::Scalar t{};
      devices.guarded(parts[i].device, "reading the part total of " + what_, [&] {
        devices.context(parts[i].device).queue().enqueueReadBuffer(c.total, CL_TRUE, 0, bytes, &t);
      });
      running = operator_.combine(running, t);
      continue;
    }
    if (copies && i > 0) {
      offsets[i] = offsets[0];
      continue;
    }
    std::vector<std::byte> totals(c.chunks * bytes);
    devices.guarded(parts[i].device, "reading the chunk totals of " + what_, [&] {
      devices.context(parts[i].device)
          .queue()
          .enqueueReadBuffer(c.totals, CL_TRUE, 0, totals.size(), totals.data());
    });
    offsets[i].resize(totals.size());
    for (size_t j = 0; j < c.chunks; ++j) {
      std::memcpy(&offsets[i][j * bytes], &running, bytes);
      cfun::Scalar t{};
      std::memcpy(&t, &totals[j * bytes], bytes);
      running = operator_.combine(running, t);
    }
  }

  // Each chunk scanned from its offset, into the output (through a padded buffer if needed). In
  // work-groups the offsets are the device's scan of the tiles' totals from the carry: the last
  // level's by one work-group, then each level's tiles from the offsets of the level above. In
  // one pass, the part from its carry, into the output.
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    runtime::DeviceContext& ctx = devices.context(p.device);
    Chunking& c = chunking[i];
    if (c.form == ScanForm::WorkGroups) {
      devices.guarded(p.device, "zeroing the tile counter and words of " + what_, [&] {
        ctx.queue().enqueueFillBuffer(c.counter, cl_int(0), 0, sizeof(cl_int));
        ctx.queue().enqueueFillBuffer(c.words, cl_ulong(0), 0,
                                      SinglePassScanKernel::tiles(c.count) * sizeof(cl_ulong));
      });
      singlePass_->enqueue(devices, p.device, {c.input, out.buffer(i), c.counter, c.words}, offsets[i].data(),
                           bytes, c.count);
      continue;
    }
    const bool tiles = c.form == ScanForm::WorkGroupsMultiPass;
    cl::Buffer offsetBuffer = c.offsets, result = out.buffer(i);
    std::vector<cl::Buffer> levelOffsets;
    devices.guarded(p.device, "uploading the chunk offsets of " + what_, [&] {
      if (tiles) {
        ctx.queue().enqueueWriteBuffer(c.carry, CL_FALSE, 0, bytes, offsets[i].data());
        // Level k (k >= 1) scans into the offsets of level k-1's tiles.
        for (size_t k = 1; k < c.levels.size(); ++k)
          levelOffsets.push_back(
              scratch(devices, p.device, i, fmt::format("offsets {}", k), c.levels[k].tiles * kTile * bytes));
      } else {
        offsetBuffer = scratch(devices, p.device, i, "chunk offsets", c.chunks * bytes);
        ctx.queue().enqueueWriteBuffer(offsetBuffer, CL_FALSE, 0, c.chunks * bytes, offsets[i].data());
      }
      if (c.chunks * c.chunk != c.count)
        result = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * c.chunk * bytes);
    });
    if (tiles) {
      workGroups_.totalsScan->enqueue(devices, p.device, {c.carry, c.totals, c.offsets}, c.totalSizes);
      for (size_t k = c.levels.size(); k-- > 0;) {
        const cl::Buffer& from = k + 1 == c.levels.size() ? c.offsets : levelOffsets[k];
        const cl::Buffer& into = k == 0 ? result : levelOffsets[k - 1];
        workGroups_.scan->enqueue(devices, p.device, {from, c.levels[k].input, into}, c.levels[k].sizes);
      }
    } else {
      chunks_.scan->enqueue(devices, p.device, {offsetBuffer, c.input, result}, c.sizes);
    }
    if (c.chunks * c.chunk != c.count)
      devices.guarded(p.device, "copying the result of " + what_,
                      [&] { ctx.queue().enqueueCopyBuffer(result, out.buffer(i), 0, 0, c.count * bytes); });
  }
  // The devices work in parallel; wait for all of them (the offsets' host copies must live
  // until their uploads are done).
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  out.markWrittenOnDevices();
}

bool ScanSkeleton::runStored(const ContainerStorage& in, ContainerStorage& out, bool carries) const {
  if (carries) {
    stored_->ranOwnKernel();
    return false;
  }
  DeviceSet& devices = *in.devices();
  const std::vector<Part>& parts = in.parts();
  std::vector<StoredKernel*> stored;
  for (const Part& p : parts) {
    stored.push_back(
        stored_->find(devices, p.device, {{"N", static_cast<int64_t>(p.rows() * in.rowLength())}}));
    if (!stored.back()) return false;
  }
  for (size_t i = 0; i < parts.size(); ++i)
    stored[i]->enqueue(devices, parts[i].device, {in.buffer(i)}, out.buffer(i));
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  out.markWrittenOnDevices();
  return true;
}

}  // namespace lift::skelcl
