// A stored kernel's derivation and compile options, read back and replayed.
#include "rewrite/explore/StoredDerivation.h"

#include <sstream>
#include <stdexcept>

#include "core/support/Diagnostic.h"
#include "rewrite/Engine.h"
#include "rewrite/explore/CodegenTunables.h"
#include "rewrite/explore/DerivationTemplate.h"

namespace lift::explore {

std::optional<StoredDerivation> replayStored(const SearchProblem& problem, const KernelRecord& k,
                                             std::string* why) {
  std::vector<rewrite::RewriteStep> steps;
  try {
    std::istringstream lines(k.derivation);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) steps.push_back(rewrite::RewriteStep::parse(line));
  } catch (const LiftError& e) {  // a rule that no longer exists, a damaged step
    if (why) *why = e.what();
    return std::nullopt;
  }
  auto derived = replaySteps(*problem.start, steps, why);
  if (!derived) return std::nullopt;
  StoredDerivation out{std::move(derived->program), {}, {}};
  if (auto pos = k.parameters.find("local="); pos != std::string::npos) {
    std::stringstream local(k.parameters.substr(pos + 6));
    try {
      for (std::string v; std::getline(local, v, 'x');) out.localSize.push_back(std::stoll(v));
    } catch (const std::logic_error&) {  // std::stoll's invalid_argument, out_of_range
      if (why) *why = "a damaged work-group size in its parameters: " + k.parameters;
      return std::nullopt;
    }
  }
  for (int64_t l : out.localSize) out.options.localSize.push_back(arith::cst(l));
  applyCodegenParameters(k.parameters, out.options);
  return out;
}

}  // namespace lift::explore
