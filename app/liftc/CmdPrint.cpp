// liftc print FILE.lift: parses a program and prints it in the canonical layout (the output
// parses back to the same program). With --check, type-checks it first.
#include <cstdio>

#include "app/liftc/Command.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

namespace lift::liftc {
namespace {

int runPrint(const Args& args) {
  if (args.positional.size() != 1) throw LiftError("usage: liftc print FILE.lift");
  ir::Program p = lang::parseFile(args.positional[0]);
  if (args.has("--check")) ir::typeCheck(p);
  std::fputs(lang::printProgram(p).c_str(), stdout);
  return kExitOk;
}

const CommandRegistration registration(Command{
    "print",
    "print FILE.lift [--check]   pretty-print (round-trips through the parser)",
    {"--check"},
    {},
    &runPrint});

}  // namespace
}  // namespace lift::liftc
