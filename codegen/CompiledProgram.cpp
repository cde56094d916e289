// The texts of a CompiledProgram (CompiledProgram.h).
#include "codegen/CompiledProgram.h"

#include <fmt/format.h>

namespace lift::codegen {

namespace {

std::string rangeText(const std::vector<arith::Expr>& r) {
  std::string s;
  for (auto& e : r) s += (s.empty() ? "" : " x ") + arith::toString(e);
  return s;
}

}  // namespace

std::string CompiledProgram::stageTitle(size_t i) const {
  const CompiledKernel& k = stages.at(i).kernel;
  return fmt::format(
      "kernel {} of {}: {}, global {}, local {}", i + 1, stages.size(), k.kernelName,
      rangeText(k.launch.global),
      k.launch.local.empty() ? std::string("chosen by the device") : rangeText(k.launch.local));
}

std::string CompiledProgram::source() const {
  if (singleKernel()) return stages.front().kernel.source;
  std::string s;
  for (size_t i = 0; i < stages.size(); ++i) {
    if (i) s += "\n\n";
    s += "// ----- " + stageTitle(i) + "\n";
    s += stages[i].kernel.source;
  }
  return s;
}

}  // namespace lift::codegen
