// The parser of the .lift language (docs/LANGUAGE.md): size declarations, user functions and
// one program function, into the IR, with the source position of every node it creates.
#pragma once

#include <string>
#include <vector>

#include "core/ir/IR.h"

namespace lift::lang {

// Limits that keep hostile input from exhausting the stack.
constexpr int kMaxNesting = 200;        // nested parentheses, lambdas, types, size expressions
constexpr int kMaxProgramDepth = 1000;  // depth of the resulting IR (long composition chains)

// Parses a whole program. Throws LiftError at the first error; its diagnostic has the position
// (file:line:col) and the source line with a caret.
ir::Program parseProgram(const std::string& text, const std::string& file);

// Reads `path` and parses it; a missing or unreadable file is a LiftError naming it.
ir::Program parseFile(const std::string& path);

// Parses a type such as "[[float]K]M"; size names are resolved among `sizes` (others are an
// error naming the closest declared size).
Type parseType(const std::string& text, const std::vector<ir::SizeDecl>& sizes,
               const std::string& file = "<type>");

// Whether `name` is reserved (a keyword or a pattern name, also with a numeric suffix such as
// split128 or mapGlb1) and so cannot name a size, user function or parameter.
bool isReservedName(const std::string& name);

}  // namespace lift::lang
