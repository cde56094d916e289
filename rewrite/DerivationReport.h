// A derivation report for lecture notes: the starting program, then each step with its rule
// (name, description, lhs => rhs), the program diff it made, and the OpenCL kernel diff once
// the program is lowered. Markdown or self-contained HTML.
#pragma once

#include <string>
#include <vector>

#include "rewrite/Engine.h"

namespace lift::rewrite {

struct ReportOptions {
  bool html = false;
  bool kernels = true;  // include kernel diffs where both sides compile
  std::string title = "Derivation";
};

// Replays `steps` from `start`; a step that does not apply ends the report with its reason.
std::string derivationReport(const TypedProgram& start, const std::vector<RewriteStep>& steps,
                             const ReportOptions& options = {});

}  // namespace lift::rewrite
