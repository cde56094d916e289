// A derivation report for lecture notes: the starting program, then each step with its rule
// (name, description, lhs => rhs), the program diff it made, and the OpenCL kernel diff once
// the program is lowered. Markdown or self-contained HTML. Part of the explore library, the
// layer above rewriting and code generation, because it compiles the kernels it shows.
#pragma once

#include <string>
#include <vector>

#include "rewrite/Engine.h"

namespace lift::explore {

struct ReportOptions {
  bool html = false;
  bool kernels = true;  // include kernel diffs where both sides compile
  std::string title = "Derivation";
};

// Replays `steps` from `start`; a step that does not apply ends the report with its reason.
std::string derivationReport(const rewrite::TypedProgram& start,
                             const std::vector<rewrite::RewriteStep>& steps,
                             const ReportOptions& options = {});

}  // namespace lift::explore
