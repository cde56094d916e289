// The printer: programs, expressions and functions back to .lift text in one canonical layout.
// Parsing the output gives an alphaEqual program, and printing is idempotent:
// print(parse(print(p))) == print(p).
#pragma once

#include <string>

#include "core/ir/IR.h"

namespace lift::lang {

// The whole program: sizes, user functions (with their bodies as written), the program function.
std::string printProgram(const ir::Program& p);

// One expression or function, in the syntax of the language (e.g. for the GUI and for rules'
// display). Lambda bodies that do not fit on a line are indented relative to `indent`.
std::string printExpr(const ir::Expr& e, int indent = 0);
std::string printFun(const ir::Fun& f, int indent = 0);

}  // namespace lift::lang
