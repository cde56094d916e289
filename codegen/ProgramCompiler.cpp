// The compilation of a program into a sequence of kernels (ProgramCompiler.h).
#include "codegen/ProgramCompiler.h"

#include <fmt/format.h>

#include <map>

#include "codegen/Compiler.h"
#include "codegen/KernelSplit.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

namespace {

std::string pathText(const std::vector<int>& path) {
  std::string s;
  for (int i : path) s += fmt::format(".{}", i);
  return s;
}

// The parameter of the whole sequence that stands for kernel parameter `q` of `part`, with the
// key that identifies it among the kernels ("" for one of the kernel's own).
std::pair<KernelParam, std::string> sequenceParam(const KernelParam& q, const ProgramPart& part) {
  KernelParam c = q;
  auto temporary = [&](int t) {
    if (q.kind == KernelParam::Kind::Scalar)
      throw LiftError(
          fmt::format("{}: the value passed from one kernel to the next is a scalar; only arrays "
                      "can be passed in global memory",
                      part.program.name));
    c.kind = KernelParam::Kind::Temporary;
    c.input = -1;
    c.name = fmt::format("tmp{}{}", t + 1, q.path.empty() ? "" : "_" + pathText(q.path).substr(1));
    return fmt::format("tmp{}{}", t, pathText(q.path));
  };
  switch (q.kind) {
    case KernelParam::Kind::Input:
    case KernelParam::Kind::Scalar: {
      StageValue v = part.inputs.at(static_cast<size_t>(q.input));
      if (v.kind == StageValue::Kind::Temporary) return {c, temporary(v.index)};
      c.input = v.index;
      return {c, fmt::format("in{}{}", v.index, pathText(q.path))};
    }
    case KernelParam::Kind::Output:
      if (part.result.kind == StageValue::Kind::Temporary) return {c, temporary(part.result.index)};
      return {c, "out" + pathText(q.path)};
    case KernelParam::Kind::Size:
      return {c, "size " + q.name};
    case KernelParam::Kind::Temporary:
    case KernelParam::Kind::LocalBuffer:
    case KernelParam::Kind::Counter:
      break;
  }
  return {c, ""};
}

// Whether a later kernel of a sequence takes the work-group size `local` (the options', tuned for
// the first kernel): its program leaves the size to the runtime (global maps) and `local`
// provably divides its global size in every dimension.
bool takesWorkGroupSize(const LaunchInfo& launch, const std::vector<arith::Expr>& local) {
  if (local.empty() || !launch.local.empty() || launch.global.size() != local.size()) return false;
  for (size_t d = 0; d < local.size(); ++d)
    if (!arith::provablyDivisible(launch.global[d], local[d])) return false;
  return true;
}

}  // namespace

CompiledProgram singleKernelProgram(CompiledKernel kernel) {
  CompiledProgram p;
  p.params = kernel.params;
  p.inputTypes = kernel.inputTypes;
  p.resultType = kernel.resultType;
  KernelStage stage{std::move(kernel), {}};
  for (size_t j = 0; j < stage.kernel.params.size(); ++j) stage.args.push_back(j);
  p.stages.push_back(std::move(stage));
  return p;
}

CompiledProgram compileProgram(const ir::Program& program, const CompileOptions& options) {
  ProgramSplit split = splitIntoKernels(program);
  if (split.parts.size() == 1) return singleKernelProgram(compileKernel(program, options));

  CompiledProgram out;
  ir::TypeInfo types = ir::typeCheck(program);
  out.inputTypes = types.paramTypes;
  out.resultType = types.resultType;
  std::map<std::string, size_t> shared;  // key -> index in out.params
  for (size_t i = 0; i < split.parts.size(); ++i) {
    const ProgramPart& part = split.parts[i];
    CompileOptions o = options;
    if (i > 0) {
      o.globalSize.clear();
      o.localSize.clear();
    }
    KernelStage stage{compileKernel(part.program, o), {}};
    if (i > 0 && takesWorkGroupSize(stage.kernel.launch, options.localSize)) {
      o.localSize = options.localSize;
      stage.kernel = compileKernel(part.program, o);
    }
    for (const KernelParam& q : stage.kernel.params) {
      auto [param, key] = sequenceParam(q, part);
      auto it = key.empty() ? shared.end() : shared.find(key);
      if (it != shared.end()) {
        stage.args.push_back(it->second);
        continue;
      }
      if (!key.empty()) shared[key] = out.params.size();
      stage.args.push_back(out.params.size());
      out.params.push_back(std::move(param));
    }
    out.stages.push_back(std::move(stage));
  }
  return out;
}

}  // namespace lift::codegen
