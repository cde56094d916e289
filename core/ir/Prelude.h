// The prelude: functions that are not patterns but compositions of them, expanded by the parser
// so that every pass (type checker, interpreter, rules, code generator) sees only the patterns,
// and recognised again where the printer and the graph view show them by name. The 2-D stencil
// functions slide2D and pad2D compose the 1-D patterns (Lift's Slide2D = Map(Transpose) o Slide
// o Map(Slide), Pad2D = Map(Pad) o Pad); SkelCL's allpairs skeleton, allPairs(f)(X, Y), is the
// nest of two maps map(fun(a => map(fun(b => f(a, b))) $ Y)) $ X.
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

// allPairs(f)(X, Y) = map(fun(a => map(fun(b => body)) $ Y)) $ X: [[T]K]M, [[U]L]N -> [[R]N]M
// with R the type of body, the row function f(a, b) of every row a of X and every row b of Y
// (SkelCL's allpairs; matrix multiplication is the dot product of the rows of A and of B's
// transpose). `body` may mention a and b; Y must not mention a.
Expr allPairs(const Param& a, const Param& b, Expr body, Expr x, Expr y);
// The same with f a function of two parameters: a lambda's own parameters and body (so that the
// nest is the one written out by hand), any other function called as f(a, b).
Expr allPairs(const Fun& f, Expr x, Expr y);
// The row function of the zip-reduce form allPairs(r, z) (SkelCL's AllPairs(sum, mult)):
// fun((a, b) => r o map(z) $ zip(a, b)), r a reduction, z a function of two scalars.
// The call of r gets r's position in `locs`, if given.
Fun allPairsZipReduce(const Callable& r, const Callable& z, LocationMap* locs = nullptr);

// An allPairs nest found at a call: map(fun(a => map(fun(b => body)) $ Y)) $ X with plain maps
// and Y not mentioning a. `reduction` and `zipFun` are set where body is the zip-reduce form
// r o map(z) $ zip(a, b) of the untyped parameters a and b, r a reduction whose function and
// initial value mention neither (its call, Reduce(f)(init, ...)) and z a user function.
struct AllPairsMatch {
  const CallNode* outer = nullptr;   // map(fun(a => ...)) $ X
  const LambdaNode* rows = nullptr;  // fun(a => map(fun(b => body)) $ Y)
  const CallNode* inner = nullptr;   // map(fun(b => body)) $ Y
  const LambdaNode* cols = nullptr;  // fun(b => body)
  const CallNode* reduction = nullptr;
  const UserFunNode* zipFun = nullptr;
  const Expr& x() const;
  const Expr& y() const;
  const Param& a() const;
  const Param& b() const;
  const Expr& body() const;
  // The text of the zip-reduce form when both its functions are named and its initial value a
  // literal ("allPairs(reduce(add, 0.0f), mult)"), else "allPairs(λ a, b)": the graph's label.
  std::string label() const;
};
std::optional<AllPairsMatch> matchAllPairs(const CallNode& outer);

// The names of the prelude functions, reserved like the patterns' ("slide2D", "pad2D",
// "allPairs").
const std::vector<std::string>& preludeNames();

}  // namespace lift::ir
