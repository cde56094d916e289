// The code generator's switches the search tunes.
#include "rewrite/explore/CodegenTunables.h"

#include <charconv>
#include <sstream>

namespace lift::explore {

namespace {

// A switch of the code generator, its preferred value first; a second value costs two ranks.
Tunable codegenSwitch(std::string name, std::string what, std::vector<int64_t> values) {
  Tunable t;
  t.name = std::move(name);
  t.what = std::move(what);
  t.values = std::move(values);
  t.codegen = true;
  t.rankCost = 2;
  return t;
}

void apply(const std::string& name, int64_t value, codegen::CompileOptions& options) {
  if (name == "unroll" && value >= 1 && value <= 1024) options.innerLoopUnroll = static_cast<int>(value);
  if (name == "tunroll" && value >= 1 && value <= 16) options.tileLoopUnroll = static_cast<int>(value);
  if (name == "pfparts" && value >= 1 && value <= 16) options.prefetchParts = static_cast<int>(value);
  if (name == "vload") options.vectorLocalLoads = value != 0;
  if (name == "dbuf") {
    options.doubleBuffering = value != 0;
    options.registerPrefetch = value == 2;
  }
  if (name == "sk" && value >= 0 && value <= (1 << 20)) options.streamK = static_cast<int>(value);
}

}  // namespace

std::vector<Tunable> codegenTunables(bool gpu, int64_t computeUnits) {
  if (!gpu) return {};
  std::vector<Tunable> out = {
      codegenSwitch("unroll", "#pragma unroll of the innermost loops (code generator)", {16, 8, 1}),
      codegenSwitch("tunroll", "#pragma unroll of the loop over K tiles; 1: none (code generator)", {1, 2}),
      codegenSwitch("vload", "float4 reads of local memory (code generator)", {1, 0}),
      codegenSwitch("dbuf",
                    "two local buffers per tile, one barrier a step; 2: the next tiles through registers "
                    "(code generator)",
                    {2, 1, 0}),
      codegenSwitch(
          "pfparts",
          "with dbuf=2, the step cut in two along k, each half loading and storing its share of the "
          "next tiles; 1: one part (code generator)",
          {2, 1})};
  if (computeUnits > 0 && computeUnits <= (1 << 18))
    out.push_back(codegenSwitch(
        "sk",
        "work-groups of a stream-K schedule, one, two, four and eight a compute unit (as many as run at "
        "once: large work-groups fit fewer); 0: one a tile (code generator)",
        {0, computeUnits, 2 * computeUnits, 4 * computeUnits, 8 * computeUnits}));
  return out;
}

bool takesCodegenTunables(const std::string& mapping) {
  return mapping.ends_with("-local") || mapping.ends_with("-private");
}

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
