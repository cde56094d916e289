// Resource constraints of the parameter exploration (see Constraints.h).
#include "rewrite/explore/Constraints.h"

#include <fmt/format.h>

#include <regex>
#include <sstream>

namespace lift::explore {

DeviceLimits DeviceLimits::of(const runtime::DeviceInfo& d) {
  DeviceLimits l;
  l.gpu = d.type == "GPU";
  if (d.maxWorkGroupSize) l.maxWorkGroupSize = d.maxWorkGroupSize;
  if (!d.maxWorkItemSizes.empty()) l.maxWorkItemSizes = d.maxWorkItemSizes;
  if (d.localMemBytes) l.localMemBytes = d.localMemBytes;
  if (d.globalMemBytes) l.globalMemBytes = d.globalMemBytes;
  if (d.maxAllocBytes) l.maxAllocBytes = d.maxAllocBytes;
  uint64_t cus = std::max<uint32_t>(1, d.computeUnits);
  if (l.gpu) {
    // The seeds' GPU limits: at most 1024 bytes of private memory (more spills), a warp per
    // group at least, and enough groups to fill the compute units.
    l.privateMemBytes = 1024;
    l.minWorkGroupSize = 32;
    l.minWorkGroups = cus;
    l.maxWorkGroups = 1u << 22;
  } else {
    // A CPU keeps private arrays on the stack: allow a tile of 64 KiB, and at least one group
    // per core.
    l.privateMemBytes = 64 * 1024;
    l.minWorkGroups = cus;
  }
  return l;
}

DeviceLimits DeviceLimits::cpu() {
  DeviceLimits l;
  l.maxWorkGroupSize = 4096;
  l.maxWorkItemSizes = {4096, 4096, 4096};
  l.localMemBytes = 4 * 1024 * 1024;
  l.privateMemBytes = 64 * 1024;
  l.minWorkGroups = 2;
  return l;
}

namespace {

uint64_t typeBytes(const std::string& t) {
  static const std::regex vec("(float|int|uint|double|char|uchar|short|ushort|long|ulong|half)([0-9]*)");
  std::smatch m;
  if (!std::regex_match(t, m, vec)) return 0;
  std::string base = m[1];
  uint64_t scalar = base == "double" || base == "long" || base == "ulong"   ? 8
                    : base == "char" || base == "uchar"                     ? 1
                    : base == "short" || base == "ushort" || base == "half" ? 2
                                                                            : 4;
  uint64_t n = m[2].length() ? std::stoull(m[2]) : 1;
  if (n == 3) n = 4;
  return scalar * n;
}

}  // namespace

uint64_t privateMemoryBytes(const std::string& src) {
  // The kernel's declarations: after the signature's "{", lines "  TYPE a, b[8], c;" until the
  // first statement.
  size_t k = src.find("kernel void");
  if (k == std::string::npos) return 0;
  size_t body = src.find(") {", k);
  if (body == std::string::npos) return 0;
  std::istringstream in(src.substr(body + 3));
  static const std::regex decl(
      R"(^  ([a-z]+[0-9]*) ([A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*(, [A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])*)*);\s*$)");
  static const std::regex name(R"(([A-Za-z_][A-Za-z0-9_]*)((\[[0-9]+\])*))");
  static const std::regex dim(R"(\[([0-9]+)\])");
  uint64_t total = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.rfind("  local ", 0) == 0) continue;
    std::smatch m;
    if (!std::regex_match(line, m, decl)) break;
    uint64_t bytes = typeBytes(m[1]);
    if (!bytes) break;
    std::string names = m[2];
    for (auto it = std::sregex_iterator(names.begin(), names.end(), name); it != std::sregex_iterator();
         ++it) {
      uint64_t count = 1;
      std::string dims = (*it)[2];
      for (auto d = std::sregex_iterator(dims.begin(), dims.end(), dim); d != std::sregex_iterator(); ++d)
        count *= std::stoull((*d)[1]);
      total += bytes * count;
    }
  }
  return total;
}

std::string workGroupViolation(const std::vector<uint64_t>& global, const std::vector<uint64_t>& local,
                               const DeviceLimits& limits) {
  uint64_t items = 1, groups = 1, groupSize = 1;
  for (uint64_t g : global) items *= g;
  if (items < limits.minGlobalSize)
    return fmt::format("only {} work-items (at least {})", items, limits.minGlobalSize);
  if (!local.empty()) {
    if (local.size() != global.size()) return "the work-group size has the wrong number of dimensions";
    for (size_t d = 0; d < local.size(); ++d) {
      if (local[d] == 0 || global[d] % local[d] != 0)
        return fmt::format("the work-group size {} does not divide the global size {} in dimension {}",
                           local[d], global[d], d);
      if (d < limits.maxWorkItemSizes.size() && local[d] > limits.maxWorkItemSizes[d])
        return fmt::format("a work-group of {} in dimension {} (the device allows {})", local[d], d,
                           limits.maxWorkItemSizes[d]);
      groupSize *= local[d];
      groups *= global[d] / local[d];
    }
    if (groupSize > limits.maxWorkGroupSize)
      return fmt::format("work-groups of {} work-items (the device allows {})", groupSize,
                         limits.maxWorkGroupSize);
    if (groupSize < limits.minWorkGroupSize)
      return fmt::format("work-groups of {} work-items (at least {})", groupSize, limits.minWorkGroupSize);
    if (groups < limits.minWorkGroups)
      return fmt::format("{} work-group{} for {} compute units", groups, groups == 1 ? "" : "s",
                         limits.minWorkGroups);
    if (groups > limits.maxWorkGroups)
      return fmt::format("{} work-groups (at most {})", groups, limits.maxWorkGroups);
  } else if (items < limits.minWorkGroups) {
    return fmt::format("only {} work-items for {} compute units", items, limits.minWorkGroups);
  }
  return "";
}

namespace {

// Private, local and global memory of one kernel with these arguments; "" when they fit.
std::string memoryViolation(const codegen::CompiledKernel& kernel,
                            const std::vector<const runtime::KernelArg*>& args, const DeviceLimits& limits) {
  uint64_t priv = privateMemoryBytes(kernel.source);
  if (priv > limits.privateMemBytes)
    return fmt::format("{} bytes of private memory a work-item (at most {})", priv, limits.privateMemBytes);
  uint64_t local = 0, global = 0;
  for (const runtime::KernelArg* a : args) {
    if (a->kind == runtime::KernelArg::Kind::Local) local += a->localBytes;
    if (a->isBuffer()) {
      if (a->byteSize() > limits.maxAllocBytes)
        return fmt::format("a buffer of {} bytes (the device allocates at most {})", a->byteSize(),
                           limits.maxAllocBytes);
      global += a->byteSize();
    }
  }
  if (kernel.launch.localMemoryBytes && kernel.launch.localMemoryBytes.isCst())
    local += static_cast<uint64_t>(kernel.launch.localMemoryBytes.value());
  if (local > limits.localMemBytes)
    return fmt::format("{} bytes of local memory a work-group (the device has {})", local,
                       limits.localMemBytes);
  if (global > limits.globalMemBytes)
    return fmt::format("{} bytes of global memory (the device has {})", global, limits.globalMemBytes);
  return "";
}

}  // namespace

std::string resourceViolation(const codegen::CompiledKernel& kernel, const runtime::KernelLaunch& launch,
                              const DeviceLimits& limits) {
  std::vector<const runtime::KernelArg*> args;
  for (const runtime::KernelArg& a : launch.args) args.push_back(&a);
  if (std::string why = memoryViolation(kernel, args, limits); !why.empty()) return why;
  return workGroupViolation(launch.global, launch.local, limits);
}

std::string resourceViolation(const codegen::CompiledProgram& program, const runtime::KernelLaunch& launch,
                              const DeviceLimits& limits) {
  if (program.singleKernel() || launch.sequence.size() != program.stages.size())
    return resourceViolation(program.stages.front().kernel, launch, limits);
  uint64_t global = 0;
  for (const runtime::KernelArg& a : launch.args)
    if (a.isBuffer()) global += a.byteSize();
  if (global > limits.globalMemBytes)
    return fmt::format("{} bytes of global memory (the device has {})", global, limits.globalMemBytes);
  for (size_t i = 0; i < launch.sequence.size(); ++i) {
    const runtime::KernelCall& call = launch.sequence[i];
    std::vector<const runtime::KernelArg*> args;
    for (uint32_t a : call.args) args.push_back(&launch.args.at(a));
    if (std::string why = memoryViolation(program.stages[i].kernel, args, limits); !why.empty())
      return fmt::format("kernel {} of {}: {}", i + 1, launch.sequence.size(), why);
  }
  // The later kernels combine the first one's results, with few work-items by design: only the
  // first is held to the device's parallelism.
  const runtime::KernelCall& first = launch.sequence.front();
  return workGroupViolation(first.global, first.local, limits);
}

}  // namespace lift::explore
