// Stencil: the neighbourhood reads made parameters, one kernel per row padding met.
#include "skelcl/StencilSkeleton.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

namespace {

std::string paramName(const std::string& base, size_t halo, int dimensions, int dy, int dx) {
  const auto at = [&](int d) { return static_cast<int>(halo) + d; };
  return dimensions == 2 ? fmt::format("{}_{}_{}", base, at(dy), at(dx)) : fmt::format("{}_{}", base, at(dx));
}

}  // namespace

StencilFunction stencilFunction(const UserFunction& f, size_t halo, const std::string& what) {
  const std::string& in = f.paramNames.at(0);
  // get(in, dx) or get(in, dx, dy) with integer constants.
  const std::regex get("\\bget\\s*\\(\\s*" + in + "\\s*,([^,()]*)(?:,([^,()]*))?\\)");
  const std::regex integer("\\s*([+-]?)\\s*([0-9]+)\\s*");
  const std::regex bare("\\b" + in + "\\b");
  StencilFunction out;
  struct Read {
    size_t begin, end;
    int dy, dx;
  };
  std::vector<Read> reads;
  const auto offset = [&](const std::string& text, const std::string& call) {
    std::smatch m;
    if (!std::regex_match(text, m, integer))
      throw LiftError(fmt::format("{}: {} must read its neighbourhood at constant offsets", what, call));
    long v = std::stol(m[2].str());
    if (v > static_cast<long>(halo))
      throw LiftError(fmt::format("{}: {} reads beyond the halo of {}", what, call, halo));
    return static_cast<int>(m[1].str() == "-" ? -v : v);
  };
  for (auto it = std::sregex_iterator(f.body.begin(), f.body.end(), get); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    int dims = m[2].matched ? 2 : 1;
    if (out.dimensions != 0 && out.dimensions != dims)
      throw LiftError(
          fmt::format("{}: the function reads its neighbourhood both as get(in, dx) and as "
                      "get(in, dx, dy)",
                      what));
    out.dimensions = dims;
    int dx = offset(m[1].str(), m.str()), dy = dims == 2 ? offset(m[2].str(), m.str()) : 0;
    reads.push_back(
        {static_cast<size_t>(m.position()), static_cast<size_t>(m.position() + m.length()), dy, dx});
    out.offsets.emplace_back(dy, dx);
  }
  // The parameter alone is the element itself.
  std::string body;
  size_t last = 0;
  const int dims = std::max(out.dimensions, 1);
  const auto plain = [&](const std::string& text) {
    std::string r = std::regex_replace(text, bare, paramName(in, halo, dims, 0, 0));
    if (r != text) out.offsets.emplace_back(0, 0);
    return r;
  };
  for (const Read& r : reads) {
    body += plain(f.body.substr(last, r.begin - last)) + paramName(in, halo, dims, r.dy, r.dx);
    last = r.end;
  }
  body += plain(f.body.substr(last));
  if (out.offsets.empty()) out.offsets.emplace_back(0, 0);
  std::sort(out.offsets.begin(), out.offsets.end());
  out.offsets.erase(std::unique(out.offsets.begin(), out.offsets.end()), out.offsets.end());

  out.function = f;
  out.function.body = body;
  out.function.paramTypes.clear();
  out.function.paramNames.clear();
  for (auto [dy, dx] : out.offsets) {
    out.function.paramTypes.push_back(f.paramTypes[0]);
    out.function.paramNames.push_back(paramName(in, halo, dims, dy, dx));
  }
  return out;
}

std::string stencilProgram(const StencilFunction& f, int dimensions, size_t halo, size_t top, size_t bottom,
                           const std::string& padding, bool lowered) {
  const std::string& t = f.function.paramTypes[0];
  const int h = static_cast<int>(halo);
  std::string reads;
  for (auto [dy, dx] : f.offsets) {
    std::string read = dimensions == 2 ? fmt::format("get({}, get({}, nbh))", dx + h, dy + h)
                                       : fmt::format("get({}, nbh)", dx + h);
    reads += (reads.empty() ? "" : ", ") + read;
  }
  const size_t window = 2 * halo + 1;
  if (dimensions == 2)
    return fmt::format(
        "size R, C;\n{}\nfun skelcl_stencil(x: [[{}]C]R) =\n"
        "  x |> pad2D({}, {}, {}, {}, {}) |> slide2D({}, 1) |> {}({}(fun(nbh => {}({}))))\n",
        f.function.liftText(), t, top, bottom, halo, halo, padding, window, lowered ? "mapGlb1" : "map",
        lowered ? "mapGlb0" : "map", f.function.name, reads);
  return fmt::format(
      "size R;\n{}\nfun skelcl_stencil(x: [{}]R) =\n"
      "  x |> pad({}, {}, {}) |> slide({}, 1) |> {}(fun(nbh => {}({})))\n",
      f.function.liftText(), t, top, bottom, padding, window, lowered ? "mapGlb0" : "map", f.function.name,
      reads);
}

StencilSkeleton::StencilSkeleton(const std::string& what, const std::string& source,
                                 const std::string& returnType, const std::string& paramType, size_t halo,
                                 OutOfBound mode, std::string neutral)
    : what_(what),
      halo_(halo),
      padding_(mode == OutOfBound::Nearest ? "clamp" : std::move(neutral)),
      function_(stencilFunction(parseUserFunction(source, what, returnType, {paramType}), halo, what)) {
  // Compiled now, so that errors in the function show at once.
  compiled(function_.dimensions == 1 ? 1 : 2, halo, halo);
}

StencilSkeleton::Kernels& StencilSkeleton::compiled(int dimensions, size_t top, size_t bottom) const {
  if (function_.dimensions != 0 && function_.dimensions != dimensions)
    throw LiftError(fmt::format("{}: the function reads a {}-D neighbourhood ({}), the container is {}-D",
                                what_, function_.dimensions,
                                function_.dimensions == 1 ? "get(in, dx)" : "get(in, dx, dy)", dimensions));
  Kernels& k = kernels_[{dimensions, top, bottom}];
  if (!k.own) {
    k.own = std::make_unique<SkeletonKernel>(
        stencilProgram(function_, dimensions, halo_, top, bottom, padding_), what_);
    k.stored = std::make_unique<StoredKernels>(
        stencilProgram(function_, dimensions, halo_, top, bottom, padding_, false), what_);
  }
  return k;
}

void StencilSkeleton::run(const ContainerStorage& in, ContainerStorage& out, int dimensions) const {
  if (in.rows() == 0) return;
  // Single and copy keep their distribution; otherwise each device needs `halo` rows around its
  // own, and writes only its own rows.
  Distribution d = in.distribution().value_or(Distribution::block());
  const bool split = d.kind() == Distribution::Kind::Block || d.kind() == Distribution::Kind::Overlap;
  in.prepareOnDevices(split ? Distribution::overlap(halo_) : d);
  out.allocateOnDevices(split ? Distribution::block() : d);

  DeviceSet& devices = *in.devices();
  const std::vector<Part>& parts = in.parts();
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    const size_t top = halo_ - (p.begin - p.storedBegin), bottom = halo_ - (p.storedEnd - p.end);
    Kernels& k = compiled(dimensions, top, bottom);
    arith::Env sizes{{"R", static_cast<int64_t>(p.storedRows())}};
    if (dimensions == 2) sizes["C"] = static_cast<int64_t>(in.rowLength());
    if (!k.stored->enqueue(devices, p.device, sizes, {in.buffer(i)}, out.buffer(i)))
      k.own->enqueue(devices, p.device, {in.buffer(i), out.buffer(i)}, sizes);
  }
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  out.markWrittenOnDevices();
}

}  // namespace lift::skelcl
