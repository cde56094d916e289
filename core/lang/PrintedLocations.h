// Source positions in a program's printed text. A rewritten program keeps the positions its
// nodes had in the file it was read from, but whoever shows it as printProgram writes it (the
// GUI's editor after a rewrite) needs positions in that text: this re-reads the printed text
// and carries its positions over to the program's own nodes.
#pragma once

#include "core/ir/IR.h"

namespace lift::lang {

// `p` with `source` set to printProgram(p) and `locations` to where each of its nodes is in that
// text (nodes stay the same, ids included). Parsing the printed text gives an alphaEqual program,
// so its nodes pair up with p's by a walk of both; should it not parse, no node has a position.
ir::Program withPrintedLocations(const ir::Program& p);

}  // namespace lift::lang
