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

void parseSizes(const std::string& text, arith::Env& into) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw LiftError(fmt::format("bad size '{}': expected NAME=VALUE", item));
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    char* end = nullptr;
    long long v = std::strtoll(value.c_str(), &end, 10);
    if (*end || v < 1)
      throw LiftError(fmt::format("bad size '{}': the value must be a positive integer", item));
    into[name] = v;
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

// ir::structuralHash identifies programs up to renaming within a process, but it hashes uniqued
// nodes (lengths, types) by address, so it differs between runs: the store needs a hash that
// another process and another machine compute alike, that of the printed program.
std::string programHash(const ir::Program& p) { return hashText(lang::printProgram(p)); }

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
