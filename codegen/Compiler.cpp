// The pipeline of compileKernel (Compiler.h).
#include "codegen/Compiler.h"

#include <fmt/format.h>

#include "codegen/BarrierElimination.h"
#include "codegen/KernelBuilder.h"
#include "codegen/KernelPrinter.h"
#include "codegen/LoweringCheck.h"
#include "codegen/NDRange.h"
#include "codegen/ProgramIndex.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

const char* toString(KernelParam::Kind k) {
  switch (k) {
    case KernelParam::Kind::Input:
      return "input";
    case KernelParam::Kind::Output:
      return "output";
    case KernelParam::Kind::Temporary:
      return "temporary";
    case KernelParam::Kind::LocalBuffer:
      return "local";
    case KernelParam::Kind::Scalar:
      return "scalar";
    case KernelParam::Kind::Size:
      return "size";
  }
  return "?";
}

std::vector<int> CompiledKernel::linesOf(ir::NodeId node) const {
  std::vector<int> out;
  for (size_t i = 0; i < lineNodes.size(); ++i)
    if (lineNodes[i] == node) out.push_back(static_cast<int>(i) + 1);
  return out;
}

namespace {

std::string kernelNameFor(const ir::Program& p, const KernelModel& m) {
  std::string name = p.name.empty() ? "KERNEL" : p.name;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
  if (std::isdigit(static_cast<unsigned char>(name[0]))) name = "k" + name;
  auto clash = [&](const std::string& n) {
    if (isReservedOpenCLName(n) || m.memories.taken(n)) return true;
    for (auto& [d, fn] : m.userFunNames)
      if (fn == n) return true;
    for (auto& s : m.scalars)
      if (s.name == n) return true;
    return false;
  };
  while (clash(name)) name += "_kernel";
  return name;
}

}  // namespace

CompiledKernel compileKernel(const ir::Program& program, const CompileOptions& options) {
  ir::TypeInfo types = ir::typeCheck(program);
  ProgramIndex index(program);
  checkLowered(index);
  NDRange nd = deriveNDRange(program, types, options.globalSize, options.localSize);
  BarrierPlan barriers = planBarriers(index);
  KernelModel model = buildKernel(program, options, nd, barriers);
  model.name = kernelNameFor(program, model);

  CompiledKernel k;
  k.kernelName = model.name;
  k.options = options;
  k.inputTypes = types.paramTypes;
  k.resultType = types.resultType;
  for (auto& s : program.sizes) k.sizeNames.push_back(s.name);

  // Parameters: the program's inputs in order, the outputs, global temporaries, local buffers
  // sized at launch, then the size variables.
  for (size_t i = 0; i < program.main->params().size(); ++i) {
    for (auto& m : model.memories.memories())
      if (m->role == Memory::Role::Input && m->input == static_cast<int>(i)) {
        KernelParam p;
        p.kind = KernelParam::Kind::Input;
        p.name = m->name;
        p.elemType = m->elemType;
        p.count = m->count;
        p.input = m->input;
        p.path = m->path;
        k.params.push_back(p);
      }
    for (auto& s : model.scalars)
      if (s.input == static_cast<int>(i)) {
        KernelParam p;
        p.kind = KernelParam::Kind::Scalar;
        p.name = s.name;
        p.elemType = s.type;
        p.input = s.input;
        k.params.push_back(p);
      }
  }
  // Inputs of tuple type are stored by component: number them.
  for (size_t i = 0; i < k.params.size(); ++i) {
    int n = 0;
    for (auto& q : k.params)
      if (q.kind == KernelParam::Kind::Input && q.input == k.params[i].input) ++n;
    if (k.params[i].kind == KernelParam::Kind::Input && n > 1) {
      int c = 0;
      for (size_t j = 0; j < i; ++j)
        if (k.params[j].kind == KernelParam::Kind::Input && k.params[j].input == k.params[i].input) ++c;
      k.params[i].component = c;
    }
  }
  bool tupleOutput = false;
  for (auto& m : model.memories.memories())
    if (m->role == Memory::Role::Output && m->component > 0) tupleOutput = true;
  for (auto& m : model.memories.memories())
    if (m->role == Memory::Role::Output) {
      KernelParam p;
      p.kind = KernelParam::Kind::Output;
      p.name = m->name;
      p.elemType = m->elemType;
      p.count = m->count;
      p.component = tupleOutput ? m->component : -1;
      p.path = m->path;
      k.params.push_back(p);
    }
  for (auto& m : model.memories.memories())
    if (m->role == Memory::Role::Temporary && m->isParameter()) {
      KernelParam p;
      p.kind =
          m->space == AddressSpace::Global ? KernelParam::Kind::Temporary : KernelParam::Kind::LocalBuffer;
      p.name = m->name;
      p.elemType = m->elemType;
      p.count = m->count;
      k.params.push_back(p);
    }
  for (auto& s : program.sizes) {
    KernelParam p;
    p.kind = KernelParam::Kind::Size;
    p.name = s.name;
    p.elemType = Type::int_();
    k.params.push_back(p);
  }

  // Launch information.
  k.launch.dims = nd.dims;
  bool allLocal = true;
  for (int d = 0; d < nd.dims; ++d) {
    k.launch.global.push_back(nd.global[d] ? nd.global[d] : arith::cst(1));
    allLocal = allLocal && nd.local[d];
  }
  if (allLocal)
    for (int d = 0; d < nd.dims; ++d) k.launch.local.push_back(nd.local[d]);
  arith::Expr bytes = arith::cst(0);
  for (auto& m : model.memories.memories())
    if (m->space == AddressSpace::Local && m->role == Memory::Role::Temporary && !m->dynamicLocal)
      bytes = bytes + m->count * m->elemType.byteSize();
  k.launch.localMemoryBytes = bytes;
  if (bytes.isCst() && bytes.value() > kMaxLocalBytes) {
    const Memory* largest = nullptr;
    for (auto& m : model.memories.memories())
      if (m->space == AddressSpace::Local && m->role == Memory::Role::Temporary && !m->dynamicLocal &&
          (!largest || arith::evaluate(m->count * m->elemType.byteSize(), {}) >
                           arith::evaluate(largest->count * largest->elemType.byteSize(), {})))
        largest = m.get();
    throw LiftError(program.diagnosticAt(
        largest ? largest->node : program.main->id(),
        fmt::format(
            "the kernel needs {} bytes of local memory, more than a work-group can have ({} bytes); this "
            "allocation ({} {}) is the largest",
            bytes.value(), kMaxLocalBytes, arith::toString(largest ? largest->count : arith::cst(0)),
            largest ? largest->elemType.toString() : "")));
  }
  k.launch.fixed = options.cfgSimplification || model.perWorkItemPrivate;

  std::string attributes;
  if (options.cfgSimplification && allLocal && nd.usesWorkGroups) {
    bool constant = true;
    for (int d = 0; d < nd.dims; ++d) constant = constant && nd.local[d].isCst();
    if (constant) {
      int64_t l[3] = {1, 1, 1};
      for (int d = 0; d < nd.dims; ++d) l[d] = nd.local[d].value();
      attributes = fmt::format("__attribute__((reqd_work_group_size({}, {}, {}))) ", l[0], l[1], l[2]);
    }
  }
  std::string header =
      fmt::format("// {}: generated by Lift Studio from {}", model.name,
                  program.file.empty() ? std::string("a program built in memory") : program.file);
  PrintedKernel printed = printKernel(model, k.params, options.simplifyIndices, header, attributes);
  k.source = std::move(printed.source);
  k.lineNodes = std::move(printed.lineNodes);
  k.indices = std::move(printed.indices);
  return k;
}

}  // namespace lift::codegen
