// Kernel parameters and launch configuration (KernelInterface.h).
#include "codegen/KernelInterface.h"

#include <fmt/format.h>

#include "codegen/ResourceError.h"

namespace lift::codegen {

namespace {

KernelParam bufferParam(KernelParam::Kind kind, const Memory& m) {
  KernelParam p;
  p.kind = kind;
  p.name = m.name;
  p.elemType = m.elemType;
  p.count = m.count;
  return p;
}

}  // namespace

std::vector<KernelParam> kernelParameters(const ir::Program& program, const KernelModel& model) {
  const auto& memories = model.memories.memories();
  std::vector<KernelParam> params;
  for (size_t i = 0; i < program.main->params().size(); ++i) {
    int input = static_cast<int>(i);
    // Inputs of tuple type are stored by component: number them.
    int components = 0;
    for (auto& m : memories)
      if (m->role == Memory::Role::Input && m->input == input) ++components;
    int component = 0;
    for (auto& m : memories)
      if (m->role == Memory::Role::Input && m->input == input) {
        KernelParam p = bufferParam(KernelParam::Kind::Input, *m);
        p.input = input;
        p.path = m->path;
        p.component = components > 1 ? component++ : -1;
        params.push_back(p);
      }
    for (auto& s : model.scalars)
      if (s.input == input) {
        KernelParam p;
        p.kind = KernelParam::Kind::Scalar;
        p.name = s.name;
        p.elemType = s.type;
        p.input = s.input;
        params.push_back(p);
      }
  }
  bool tupleOutput = false;
  for (auto& m : memories)
    if (m->role == Memory::Role::Output && m->component > 0) tupleOutput = true;
  for (auto& m : memories)
    if (m->role == Memory::Role::Output) {
      KernelParam p = bufferParam(KernelParam::Kind::Output, *m);
      p.component = tupleOutput ? m->component : -1;
      p.path = m->path;
      params.push_back(p);
    }
  for (auto& m : memories)
    if (m->role == Memory::Role::Temporary && m->isParameter())
      params.push_back(bufferParam(m->taskCounter                     ? KernelParam::Kind::Counter
                                   : m->space == AddressSpace::Global ? KernelParam::Kind::Temporary
                                                                      : KernelParam::Kind::LocalBuffer,
                                   *m));
  for (auto& s : program.sizes) {
    KernelParam p;
    p.kind = KernelParam::Kind::Size;
    p.name = s.name;
    p.elemType = Type::int_();
    params.push_back(p);
  }
  return params;
}

LaunchInfo launchInfo(const ir::Program& program, const KernelModel& model, const CompileOptions& options) {
  const NDRange& nd = model.ndrange;
  LaunchInfo launch;
  launch.dims = nd.dims;
  bool warp = ir::containsPattern(program.main, {ir::PatternKind::MapWarp});
  bool lane = ir::containsPattern(program.main, {ir::PatternKind::MapLane});
  launch.warpPatterns = warp && lane ? "mapWarp and mapLane" : warp ? "mapWarp" : lane ? "mapLane" : "";
  bool allLocal = true;
  for (int d = 0; d < nd.dims; ++d) {
    launch.global.push_back(nd.global[d] ? nd.global[d] : arith::cst(1));
    allLocal = allLocal && nd.local[d];
  }
  if (allLocal)
    for (int d = 0; d < nd.dims; ++d) launch.local.push_back(nd.local[d]);
  // Local memory declared in the kernel (not the buffers sized at launch).
  auto declaredLocal = [](const Memory& m) {
    return m.space == AddressSpace::Local && m.role == Memory::Role::Temporary && !m.dynamicLocal;
  };
  arith::Expr bytes = arith::cst(0);
  for (auto& m : model.memories.memories())
    if (declaredLocal(*m)) bytes = bytes + m->count * m->elemType.byteSize();
  launch.localMemoryBytes = bytes;
  if (bytes.isCst() && bytes.value() > kMaxLocalBytes) {
    const Memory* largest = nullptr;
    for (auto& m : model.memories.memories())
      if (declaredLocal(*m) &&
          (!largest || arith::evaluate(m->count * m->elemType.byteSize(), {}) >
                           arith::evaluate(largest->count * largest->elemType.byteSize(), {})))
        largest = m.get();
    throw ResourceError(program.diagnosticAt(
        largest ? largest->node : program.main->id(),
        fmt::format(
            "the kernel needs {} bytes of local memory, more than a work-group can have ({} bytes); this "
            "allocation ({} {}) is the largest",
            bytes.value(), kMaxLocalBytes, arith::toString(largest ? largest->count : arith::cst(0)),
            largest ? largest->elemType.toString() : "")));
  }
  launch.fixed = options.cfgSimplification || model.perWorkItemPrivate;
  if (model.streamKGroups > 0 && launch.local.size() == static_cast<size_t>(nd.dims)) {
    // StreamK.h: the work-groups of the schedule, all in dimension 0.
    launch.fixed = true;
    launch.streamKGroups = model.streamKGroups;
    for (int d = 0; d < nd.dims; ++d)
      launch.global[d] = d == 0 ? arith::cst(model.streamKGroups) * launch.local[d] : launch.local[d];
  }
  return launch;
}

std::string kernelAttributes(const KernelModel& model, const CompileOptions& options) {
  const NDRange& nd = model.ndrange;
  bool constant = options.cfgSimplification && nd.usesWorkGroups;
  for (int d = 0; d < nd.dims; ++d) constant = constant && nd.local[d] && nd.local[d].isCst();
  if (!constant) return {};
  int64_t l[3] = {1, 1, 1};
  for (int d = 0; d < nd.dims; ++d) l[d] = nd.local[d].value();
  return fmt::format("__attribute__((reqd_work_group_size({}, {}, {}))) ", l[0], l[1], l[2]);
}

}  // namespace lift::codegen
