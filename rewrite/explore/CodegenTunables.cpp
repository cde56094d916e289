// The code generator's switches the search tunes.
#include "rewrite/explore/CodegenTunables.h"

#include <charconv>
#include <sstream>

namespace lift::explore {

std::vector<Tunable> codegenTunables(bool gpu) {
  if (!gpu) return {};
  Tunable unroll;
  unroll.name = "unroll";
  unroll.what = "#pragma unroll of the innermost loops (code generator)";
  unroll.values = {8, 1};
  unroll.codegen = true;
  unroll.rankCost = 2;
  Tunable vload;
  vload.name = "vload";
  vload.what = "float4 reads of local memory (code generator)";
  vload.values = {1, 0};
  vload.codegen = true;
  vload.rankCost = 2;
  return {unroll, vload};
}

bool takesCodegenTunables(const std::string& mapping) {
  auto endsWith = [&](const std::string& s) {
    return mapping.size() >= s.size() && mapping.compare(mapping.size() - s.size(), s.size(), s) == 0;
  };
  return endsWith("-local") || endsWith("-private");
}

namespace {

void apply(const std::string& name, int64_t value, codegen::CompileOptions& options) {
  if (name == "unroll" && value >= 1 && value <= 1024) options.innerLoopUnroll = static_cast<int>(value);
  if (name == "vload") options.vectorLocalLoads = value != 0;
}

}  // namespace

void applyCodegenValues(const Candidate& c, codegen::CompileOptions& options) {
  if (!c.tmpl) return;
  for (auto& [name, value] : c.values) {
    const Tunable* t = c.tmpl->tunable(name);
    if (t && t->codegen) apply(name, value, options);
  }
}

void applyCodegenParameters(const std::string& parameters, codegen::CompileOptions& options) {
  std::istringstream in(parameters);
  for (std::string item; std::getline(in, item, ',');) {
    size_t eq = item.find('=');
    if (eq == std::string::npos) continue;
    int64_t v = 0;
    auto [end, ec] = std::from_chars(item.data() + eq + 1, item.data() + item.size(), v);
    if (ec == std::errc() && end == item.data() + item.size()) apply(item.substr(0, eq), v, options);
  }
}

}  // namespace lift::explore
