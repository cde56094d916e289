// The programs of AllPairs: the row function taken apart, the nests written around it, errors
// mapped back into the caller's text, the kernel's row function lowered by rewriting.
#include "skelcl/AllPairsProgram.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <vector>

#include "codegen/Compiler.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Lexer.h"
#include "core/lang/Parser.h"
#include "core/support/Diagnostic.h"
#include "rewrite/Strategy.h"

namespace lift::skelcl {

namespace {

// The row function fun((P, Q) => BODY) taken apart: offsets into its text.
struct Span {
  size_t begin = 0, end = 0;
  std::string of(const std::string& text) const { return text.substr(begin, end - begin); }
};
struct RowParts {
  Span params[2];  // "a" or "a: [float]D"
  Span body;
  std::set<std::string> names;  // every identifier in the row function
};

RowParts takeApart(const std::string& text, const std::string& file) {
  lang::Lexer lx(text, file);
  RowParts parts;
  for (lang::Lexer all(text, file);;) {
    const lang::Token t = all.next();
    if (t.kind == lang::Tok::End) break;
    if (t.kind == lang::Tok::Ident) parts.names.emplace(t.text);
  }
  const auto expect = [&](lang::Tok kind, const char* what) {
    lang::Token t = lx.next();
    if (t.kind != kind)
      lx.error(t, fmt::format("expected {} (a row function is fun((a, b) => ...)), found {}", what,
                              lang::describe(t)));
    return t;
  };
  const lang::Token fun = lx.next();
  if (fun.kind != lang::Tok::Ident || fun.text != "fun")
    lx.error(fun, fmt::format("expected 'fun' (a row function is fun((a, b) => ...)), found {}",
                              lang::describe(fun)));
  expect(lang::Tok::LParen, "'('");
  const lang::Token open = lx.next();
  if (open.kind != lang::Tok::LParen)
    lx.error(open, "the row function takes two parameters, a row of A and a column of B: fun((a, b) => ...)");
  size_t count = 0;
  for (bool more = true; more;) {
    const lang::Token name = lx.next();
    if (name.kind != lang::Tok::Ident)
      lx.error(name, fmt::format("expected a parameter, found {}", lang::describe(name)));
    if (count == 2)
      lx.error(name,
               "the row function takes two parameters, a row of A and a column of B: fun((a, b) => ...)");
    Span& span = parts.params[count];
    span.begin = name.offset;
    span.end = name.offset + name.text.size();
    int depth = 0;
    for (;;) {  // an optional type, up to ',' or ')' outside brackets
      const lang::Token& t = lx.peek();
      if (t.kind == lang::Tok::End) lx.error(t, "the parameter list has no ')'");
      if (depth == 0 && (t.kind == lang::Tok::Comma || t.kind == lang::Tok::RParen)) {
        more = t.kind == lang::Tok::Comma;
        lx.next();
        break;
      }
      if (t.kind == lang::Tok::LParen || t.kind == lang::Tok::LBracket) ++depth;
      if (t.kind == lang::Tok::RParen || t.kind == lang::Tok::RBracket) --depth;
      span.end = t.offset + t.text.size();
      lx.next();
    }
    ++count;
  }
  if (count != 2)
    lx.error(open, "the row function takes two parameters, a row of A and a column of B: fun((a, b) => ...)");
  expect(lang::Tok::FatArrow, "'=>'");
  parts.body.begin = lx.peek().offset;
  parts.body.end = parts.body.begin;
  int depth = 0;
  for (;;) {  // the body, up to the lambda's ')'
    const lang::Token t = lx.next();
    if (t.kind == lang::Tok::End) lx.error(t, "the row function has no ')' after its body");
    if (t.kind == lang::Tok::LParen || t.kind == lang::Tok::LBracket || t.kind == lang::Tok::LBrace) ++depth;
    if (t.kind == lang::Tok::RParen || t.kind == lang::Tok::RBracket || t.kind == lang::Tok::RBrace) {
      if (depth == 0 && t.kind == lang::Tok::RParen) break;
      --depth;
    }
    parts.body.end = t.offset + t.text.size();
  }
  if (parts.body.end == parts.body.begin) lx.error(lx.peek(), "the row function has no body");
  const lang::Token& rest = lx.peek();
  if (rest.kind != lang::Tok::End)
    lx.error(rest, fmt::format("{} after the row function", lang::describe(rest)));
  return parts;
}

// A generated program and where the caller's texts lie in it.
struct Segment {
  size_t at = 0;              // in the generated text
  size_t from = 0, size = 0;  // in the caller's text
  int source = 0;             // 0: the definitions, 1: the row function
};
struct Generated {
  std::string text;
  std::vector<Segment> segments;
  void add(const std::string& s) { text += s; }
  void add(const std::string& source, Span span, int which) {
    segments.push_back({text.size(), span.begin, span.end - span.begin, which});
    text += span.of(source);
  }
};

// Throws `e` located in the caller's text where its position lies in one of `g`'s segments, else
// rethrows it as it is.
[[noreturn]] void relocate(const LiftError& e, const Generated& g, const AllPairsFunction& f,
                           const std::string (&files)[2]) {
  const Diagnostic& d = e.diagnostic();
  if (d.loc.known()) {
    size_t offset = 0;
    for (int line = 1; line < d.loc.line && offset < g.text.size(); ++offset)
      if (g.text[offset] == '\n') ++line;
    offset += static_cast<size_t>(d.loc.col - 1);
    for (const Segment& s : g.segments)
      if (offset >= s.at && offset <= s.at + s.size) {
        const std::string& source = s.source == 0 ? f.definitions : f.rowFunction;
        const auto [line, col] = lineColOf(source, s.from + (offset - s.at));
        throw LiftError(makeDiagnostic(files[s.source], source, line, col, d.message));
      }
  }
  throw e;
}

// The nest around the row function's body. `lowered`: the kernel's (mapGlb, the result copied
// to global memory), else the high-level program.
Generated nest(const AllPairsFunction& f, const RowParts& row, const AllPairsTypes& types, bool lowered,
               bool scalar) {
  // The inputs are named as no identifier of the row function is: its parameters do not hide
  // them, and its body cannot name them (an unknown name, as any other).
  std::string left = "A", right = "B";
  while (row.names.contains(left)) left += "_";
  while (row.names.contains(right)) right += "_";
  Generated g;
  g.add("size N, M, D;\n");
  g.add(f.definitions, Span{0, f.definitions.size()}, 0);
  g.add(fmt::format("\nfun skelcl_allpairs({}: [[{}]D]N, {}: [[{}]M]D) =\n  {}(fun(", left, types.left, right,
                    types.right, lowered ? "mapGlb1" : "map"));
  g.add(f.rowFunction, row.params[0], 1);
  if (!lowered) {
    g.add(" => map(fun(");
    g.add(f.rowFunction, row.params[1], 1);
    g.add(" => ");
    g.add(f.rowFunction, row.body, 1);
    g.add(fmt::format(")) $ transpose({}))) $ {}\n", right, left));
    return g;
  }
  g.add(scalar ? " => mapGlb0(fun(" : " => join o mapGlb0(fun(");
  g.add(f.rowFunction, row.params[1], 1);
  g.add(scalar ? " =>\n    toGlobal(id) $ (" : " =>\n    toGlobal(mapSeq(id)) $ (");
  g.add(f.rowFunction, row.body, 1);
  g.add(fmt::format(")\n  )) $ transpose({}))) $ {}\n", right, left));
  return g;
}

}  // namespace

AllPairsProgram makeAllPairsProgram(const std::string& what, const AllPairsFunction& f,
                                    const AllPairsTypes& types) {
  const std::string files[2] = {what + " definitions", what + " row function"};
  const RowParts row = takeApart(f.rowFunction, files[1]);
  AllPairsProgram out;
  Type element;
  {
    const Generated search = nest(f, row, types, false, false);
    out.searchText = search.text;
    try {
      element = ir::typeCheck(lang::parseProgram(search.text, what)).resultType.elem().elem();
    } catch (const LiftError& e) {
      relocate(e, search, f, files);
    }
  }
  const Type r = lang::parseType(types.result, {});
  if (element == r) {
    out.scalarResult = true;
  } else if (element != Type::array(r, arith::cst(1))) {
    const auto [line, col] = lineColOf(f.rowFunction, row.body.begin);
    throw LiftError(makeDiagnostic(files[1], f.rowFunction, line, col,
                                   fmt::format("the row function gives {}; {} needs {} or [{}]1",
                                               element.toString(), what, types.result, types.result)));
  }
  const Generated kernel = nest(f, row, types, true, out.scalarResult);
  out.kernelText = kernel.text;
  try {
    const rewrite::Strategy lower = rewrite::parseStrategy(
        "normalise(reduce-map-fusion <+ map-fusion <+ reduce-to-seq <+ map-to-seq <+ scan-to-seq)");
    rewrite::StrategyResult lowered =
        rewrite::runStrategy(lower, rewrite::TypedProgram::check(lang::parseProgram(kernel.text, what)));
    if (!lowered)
      throw LiftError(fmt::format("{}: lowering the row function failed: {}", what, lowered.reason));
    if (!lowered.state->stopReason().empty())
      throw LiftError(
          fmt::format("{}: lowering the row function stopped: {}", what, lowered.state->stopReason()));
    out.kernel = lowered.state->program();
    out.compiled = codegen::compileKernel(out.kernel);
  } catch (const LiftError& e) {
    relocate(e, kernel, f, files);
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
