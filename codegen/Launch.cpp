// Instantiation of compiled kernels at concrete sizes (Launch.h).
#include "codegen/Launch.h"

#include <fmt/format.h>

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
  return static_cast<uint64_t>(v);
}

}  // namespace

runtime::KernelLaunch instantiate(const CompiledKernel& k, const arith::Env& sizes) {
  for (auto& n : k.sizeNames)
    if (!sizes.count(n)) throw LiftError(fmt::format("no value for the size {}", n));
  runtime::KernelLaunch l;
  l.source = k.source;
  l.kernelName = k.kernelName;
  l.sourceName = k.kernelName + ".cl";
  for (auto& p : k.params) {
    switch (p.kind) {
      case KernelParam::Kind::Input:
        l.args.push_back(runtime::KernelArg::input(
            p.name, elementTypeOf(p.elemType), positive(p.count, sizes, "input buffer '" + p.name + "'")));
        break;
      case KernelParam::Kind::Output:
        l.args.push_back(runtime::KernelArg::output(
            p.name, elementTypeOf(p.elemType), positive(p.count, sizes, "output buffer '" + p.name + "'")));
        break;
      case KernelParam::Kind::Temporary:
        l.args.push_back(
            runtime::KernelArg::inout(p.name, elementTypeOf(p.elemType),
                                      positive(p.count, sizes, "temporary buffer '" + p.name + "'")));
        break;
      case KernelParam::Kind::LocalBuffer: {
        uint64_t n = positive(p.count, sizes, "local buffer '" + p.name + "'");
        l.args.push_back(runtime::KernelArg::local(p.name, n * elementTypeOf(p.elemType).bytes()));
        break;
      }
      case KernelParam::Kind::Scalar:
        switch (p.elemType.scalarKind()) {
          case ScalarKind::Float:
            l.args.push_back(runtime::KernelArg::scalarFloat(p.name, 1.0f));
            break;
          case ScalarKind::Double:
            l.args.push_back(runtime::KernelArg::scalarDouble(p.name, 1.0));
            break;
          default:
            l.args.push_back(runtime::KernelArg::scalarInt(p.name, 1));
            break;
        }
        break;
      case KernelParam::Kind::Size:
        l.args.push_back(runtime::KernelArg::scalarInt(p.name, static_cast<int32_t>(sizes.at(p.name))));
        break;
    }
  }
  for (auto& g : k.launch.global) l.global.push_back(positive(g, sizes, "the global size"));
  for (auto& g : k.launch.local) l.local.push_back(positive(g, sizes, "the local size"));
  for (size_t d = 0; d < l.local.size(); ++d)
    if (l.global[d] % l.local[d] != 0)
      throw LiftError(fmt::format("the global size {} is not a multiple of the local size {} in dimension {}",
                                  l.global[d], l.local[d], d));
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
  walk(v, 0);
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
      std::vector<float> out;
      out.reserve(scalars.size());
      for (auto& s : scalars) out.push_back(k == ScalarKind::Float ? s.f : static_cast<float>(asDouble(s)));
      return runtime::HostArray(std::move(out));
    }
    case runtime::ScalarType::Double: {
      std::vector<double> out;
      for (auto& s : scalars) out.push_back(asDouble(s));
      return runtime::HostArray(std::move(out));
    }
    case runtime::ScalarType::Int: {
      std::vector<int32_t> out;
      for (auto& s : scalars) out.push_back(k == ScalarKind::Int ? s.i : static_cast<int32_t>(asDouble(s)));
      return runtime::HostArray(std::move(out));
    }
  }
  return {};
}

void setInputs(runtime::KernelLaunch& launch, const CompiledKernel& k,
               const std::vector<interp::Value>& inputs, const ArraySource& source) {
  for (size_t i = 0; i < k.params.size() && i < launch.args.size(); ++i) {
    const KernelParam& p = k.params[i];
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

void setExpected(runtime::KernelLaunch& launch, const CompiledKernel& k, const interp::Value& result,
                 const ArraySource& source) {
  for (size_t i = 0; i < k.params.size() && i < launch.args.size(); ++i) {
    const KernelParam& p = k.params[i];
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

}  // namespace lift::codegen
