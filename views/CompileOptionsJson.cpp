// See CompileOptionsJson.h.
#include "views/CompileOptionsJson.h"

#include "codegen/runtime/RegisterCap.h"

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
    {"vectorLocalLoads", &codegen::CompileOptions::vectorLocalLoads},
    {"doubleBuffering", &codegen::CompileOptions::doubleBuffering},
    {"registerPrefetch", &codegen::CompileOptions::registerPrefetch},
    {"vectorGlobalStores", &codegen::CompileOptions::vectorGlobalStores},
    {"indexCse", &codegen::CompileOptions::indexCse},
};
}  // namespace

QJsonObject compileOptionsToJson(const codegen::CompileOptions& options) {
  QJsonObject json;
  for (const Switch& s : kSwitches) json[s.key] = options.*s.field;
  json["innerLoopUnroll"] = options.innerLoopUnroll;
  json["tileLoopUnroll"] = options.tileLoopUnroll;
  json["prefetchParts"] = options.prefetchParts;
  json["localPadding"] = options.localPadding;
  json["streamK"] = options.streamK;
  json["maxRegisters"] = options.maxRegisters;
  return json;
}

codegen::CompileOptions compileOptionsFromJson(const QJsonObject& json) {
  codegen::CompileOptions options;
  for (const Switch& s : kSwitches) options.*s.field = json[s.key].toBool(options.*s.field);
  // A factor from 1 (no pragma) to 1024; anything else in a damaged session: the default.
  int unroll = json["innerLoopUnroll"].toInt(options.innerLoopUnroll);
  if (unroll >= 1 && unroll <= 1024) options.innerLoopUnroll = unroll;
  int tileUnroll = json["tileLoopUnroll"].toInt(options.tileLoopUnroll);
  if (tileUnroll >= 1 && tileUnroll <= 16) options.tileLoopUnroll = tileUnroll;
  int parts = json["prefetchParts"].toInt(options.prefetchParts);
  if (parts >= 1 && parts <= 16) options.prefetchParts = parts;
  int padding = json["localPadding"].toInt(options.localPadding);
  if (padding >= 0 && padding <= 64) options.localPadding = padding;
  int streamK = json["streamK"].toInt(options.streamK);
  if (streamK >= 0 && streamK <= (1 << 20)) options.streamK = streamK;
  int registers = json["maxRegisters"].toInt(options.maxRegisters);
  if (runtime::isRegisterCap(registers)) options.maxRegisters = registers;
  return options;
}

}  // namespace lift::views
