// liftc print FILE.lift: parses a program and prints it in the canonical layout (the output
// parses back to the same program). With --check, type-checks it first.
#include <cstdio>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

namespace lift::liftc {
namespace {

struct PrintArgs {
  std::string file;
  bool check = false;
};

int runPrint(const PrintArgs& args) {
  ir::Program p = lang::parseFile(args.file);
  if (args.check) ir::typeCheck(p);
  std::fputs(lang::printProgram(p).c_str(), stdout);
  return kExitOk;
}

const CommandRegistration registration(Command{
    "print", "pretty-print a program (the output parses back to the same program)", [](CLI::App& cmd) {
      auto args = std::make_shared<PrintArgs>();
      addProgramArgument(cmd, args->file);
      cmd.add_flag("--check", args->check, "type-check it first");
      return [args] { return runPrint(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
