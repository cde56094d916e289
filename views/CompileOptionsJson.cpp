// See CompileOptionsJson.h.
#include "views/CompileOptionsJson.h"

namespace lift::views {

namespace {
struct Switch {
  const char* key;
  bool codegen::CompileOptions::*field;
};
constexpr Switch kSwitches[] = {
    {"simplifyIndices", &codegen::CompileOptions::simplifyIndices},
    {"barrierElimination", &codegen::CompileOptions::barrierElimination},
    {"cfgSimplification", &codegen::CompileOptions::cfgSimplification},
    {"unrolling", &codegen::CompileOptions::unrolling},
    {"fusedMultiplyAdd", &codegen::CompileOptions::fusedMultiplyAdd},
};
}  // namespace

QJsonObject compileOptionsToJson(const codegen::CompileOptions& options) {
  QJsonObject json;
  for (const Switch& s : kSwitches) json[s.key] = options.*s.field;
  return json;
}

codegen::CompileOptions compileOptionsFromJson(const QJsonObject& json) {
  codegen::CompileOptions options;
  for (const Switch& s : kSwitches) options.*s.field = json[s.key].toBool(options.*s.field);
  return options;
}

}  // namespace lift::views
