// Map and Zip: one program, one kernel launch per device part.
#include "skelcl/ElementwiseSkeleton.h"

#include <fmt/format.h>

namespace lift::skelcl {

std::string elementwiseProgram(const UserFunction& f, bool lowered) {
  std::string params, args;
  for (size_t i = 0; i < f.paramTypes.size(); ++i) {
    params += fmt::format("{}x{}: [{}]N", i ? ", " : "", i, f.paramTypes[i]);
    args += fmt::format("{}x{}", i ? ", " : "", i);
  }
  std::string input = f.paramTypes.size() == 1 ? args : fmt::format("zip({})", args);
  return fmt::format("size N;\n{}\nfun skelcl_{}({}) = {}({}) $ {}\n", f.liftText(),
                     f.paramTypes.size() == 1 ? "map" : "zip", params, lowered ? "mapGlb0" : "map", f.name,
                     input);
}

ElementwiseSkeleton::ElementwiseSkeleton(const std::string& what, const std::string& source,
                                         const std::string& returnType,
                                         const std::vector<std::string>& paramTypes)
    : what_(what),
      function_(parseUserFunction(source, what, returnType, paramTypes)),
      kernel_(std::make_unique<SkeletonKernel>(elementwiseProgram(function_), what)),
      stored_(std::make_unique<StoredKernels>(elementwiseProgram(function_, false), what)) {}

void ElementwiseSkeleton::run(const std::vector<const ContainerStorage*>& inputs,
                              ContainerStorage& output) const {
  const ContainerStorage& first = *inputs.front();
  for (size_t i = 1; i < inputs.size(); ++i) {
    const ContainerStorage& in = *inputs[i];
    if (in.devices() != first.devices())
      throw LiftError(fmt::format("{}: input {} lives on another device set than input 1", what_, i + 1));
    if (in.rows() != first.rows() || in.rowLength() != first.rowLength())
      throw LiftError(fmt::format("{}: input {} has {}x{} elements, input 1 has {}x{}", what_, i + 1,
                                  in.rows(), in.rowLength(), first.rows(), first.rowLength()));
  }
  Distribution d = Distribution::block();
  for (auto it = inputs.rbegin(); it != inputs.rend(); ++it)
    if ((*it)->distribution()) d = *(*it)->distribution();
  for (const ContainerStorage* in : inputs) in->prepareOnDevices(d);
  output.allocateOnDevices(d);

  DeviceSet& devices = *first.devices();
  const std::vector<Part>& parts = output.parts();
  for (size_t i = 0; i < parts.size(); ++i) {
    std::vector<cl::Buffer> buffers;
    for (const ContainerStorage* in : inputs) buffers.push_back(in->buffer(i));
    const arith::Env sizes{{"N", static_cast<int64_t>(parts[i].storedRows() * output.rowLength())}};
    if (stored_->enqueue(devices, parts[i].device, sizes, buffers, output.buffer(i))) continue;
    buffers.push_back(output.buffer(i));
    kernel_->enqueue(devices, parts[i].device, buffers, sizes);
  }
  // The devices work in parallel; wait for all of them.
  for (const Part& p : parts)
    devices.guarded(p.device, "running " + what_, [&] { devices.context(p.device).queue().finish(); });
  output.markWrittenOnDevices();
}

}  // namespace lift::skelcl
