// The code generator's switches (codegen::CompileOptions, which knows no Qt) as a JSON object,
// for sessions: one table names each switch, so a new switch is one line here. The NDRange
// fields are not switches and are not saved (each program derives its own).
#pragma once

#include <QJsonObject>

#include "codegen/CompileOptions.h"

namespace lift::views {

QJsonObject compileOptionsToJson(const codegen::CompileOptions& options);
// Switches missing from `json` keep their defaults.
codegen::CompileOptions compileOptionsFromJson(const QJsonObject& json);

}  // namespace lift::views
