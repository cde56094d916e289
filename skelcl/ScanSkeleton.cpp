// Scan: per device, the tiles' totals, then (after the host scanned every device's totals in
// order) each tile scanned from its offset by a work-group.
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

ScanSkeleton::ScanSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
                           const std::string& identity)
    : what_(what), type_(type), operator_(what, type, identity) {
  const std::string name = runtime::toString(type);
  function_ = parseUserFunction(source, what, name, {name, name});
  const std::string z = operator_.identityLiteral();
  chunks_.totals = std::make_unique<SkeletonKernel>(reduceProgram(function_, z), what);
  chunks_.scan = std::make_unique<SkeletonKernel>(chunkScanProgram(function_), what);
  workGroups_.totals = std::make_unique<SkeletonKernel>(tileTotalsProgram(function_, z), what);
  workGroups_.scan = std::make_unique<SkeletonKernel>(tileScanProgram(function_, z), what);
  operator_.setFunction(chunks_.totals->program().userFuns.front());
}

ScanForm ScanSkeleton::formOn(const runtime::DeviceInfo& device) const {
  if (form_ != ScanForm::Auto) return form_;
  return device.type == "GPU" ? ScanForm::WorkGroups : ScanForm::Chunks;
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
  const size_t bytes = runtime::sizeOf(type_);
  auto size = [](size_t v) { return static_cast<int64_t>(v); };

  // Each part as G chunks of C elements (padded with the identity), and the chunks' totals. In
  // work-groups a chunk is a tile of kWorkGroup*E elements.
  struct Chunking {
    ScanForm form = ScanForm::Chunks;
    size_t count = 0, chunks = 0, chunk = 0;
    cl::Buffer input, totals;
    arith::Env sizes;
  };
  std::vector<Chunking> chunking(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    runtime::DeviceContext& ctx = devices.context(p.device);
    Chunking& c = chunking[i];
    // Every copy is chunked as the first, whose totals it shares.
    c.form = copies && i > 0 ? chunking[0].form : formOn(ctx.device().info());
    const size_t item = c.form == ScanForm::WorkGroups ? kWorkGroup : 1;  // a chunk is item*E elements
    c.count = p.rows() * in.rowLength();
    c.chunks = std::min((c.count + item - 1) / item, kMaxChunks);
    const size_t perItem = (c.count + c.chunks * item - 1) / (c.chunks * item);
    c.chunk = item * perItem;
    c.chunks = (c.count + c.chunk - 1) / c.chunk;
    c.sizes = c.form == ScanForm::WorkGroups ? arith::Env{{"G", size(c.chunks)}, {"E", size(perItem)}}
                                             : arith::Env{{"G", size(c.chunks)}, {"C", size(c.chunk)}};
    c.input = in.buffer(i);
    devices.guarded(p.device, "allocating the chunks of " + what_, [&] {
      if (c.chunks * c.chunk != c.count) {
        c.input = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * c.chunk * bytes);
        ctx.queue().enqueueCopyBuffer(in.buffer(i), c.input, 0, 0, c.count * bytes);
        operator_.fillWithIdentity(ctx.queue(), c.input, c.count * bytes,
                                   (c.chunks * c.chunk - c.count) * bytes);
      }
      c.totals = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * bytes);
    });
    if (copies && i > 0) continue;  // every copy has the first one's totals
    programs(c.form).totals->enqueue(devices, p.device, {c.input, c.totals}, c.sizes);
  }

  // The offsets: the exclusive scan of all chunks' totals, part after part. Device data is
  // packed (`bytes` per element); a slot holds one element at its start.
  cfun::Scalar running = operator_.identity();
  std::vector<std::vector<std::byte>> offsets(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    Chunking& c = chunking[i];
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

  // Each chunk scanned from its offset, into the output (through a padded buffer if needed).
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    runtime::DeviceContext& ctx = devices.context(p.device);
    Chunking& c = chunking[i];
    cl::Buffer offsetBuffer, result = out.buffer(i);
    devices.guarded(p.device, "uploading the chunk offsets of " + what_, [&] {
      offsetBuffer = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * bytes);
      ctx.queue().enqueueWriteBuffer(offsetBuffer, CL_FALSE, 0, c.chunks * bytes, offsets[i].data());
      if (c.chunks * c.chunk != c.count)
        result = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, c.chunks * c.chunk * bytes);
    });
    programs(c.form).scan->enqueue(devices, p.device, {offsetBuffer, c.input, result}, c.sizes);
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

}  // namespace lift::skelcl
