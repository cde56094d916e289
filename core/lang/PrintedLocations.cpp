// Positions of a program's nodes in its printed text; see PrintedLocations.h.
#include "core/lang/PrintedLocations.h"

#include <utility>
#include <vector>

#include "core/ir/Build.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

namespace lift::lang {

ir::Program withPrintedLocations(const ir::Program& p) {
  ir::Program out = p;
  std::string text = printProgram(p);
  out.source = std::make_shared<const std::string>(text);
  ir::LocationMap locs;
  try {
    ir::Program printed = parseProgram(text, p.file);
    // Walk both graphs together: the same shape, so the n-th node of one is the n-th of the other.
    std::vector<std::pair<ir::NodeRef, ir::NodeRef>> work{{ir::Fun(p.main), ir::Fun(printed.main)}};
    while (!work.empty()) {
      auto [mine, theirs] = work.back();
      work.pop_back();
      if (mine.isExpr() != theirs.isExpr()) continue;
      SourceLoc loc = printed.locationOf(theirs.id());
      if (loc.known()) locs.emplace(mine.id(), loc);  // the first occurrence of a shared node wins
      std::vector<ir::PathStep> a = ir::children(mine), b = ir::children(theirs);
      if (a.size() != b.size()) continue;
      for (size_t i = a.size(); i-- > 0;) work.emplace_back(a[i].node, b[i].node);
    }
  } catch (const LiftError&) {
    locs.clear();  // a printer bug: better no positions than wrong ones
  }
  out.locations = std::make_shared<const ir::LocationMap>(std::move(locs));
  return out;
}

}  // namespace lift::lang
