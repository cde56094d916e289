// Construction and checking of kernel launch descriptions.
#include "codegen/runtime/KernelLaunch.h"

#include <fmt/format.h>

namespace lift::runtime {

const char* toString(ArgRole r) {
  switch (r) {
    case ArgRole::Input:
      return "input";
    case ArgRole::Output:
      return "output";
    case ArgRole::InOut:
      return "inout";
  }
  return "?";
}

static KernelArg buffer(std::string name, ElementType type, uint64_t count, ArgRole role) {
  KernelArg a;
  a.kind = KernelArg::Kind::Buffer;
  a.name = std::move(name);
  a.type = type;
  a.count = count;
  a.role = role;
  return a;
}

KernelArg KernelArg::input(std::string name, ElementType type, uint64_t count) {
  return buffer(std::move(name), type, count, ArgRole::Input);
}
KernelArg KernelArg::output(std::string name, ElementType type, uint64_t count) {
  return buffer(std::move(name), type, count, ArgRole::Output);
}
KernelArg KernelArg::inout(std::string name, ElementType type, uint64_t count) {
  return buffer(std::move(name), type, count, ArgRole::InOut);
}

KernelArg KernelArg::scalarInt(std::string name, int32_t value) {
  KernelArg a;
  a.kind = Kind::Scalar;
  a.name = std::move(name);
  a.type = {ScalarType::Int, 1};
  a.intValue = value;
  return a;
}

KernelArg KernelArg::scalarFloat(std::string name, float value) {
  KernelArg a;
  a.kind = Kind::Scalar;
  a.name = std::move(name);
  a.type = {ScalarType::Float, 1};
  a.floatValue = value;
  return a;
}

KernelArg KernelArg::scalarDouble(std::string name, double value) {
  KernelArg a = scalarFloat(std::move(name), 0);
  a.type = {ScalarType::Double, 1};
  a.floatValue = value;
  return a;
}

KernelArg KernelArg::local(std::string name, uint64_t bytes) {
  KernelArg a;
  a.kind = Kind::Local;
  a.name = std::move(name);
  a.localBytes = bytes;
  return a;
}

static std::string argLabel(const KernelArg& a, size_t i) {
  return a.name.empty() ? fmt::format("argument {}", i) : fmt::format("argument {} ('{}')", i, a.name);
}

std::vector<KernelCall> KernelLaunch::calls() const {
  if (!sequence.empty()) return sequence;
  KernelCall c{source, kernelName, sourceName, {}, global, local};
  for (size_t i = 0; i < args.size(); ++i) c.args.push_back(static_cast<uint32_t>(i));
  return {c};
}

static std::string checkCall(const KernelCall& c, size_t argCount) {
  if (c.source.empty()) return "the kernel source is empty";
  if (c.kernelName.empty()) return "no kernel name given";
  if (c.global.empty() || c.global.size() > 3)
    return fmt::format("the global size has {} dimensions; 1 to 3 are allowed", c.global.size());
  if (!c.local.empty() && c.local.size() != c.global.size())
    return fmt::format("the local size has {} dimensions but the global size has {}", c.local.size(),
                       c.global.size());
  for (size_t d = 0; d < c.global.size(); ++d) {
    if (c.global[d] == 0) return fmt::format("the global size is 0 in dimension {}", d);
    if (!c.local.empty() && c.local[d] == 0) return fmt::format("the local size is 0 in dimension {}", d);
  }
  for (uint32_t a : c.args)
    if (a >= argCount)
      return fmt::format("kernel '{}' takes argument {}; there are {}", c.kernelName, a, argCount);
  return "";
}

std::string KernelLaunch::check() const {
  for (const KernelCall& c : calls())
    if (std::string err = checkCall(c, args.size()); !err.empty())
      return sequence.empty() ? err : fmt::format("kernel '{}': {}", c.kernelName, err);
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    switch (a.kind) {
      case KernelArg::Kind::Buffer: {
        if (a.count == 0) return fmt::format("{} is a buffer with no elements", argLabel(a, i));
        if (a.data && a.readsInput() &&
            (a.data->type() != a.type.scalar || a.data->size() != a.scalarCount()))
          return fmt::format("{}: its data has {} {} values, the buffer holds {} {}", argLabel(a, i),
                             a.data->size(), toString(a.data->type()), a.scalarCount(),
                             toString(a.type.scalar));
        if (a.expected && a.writesOutput() &&
            (a.expected->type() != a.type.scalar || a.expected->size() != a.scalarCount()))
          return fmt::format("{}: its expected array has {} {} values, the buffer holds {} {}",
                             argLabel(a, i), a.expected->size(), toString(a.expected->type()),
                             a.scalarCount(), toString(a.type.scalar));
        break;
      }
      case KernelArg::Kind::Scalar:
        if (a.type.width != 1) return fmt::format("{}: vector scalars are not supported", argLabel(a, i));
        break;
      case KernelArg::Kind::Local:
        if (a.localBytes == 0) return fmt::format("{} asks for 0 bytes of local memory", argLabel(a, i));
        break;
    }
  }
  return "";
}

static uint64_t argSeed(uint64_t seed, size_t i) {
  return seed * 0x9E3779B97F4A7C15ull + (i + 1) * 0xD1B54A32D192ED03ull;
}

HostArray KernelLaunch::inputData(size_t i) const {
  const KernelArg& a = args.at(i);
  if (a.data) return *a.data;
  return HostArray::random(a.type.scalar, a.scalarCount(), argSeed(seed, i));
}

void KernelLaunch::materializeInputs() {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].readsInput() && !args[i].data) args[i].data = inputData(i);
}

}  // namespace lift::runtime
