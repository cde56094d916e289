// The programs of AllPairs: the language's allPairs(f)(A, transpose(B)) around the caller's row
// function, the kernel's nest built around the parameters and body of the parsed one, errors
// mapped back into the caller's text, the kernel's row function lowered by rewriting.
#include "skelcl/AllPairsProgram.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "codegen/Compiler.h"
#include "core/ir/Prelude.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Lexer.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "core/support/Diagnostic.h"
#include "rewrite/Strategy.h"

namespace lift::skelcl {

namespace {

// The high-level program's text and where the caller's texts lie in it.
struct Generated {
  std::string text;
  size_t at[2] = {0, 0};  // where the definitions and the row function begin
  size_t nest = 0;        // where allPairs(...)(A, transpose(B)) begins
};

// size N, M, D; the definitions; then allPairs(f)(A, transpose(B)) with the row function as
// given (on a line of its own after it, so that a comment ending it ends there).
Generated searchProgram(const AllPairsFunction& f, const AllPairsTypes& types, const std::string& rowFile) {
  // The inputs are named as no identifier of the row function is: its body cannot name them (an
  // unknown name, as any other).
  std::set<std::string> names;
  for (lang::Lexer lx(f.rowFunction, rowFile);;) {
    const lang::Token t = lx.next();
    if (t.kind == lang::Tok::End) break;
    if (t.kind == lang::Tok::Ident) names.emplace(t.text);
  }
  std::string left = "A", right = "B";
  while (names.contains(left)) left += "_";
  while (names.contains(right)) right += "_";
  Generated g;
  g.text = "size N, M, D;\n";
  g.at[0] = g.text.size();
  g.text += f.definitions + fmt::format("\nfun skelcl_allpairs({}: [[{}]D]N, {}: [[{}]M]D) =\n  ", left,
                                        types.left, right, types.right);
  g.nest = g.text.size();
  g.text += "allPairs(";
  g.at[1] = g.text.size();
  g.text += f.rowFunction + fmt::format("\n  )({}, transpose({}))\n", left, right);
  return g;
}

// Throws `e` located in the caller's text where its position lies in the definitions or in the
// row function, or in the nest around it, which only the row function can have broken (located at
// its start, or at its end for an error after it); else rethrows it as it is.
[[noreturn]] void relocate(const LiftError& e, const Generated& g, const AllPairsFunction& f,
                           const std::string (&files)[2]) {
  const Diagnostic& d = e.diagnostic();
  if (d.loc.known()) {
    size_t offset = 0;
    for (int line = 1; line < d.loc.line && offset < g.text.size(); ++offset)
      if (g.text[offset] == '\n') ++line;
    offset += static_cast<size_t>(d.loc.col - 1);
    const bool definitions = offset >= g.at[0] && offset <= g.at[0] + f.definitions.size();
    if (definitions || offset >= g.nest) {
      const std::string& source = definitions ? f.definitions : f.rowFunction;
      const size_t at =
          definitions ? offset - g.at[0] : std::clamp(offset, g.at[1], g.at[1] + source.size()) - g.at[1];
      const auto [line, col] = lineColOf(source, at);
      throw LiftError(makeDiagnostic(files[definitions ? 0 : 1], source, line, col, d.message));
    }
  }
  throw e;
}

// The kernel's program: the search program's nest with mapGlb for map, the result copied to
// global memory, around the same parameters and body:
//   mapGlb1(fun(a => join o mapGlb0(fun(b => toGlobal(mapSeq(id)) $ body)) $ Y)) $ X
// (a scalar result: toGlobal(id), no join). The body keeps its source positions.
ir::Program kernelProgram(const ir::Program& search, const ir::AllPairsMatch& m, bool scalar) {
  ir::Expr copied = ir::call(ir::toGlobal(scalar ? ir::id() : ir::mapSeq(ir::id())), {m.body()});
  ir::Expr row = ir::call(ir::mapGlb(ir::lambda({m.b()}, copied), 0), {m.y()});
  if (!scalar) row = ir::call(ir::join(), {row});
  ir::Program kernel = search;
  kernel.main =
      ir::LambdaNode::make(search.main->params(), ir::call(ir::mapGlb(ir::lambda({m.a()}, row), 1), {m.x()}));
  return kernel;
}

}  // namespace

AllPairsProgram makeAllPairsProgram(const std::string& what, const AllPairsFunction& f,
                                    const AllPairsTypes& types) {
  const std::string files[2] = {what + " definitions", what + " row function"};
  const Generated search = searchProgram(f, types, files[1]);
  AllPairsProgram out;
  out.searchText = search.text;
  ir::Program program;
  Type element;
  try {
    program = lang::parseProgram(search.text, what);
    element = ir::typeCheck(program).resultType.elem().elem();
  } catch (const LiftError& e) {
    relocate(e, search, f, files);
  }
  const ir::CallNode* nest = ir::asCall(program.main->body());
  const std::optional<ir::AllPairsMatch> m = nest ? ir::matchAllPairs(*nest) : std::nullopt;
  const ir::CallNode* y = m ? ir::asCall(m->y()) : nullptr;
  if (!m || m->x().get() != program.main->params()[0].get() || !y || y->args().size() != 1 ||
      y->args()[0].get() != program.main->params()[1].get())  // text after the row function made another
    throw LiftError(
        makeDiagnostic(files[1], f.rowFunction, 1, 1,
                       "the row function must be one function of two parameters, fun((a, b) => ...)"));
  const Type r = lang::parseType(types.result, {});
  if (element == r) {
    out.scalarResult = true;
  } else if (element != Type::array(r, arith::cst(1))) {
    relocate(LiftError(program.diagnosticAt(
                 m->body()->id(), fmt::format("the row function gives {}; {} needs {} or [{}]1",
                                              element.toString(), what, types.result, types.result))),
             search, f, files);
  }
  out.search = program;
  const ir::Program kernel = kernelProgram(program, *m, out.scalarResult);
  out.kernelText = lang::printProgram(kernel);
  try {
    const rewrite::Strategy lower = rewrite::parseStrategy(
        "normalise(reduce-map-fusion <+ map-fusion <+ reduce-to-seq <+ map-to-seq <+ scan-to-seq)");
    rewrite::StrategyResult lowered = rewrite::runStrategy(lower, rewrite::TypedProgram::check(kernel));
    if (!lowered)
      throw LiftError(fmt::format("{}: lowering the row function failed: {}", what, lowered.reason));
    if (!lowered.state->stopReason().empty())
      throw LiftError(
          fmt::format("{}: lowering the row function stopped: {}", what, lowered.state->stopReason()));
    out.kernel = lowered.state->program();
    out.compiled = codegen::compileKernel(out.kernel);
  } catch (const LiftError& e) {
    relocate(e, search, f, files);
  }
  return out;
}

AllPairsFunction zipReduceRowFunction(UserFunction zip, UserFunction reduce, const std::string& identity) {
  zip.name = "zipped";
  reduce.name = "reduced";
  return {zip.liftText() + "\n" + reduce.liftText(),
          fmt::format("fun((a, b) => reduce(reduced, {}) o map(zipped) $ zip(a, b))", identity)};
}

}  // namespace lift::skelcl
