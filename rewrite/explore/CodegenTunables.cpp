// The code generator's switches the search tunes.
#include "rewrite/explore/CodegenTunables.h"

namespace lift::explore {

std::vector<Tunable> codegenTunables(bool gpu) {
  if (!gpu) return {};
  Tunable unroll;
  unroll.name = "unroll";
  unroll.what = "#pragma unroll of the innermost loops (code generator)";
  unroll.values = {8, 1};
  unroll.codegen = true;
  Tunable vload;
  vload.name = "vload";
  vload.what = "float4 reads of local memory (code generator)";
  vload.values = {1, 0};
  vload.codegen = true;
  return {unroll, vload};
}

bool takesCodegenTunables(const std::string& mapping) {
  auto endsWith = [&](const std::string& s) {
    return mapping.size() >= s.size() && mapping.compare(mapping.size() - s.size(), s.size(), s) == 0;
  };
  return endsWith("-local") || endsWith("-private");
}

void applyCodegenValues(const Candidate& c, codegen::CompileOptions& options) {
  if (!c.tmpl) return;
  for (auto& [name, value] : c.values) {
    const Tunable* t = c.tmpl->tunable(name);
    if (!t || !t->codegen) continue;
    if (name == "unroll") options.innerLoopUnroll = static_cast<int>(value);
    if (name == "vload") options.vectorLocalLoads = value != 0;
  }
}

}  // namespace lift::explore
