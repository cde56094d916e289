// Instantiation of compiled kernels at concrete sizes (Launch.h).
#include "codegen/Launch.h"

#include "codegen/NDRange.h"
#include "core/support/ParallelFor.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <functional>

namespace lift::codegen {

runtime::ElementType elementTypeOf(Type t) {
  runtime::ElementType e;
  if (!t.isScalar() && !t.isVector())
    throw LiftError(fmt::format("a kernel buffer cannot hold values of type {}", t.toString()));
  switch (t.scalarKind()) {
    case ScalarKind::Float:
      e.scalar = runtime::ScalarType::Float;
      break;
    case ScalarKind::Double:
      e.scalar = runtime::ScalarType::Double;
      break;
    case ScalarKind::Int:
      e.scalar = runtime::ScalarType::Int;
      break;
    case ScalarKind::Bool:
      throw LiftError("a kernel buffer cannot hold bool values");
  }
  e.width = t.isVector() ? t.vectorWidth() : 1;
  return e;
}

namespace {

int64_t eval(arith::Expr e, const arith::Env& sizes, const std::string& what) {
  try {
    return arith::evaluate(e, sizes);
  } catch (const LiftError& err) {
    throw LiftError(fmt::format("{}: {}", what, err.diagnostic().message));
  }
}

uint64_t positive(arith::Expr e, const arith::Env& sizes, const std::string& what) {
  int64_t v = eval(e, sizes, what);
  if (v < 1) {
    std::string at;
    for (auto& [n, x] : sizes) at += fmt::format("{}{}={}", at.empty() ? "" : ", ", n, x);
    throw LiftError(
        fmt::format("{} would have {} elements ({} = {} at {}): these sizes make the allocation "
                    "impossible",
                    what, v, arith::toString(e), v, at));
  }
  if (v > INT32_MAX) {  // docs/ARITH.md, "Overflow"
    std::string at;
    for (auto& [n, x] : sizes) at += fmt::format("{}{}={}", at.empty() ? "" : ", ", n, x);
    throw LiftError(
        fmt::format("{} would have {} elements at {}: the kernel indexes its buffers with 32-bit "
                    "int, so a buffer holds at most 2147483647 elements",
                    what, v, at));
  }
  return static_cast<uint64_t>(v);
}

runtime::KernelArg argumentOf(const KernelParam& p, const arith::Env& sizes) {
  switch (p.kind) {
    case KernelParam::Kind::Input:
      return runtime::KernelArg::input(p.name, elementTypeOf(p.elemType),
                                       positive(p.count, sizes, "input buffer '" + p.name + "'"));
    case KernelParam::Kind::Output:
      return runtime::KernelArg::output(p.name, elementTypeOf(p.elemType),
                                        positive(p.count, sizes, "output buffer '" + p.name + "'"));
    case KernelParam::Kind::Temporary:
      return runtime::KernelArg::inout(p.name, elementTypeOf(p.elemType),
                                       positive(p.count, sizes, "temporary buffer '" + p.name + "'"));
    case KernelParam::Kind::Counter: {  // zero before every execution (an inout buffer's data)
      uint64_t n = positive(p.count, sizes, "counter '" + p.name + "'");
      runtime::KernelArg a = runtime::KernelArg::inout(p.name, elementTypeOf(p.elemType), n);
      a.data = runtime::HostArray(std::vector<int32_t>(n, 0));
      return a;
    }
    case KernelParam::Kind::LocalBuffer: {
      uint64_t n = positive(p.count, sizes, "local buffer '" + p.name + "'");
      return runtime::KernelArg::local(p.name, n * elementTypeOf(p.elemType).bytes());
    }
    case KernelParam::Kind::Scalar:
      switch (p.elemType.scalarKind()) {
        case ScalarKind::Float:
          return runtime::KernelArg::scalarFloat(p.name, 1.0f);
        case ScalarKind::Double:
          return runtime::KernelArg::scalarDouble(p.name, 1.0);
        default:
          return runtime::KernelArg::scalarInt(p.name, 1);
      }
    case KernelParam::Kind::Size:
      break;
  }
  return runtime::KernelArg::scalarInt(p.name, static_cast<int32_t>(sizes.at(p.name)));
}

void setInputsOf(runtime::KernelLaunch& launch, const std::vector<KernelParam>& params,
                 const std::vector<interp::Value>& inputs, const ArraySource& source) {
  for (size_t i = 0; i < params.size() && i < launch.args.size(); ++i) {
    const KernelParam& p = params[i];
    if (p.input < 0 || p.input >= static_cast<int>(inputs.size())) continue;
    const interp::Value& v = inputs[static_cast<size_t>(p.input)];
    runtime::KernelArg& a = launch.args[i];
    if (p.kind == KernelParam::Kind::Input) {
      if (source) {
        KeyedArray ka = source(p.input, p.path, a.type.scalar);
        a.data = std::move(ka.array);
        a.dataKey = ka.key;
      } else {
        a.data = hostArrayOf(v, a.type.scalar, p.path);
      }
    } else if (p.kind == KernelParam::Kind::Scalar) {
      a.intValue = static_cast<int64_t>(v.asDouble());
      a.floatValue = v.asDouble();
    }
  }
}

void setExpectedOf(runtime::KernelLaunch& launch, const std::vector<KernelParam>& params,
                   const interp::Value& result, const ArraySource& source) {
  for (size_t i = 0; i < params.size() && i < launch.args.size(); ++i) {
    const KernelParam& p = params[i];
    if (p.kind != KernelParam::Kind::Output) continue;
    runtime::KernelArg& a = launch.args[i];
    if (source) {
      KeyedArray ka = source(-1, p.path, a.type.scalar);
      a.expected = std::move(ka.array);
      a.expectedKey = ka.key;
    } else {
      a.expected = hostArrayOf(result, a.type.scalar, p.path);
    }
  }
}

}  // namespace

runtime::KernelLaunch instantiate(const CompiledKernel& k, const arith::Env& sizes) {
  for (auto& n : k.sizeNames)
    if (!sizes.count(n)) throw LiftError(fmt::format("no value for the size {}", n));
  runtime::KernelLaunch l;
  l.source = k.source;
  l.kernelName = k.kernelName;
  l.sourceName = k.kernelName + ".cl";
  for (auto& p : k.params) l.args.push_back(argumentOf(p, sizes));
  for (auto& g : k.launch.global) l.global.push_back(positive(g, sizes, "the global size"));
  for (auto& g : k.launch.local) l.local.push_back(positive(g, sizes, "the local size"));
  for (size_t d = 0; d < l.local.size(); ++d)
    if (l.global[d] % l.local[d] != 0)
      throw LiftError(fmt::format("the global size {} is not a multiple of the local size {} in dimension {}",
                                  l.global[d], l.local[d], d));
  l.warpPatterns = k.launch.warpPatterns;
  l.maxRegisters = k.options.maxRegisters;
  if (!l.warpPatterns.empty() && (l.local.empty() || l.local[0] % kWarpSize != 0))
    throw LiftError(
        fmt::format("{} {} dimension 0 of a work-group into warps of {} work-items, but the "
                    "local size there is {}",
                    l.warpPatterns, l.warpPatterns.find(" and ") != std::string::npos ? "divide" : "divides",
                    kWarpSize, l.local.empty() ? "left to the runtime" : std::to_string(l.local[0])));
  return l;
}

runtime::HostArray hostArrayOf(const interp::Value& v, runtime::ScalarType type,
                               const std::vector<int>& path) {
  std::vector<cfun::Scalar> scalars;
  ScalarKind k = ScalarKind::Float;
  bool kindKnown = false;
  std::function<void(const interp::Value&, size_t)> walk = [&](const interp::Value& x, size_t depth) {
    if (depth < path.size()) {
      if (x.isTuple()) {
        walk(x.at(static_cast<size_t>(path[depth])), depth + 1);
        return;
      }
      if (x.isArray()) {
        for (size_t i = 0; i < x.size(); ++i) walk(x.at(i), depth);
        return;
      }
    }
    if (!kindKnown) {
      Type t = x.type();
      while (t.isArray()) t = t.elem();
      if (t.isScalar() || t.isVector()) {
        k = t.scalarKind();
        kindKnown = true;
      }
    }
    x.flattenInto(scalars);
  };
  // A flat array is converted straight from its block (no copy of its scalars first).
  std::span<const cfun::Scalar> view;
  if (path.empty() && v.isArray() && v.isFlat()) {
    view = v.flatData();
    k = v.flatKind();
  } else {
    walk(v, 0);
    view = scalars;
  }
  auto asDouble = [&](const cfun::Scalar& s) -> double {
    switch (k) {
      case ScalarKind::Float:
        return s.f;
      case ScalarKind::Double:
        return s.d;
      case ScalarKind::Int:
        return s.i;
      case ScalarKind::Bool:
        return s.b ? 1 : 0;
    }
    return 0;
  };
  switch (type) {
    case runtime::ScalarType::Float: {
      std::vector<float> out(view.size());
      support::parallelFor(view.size(), [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i)
          out[i] = k == ScalarKind::Float ? view[i].f : static_cast<float>(asDouble(view[i]));
      });
      return runtime::HostArray(std::move(out));
    }
    case runtime::ScalarType::Double: {
      std::vector<double> out;
      for (auto& s : view) out.push_back(asDouble(s));
      return runtime::HostArray(std::move(out));
    }
    case runtime::ScalarType::Int: {
      std::vector<int32_t> out;
      for (auto& s : view) out.push_back(k == ScalarKind::Int ? s.i : static_cast<int32_t>(asDouble(s)));
      return runtime::HostArray(std::move(out));
    }
  }
  return {};
}

runtime::KernelLaunch instantiate(const CompiledProgram& p, const arith::Env& sizes) {
  if (p.singleKernel()) return instantiate(p.stages.front().kernel, sizes);
  runtime::KernelLaunch l;
  for (const KernelStage& stage : p.stages) {
    runtime::KernelLaunch one = instantiate(stage.kernel, sizes);
    if (!one.warpPatterns.empty()) l.warpPatterns = one.warpPatterns;
    l.maxRegisters = std::max(l.maxRegisters, one.maxRegisters);
    runtime::KernelCall call{std::move(one.source), std::move(one.kernelName), std::move(one.sourceName), {},
                             std::move(one.global), std::move(one.local)};
    for (size_t a : stage.args) call.args.push_back(static_cast<uint32_t>(a));
    l.sequence.push_back(std::move(call));
  }
  for (auto& param : p.params) l.args.push_back(argumentOf(param, sizes));
  const runtime::KernelCall& first = l.sequence.front();
  l.source = first.source;
  l.kernelName = first.kernelName;
  l.sourceName = first.sourceName;
  l.global = first.global;
  l.local = first.local;
  return l;
}

void setInputs(runtime::KernelLaunch& launch, const CompiledKernel& k,
               const std::vector<interp::Value>& inputs, const ArraySource& source) {
  setInputsOf(launch, k.params, inputs, source);
}

void setExpected(runtime::KernelLaunch& launch, const CompiledKernel& k, const interp::Value& result,
                 const ArraySource& source) {
  setExpectedOf(launch, k.params, result, source);
}

void setInputs(runtime::KernelLaunch& launch, const CompiledProgram& p,
               const std::vector<interp::Value>& inputs, const ArraySource& source) {
  setInputsOf(launch, p.params, inputs, source);
}

void setExpected(runtime::KernelLaunch& launch, const CompiledProgram& p, const interp::Value& result,
                 const ArraySource& source) {
  setExpectedOf(launch, p.params, result, source);
}

}  // namespace lift::codegen
