// See TreeReplay.h.
#include "views/TreeReplay.h"

#include "core/lang/Parser.h"
#include "core/support/Diagnostic.h"

namespace lift::views {

std::vector<ReplayedNode> replayTree(const std::vector<ReplayNode>& nodes,
                                     const std::function<bool()>& stop) {
  std::vector<ReplayedNode> out(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (stop && stop()) break;
    const ReplayNode& n = nodes[i];
    try {
      if (n.parent < 0) {
        out[i].program = n.program ? n.program
                                   : std::make_shared<const rewrite::TypedProgram>(
                                         rewrite::TypedProgram::check(lang::parseProgram(n.text, n.file)));
        continue;
      }
      if (static_cast<size_t>(n.parent) >= i || !out[static_cast<size_t>(n.parent)].program) continue;
      rewrite::RewriteResult r = rewrite::applyRewrite(*out[static_cast<size_t>(n.parent)].program,
                                                       rewrite::RewriteStep::parse(n.spec));
      if (!r) {
        out[i].error = "step " + n.spec + " does not replay: " + r.message;
        continue;
      }
      out[i].program = std::make_shared<const rewrite::TypedProgram>(std::move(*r.program));
    } catch (const LiftError& e) {
      out[i].error = e.diagnostic().message;
    }
  }
  return out;
}

std::vector<ReplayNode> replayChain(std::shared_ptr<const rewrite::TypedProgram> start,
                                    const std::vector<std::string>& specs) {
  std::vector<ReplayNode> nodes(specs.size() + 1);
  nodes[0].program = std::move(start);
  for (size_t i = 0; i < specs.size(); ++i) {
    nodes[i + 1].parent = static_cast<int>(i);
    nodes[i + 1].spec = specs[i];
  }
  return nodes;
}

}  // namespace lift::views
