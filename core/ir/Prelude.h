// The prelude of 2-D stencil functions: slide2D and pad2D are compositions of the 1-D patterns
// (Lift's Slide2D = Map(Transpose) o Slide o Map(Slide), Pad2D = Map(Pad) o Pad), expanded by the
// parser so that every pass (type checker, interpreter, rules, code generator) sees the 1-D
// patterns, and recognised again where the printer and the graph view show them by name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/Build.h"

namespace lift::ir {

// slide2D(rowSize, rowStep, colSize, colStep): [[T]C]R -> [[[[T]colSize]rowSize]C']R', the 2-D
// neighbourhoods of a matrix: map(transpose) o slide(rowSize, rowStep) o map(slide(colSize, colStep)).
Callable slide2D(arith::Expr rowSize, arith::Expr rowStep, arith::Expr colSize, arith::Expr colStep);
// pad2D(top, bottom, left, right, mode): map(pad(left, right, mode)) o pad(top, bottom, mode); with
// a constant `value` (PadMode::Constant), which pads scalars only, the rows are padded as columns:
// transpose o map(pad(top, bottom, value)) o transpose o map(pad(left, right, value)).
Callable pad2D(arith::Expr top, arith::Expr bottom, arith::Expr left, arith::Expr right, PadMode mode,
               const std::string& value = {});

// A prelude function found at the outermost call of a chain: its text as written in the
// language ("slide2D(3, 1)", the two-argument form where rows and columns agree) and its calls,
// outermost first; the input is calls.back()->args().back().
struct PreludeMatch {
  std::string text;
  std::vector<const CallNode*> calls;
};
// Whether `outer` and the calls of one argument it is applied to spell a prelude function.
std::optional<PreludeMatch> matchPrelude(const CallNode& outer);

// The names of the prelude functions, reserved like the patterns' ("slide2D", "pad2D").
const std::vector<std::string>& preludeNames();

}  // namespace lift::ir
