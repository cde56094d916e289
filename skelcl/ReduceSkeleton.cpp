// Reduce: two launches per device, the devices' results combined on the host.
#include "skelcl/ReduceSkeleton.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <span>
#include <tuple>

#include "core/cfun/CFunEval.h"
#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The identity as a slot and as a .lift literal of `type`.
std::pair<cfun::Scalar, std::string> parseIdentity(const std::string& text, runtime::ScalarType type,
                                                   const std::string& what) {
  std::string t = trimmed(text);
  auto bad = [&]() -> std::pair<cfun::Scalar, std::string> {
    throw LiftError(fmt::format("{}: the identity \"{}\" is not a finite {} literal", what, text,
                                runtime::toString(type)));
  };
  cfun::Scalar s{};
  if (type == runtime::ScalarType::Int) {
    int32_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return bad();
    s.i = v;
    return {s, std::to_string(v)};
  }
  if (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) return bad();
  if (type == runtime::ScalarType::Float) {
    s.f = static_cast<float>(v);
    if (!std::isfinite(s.f)) return bad();
    return {s, fmt::format("{:.9e}f", s.f)};
  }
  s.d = v;
  return {s, fmt::format("{:.17e}", v)};
}

}  // namespace

std::string reduceProgram(const UserFunction& f, const std::string& identity) {
  return fmt::format(
      "size G, C;\n{}\nfun skelcl_reduce(x: [{}]G*C) =\n"
      "  join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq({}, {})) o split(C) $ x\n",
      f.liftText(), f.returnType, f.name, identity);
}

ReduceSkeleton::ReduceSkeleton(const std::string& what, const std::string& source, runtime::ScalarType type,
                               const std::string& identity)
    : what_(what), type_(type) {
  const std::string name = runtime::toString(type);
  std::tie(identity_, identityLiteral_) = parseIdentity(identity, type, what);
  function_ = parseUserFunction(source, what, name, {name, name});
  kernel_ = std::make_unique<SkeletonKernel>(reduceProgram(function_, identityLiteral_), what);
}

cfun::Scalar ReduceSkeleton::combine(cfun::Scalar a, cfun::Scalar b) const {
  const cfun::Body& body = *kernel_->program().userFuns.front()->body;
  cfun::Scalar args[2] = {a, b};
  cfun::Scalar result{};
  cfun::evaluate(body, args, std::span<cfun::Scalar>(&result, 1));
  return result;
}

cl::Buffer ReduceSkeleton::reducePart(DeviceSet& devices, int device, const cl::Buffer& buffer, size_t offset,
                                      size_t count) const {
  const size_t bytes = runtime::sizeOf(type_);
  runtime::DeviceContext& ctx = devices.context(device);
  size_t chunks = std::min(count, kMaxChunks);
  const size_t chunk = (count + chunks - 1) / chunks;
  chunks = (count + chunk - 1) / chunk;
  cl::Buffer input = buffer;
  if (offset != 0 || chunks * chunk != count) {
    devices.guarded(device, "padding the input of " + what_, [&] {
      input = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, chunks * chunk * bytes);
      ctx.queue().enqueueCopyBuffer(buffer, input, offset * bytes, 0, count * bytes);
      const size_t padBytes = (chunks * chunk - count) * bytes;
      if (padBytes == 0) return;
      switch (type_) {
        case runtime::ScalarType::Float:
          ctx.queue().enqueueFillBuffer(input, identity_.f, count * bytes, padBytes);
          break;
        case runtime::ScalarType::Double:
          ctx.queue().enqueueFillBuffer(input, identity_.d, count * bytes, padBytes);
          break;
        case runtime::ScalarType::Int:
          ctx.queue().enqueueFillBuffer(input, identity_.i, count * bytes, padBytes);
          break;
      }
    });
  }
  cl::Buffer partials, result;
  devices.guarded(device, "allocating the results of " + what_, [&] {
    partials = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, chunks * bytes);
    result = chunks == 1 ? partials : cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  });
  auto size = [](size_t v) { return static_cast<int64_t>(v); };
  kernel_->enqueue(devices, device, {input, partials}, {{"G", size(chunks)}, {"C", size(chunk)}});
  if (chunks > 1) kernel_->enqueue(devices, device, {partials, result}, {{"G", 1}, {"C", size(chunks)}});
  return result;
}

cfun::Scalar ReduceSkeleton::run(const ContainerStorage& in) const {
  in.prepareOnDevices(in.distribution().value_or(Distribution::block()));
  DeviceSet& devices = *in.devices();
  const std::vector<Part>& parts = in.parts();
  const bool copies = in.distribution()->kind() == Distribution::Kind::Copy;
  std::vector<cl::Buffer> results;
  for (size_t i = 0; i < parts.size() && !(copies && i > 0); ++i) {
    const Part& p = parts[i];
    results.push_back(reducePart(devices, p.device, in.buffer(i), (p.begin - p.storedBegin) * in.rowLength(),
                                 p.rows() * in.rowLength()));
  }
  cfun::Scalar acc = identity_;
  for (size_t i = 0; i < results.size(); ++i) {
    cfun::Scalar part{};
    devices.guarded(parts[i].device, "reading the result of " + what_, [&] {
      devices.context(parts[i].device)
          .queue()
          .enqueueReadBuffer(results[i], CL_TRUE, 0, runtime::sizeOf(type_), &part);
    });
    acc = i == 0 ? part : combine(acc, part);
  }
  return acc;
}

}  // namespace lift::skelcl
