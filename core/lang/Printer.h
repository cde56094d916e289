// The printer: programs, expressions and functions back to .lift text in one canonical layout.
// Parsing the output gives an alphaEqual program, and printing is idempotent:
// print(parse(print(p))) == print(p).
#pragma once

#include <string>

#include "core/ir/IR.h"

namespace lift::lang {

struct PrintOptions {
  // The nest of two plain maps that allPairs(f)(X, Y) stands for, printed by that name (the text
  // a user reads). Off, it prints as the nest: the text that result stores and reference caches
  // take their hashes of, which must not change when the printer learns a new name (a store
  // written before allPairs was one finds its programs' kernels again).
  bool allPairsByName = true;
};

// The whole program: sizes, user functions (with their bodies as written), the program function.
std::string printProgram(const ir::Program& p, const PrintOptions& options = {});

// One expression or function, in the syntax of the language (e.g. for the GUI and for rules'
// display). Lambda bodies that do not fit on a line are indented relative to `indent`.
std::string printExpr(const ir::Expr& e, int indent = 0);
std::string printFun(const ir::Fun& f, int indent = 0);

}  // namespace lift::lang
