// The program and sizes of a search (see SearchProblem.h).
#include "rewrite/explore/SearchProblem.h"

#include <fmt/format.h>

#include "core/interp/Sizes.h"
#include "core/lang/Printer.h"
#include "rewrite/explore/ResultStore.h"

namespace lift::explore {

std::string formatSizes(const arith::Env& sizes) {
  std::string out;
  for (auto& [name, value] : sizes) out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, value);
  return out;
}

// ir::structuralHash identifies programs up to renaming within a process, but it hashes uniqued
// nodes (lengths, types) by address, so it differs between runs: the store needs a hash that
// another process and another machine compute alike, that of the printed program.
std::string programHash(const ir::Program& p) {
  return hashText(lang::printProgram(p, {.allPairsByName = false}));
}

SearchProblem SearchProblem::make(const ir::Program& program, const arith::Env& sizes) {
  SearchProblem s;
  s.original = program;
  for (auto& decl : program.sizes)
    if (!sizes.count(decl.name))
      throw LiftError(fmt::format("no value for the size {} of '{}' (give it with --size {}=...)", decl.name,
                                  program.name, decl.name));
  for (auto& [name, value] : sizes)
    if (program.findSize(name)) s.sizes[name] = value;
  if (auto problem = interp::sizeProblem(program, s.sizes)) throw LiftError(*problem);
  s.start = std::make_shared<const rewrite::TypedProgram>(
      rewrite::TypedProgram::check(interp::specialize(program, s.sizes)));
  s.name = program.name;
  s.sizesText = formatSizes(s.sizes);
  s.startHash = programHash(s.start->program);
  return s;
}

}  // namespace lift::explore
