// liftc derive DERIVATION [-o OUT.lift] [--size N=..] [--check] [--trace] [--flatten OUT.derivation]:
// replays a derivation file (it names its starting program) and prints or writes the result;
// with --size, from the program at those sizes (as `liftc rewrite --size`: a tiling whose factor
// does not provably divide a symbolic size applies at a size it divides). --check compares the
// result with the starting program in the interpreter; --trace prints each step; --flatten writes
// the same derivation with strategies expanded into their rewrites.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "core/support/FileWrite.h"
#include "rewrite/Derivation.h"
#include "rewrite/Equivalence.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::liftc {
namespace {

using namespace lift::rewrite;

struct DeriveArgs {
  std::string file, output, flatten;
  bool check = false, trace = false;
  arith::Env sizes;
};

int runDerive(const DeriveArgs& args) {
  Derivation d = Derivation::load(args.file);
  bool trace = args.trace;
  TypedProgram start =
      TypedProgram::check(specializeGivenSizes(lang::parseFile(d.programPath()), args.sizes));
  ReplayResult r = replay(d, start, [&](const ReplayedStep& s) {
    if (!trace) return;
    std::fprintf(stderr, "%s\n", s.step->text().c_str());
    if (s.applied.size() > 1 || s.step->kind == DerivationStep::Kind::Strategy)
      for (auto& a : s.applied) std::fprintf(stderr, "    %s\n", a.spec().c_str());
  });
  // The sizes given are constants in the result: their declarations go.
  std::string text = lang::printProgram(withoutGivenSizes(r.result.program, args.sizes));
  if (!args.output.empty()) {
    writeFileAtomically(args.output, text);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  if (!args.flatten.empty()) {
    Derivation flat;
    flat.header = d.header;
    flat.header.push_back("flattened: every strategy expanded into its rewrites");
    if (!args.sizes.empty())
      flat.header.push_back("at sizes " + explore::formatSizes(args.sizes) +
                            ": replay with liftc derive --size " + explore::formatSizes(args.sizes));
    // The program path as seen from where the flattened file goes.
    std::filesystem::path out = std::filesystem::absolute(args.flatten).parent_path();
    flat.program = std::filesystem::relative(d.programPath(), out).string();
    for (auto& s : r.flattened())
      flat.steps.push_back({DerivationStep::Kind::Rewrite, s, "", Location::body(), "", 0});
    flat.save(args.flatten);
  }
  if (args.check) {
    EquivalenceReport rep = checkEquivalence(r.start.program, r.result.program);
    if (!rep) {
      std::fprintf(stderr, "liftc derive: check failed: %s\n", rep.message.c_str());
      return rep.equal ? kExitError : kExitWrong;
    }
    std::fprintf(stderr, "check: %s\n", rep.message.c_str());
  }
  return kExitOk;
}

const CommandRegistration registration(Command{
    "derive", "replay a derivation file and print or write the program it derives", [](CLI::App& cmd) {
      auto args = std::make_shared<DeriveArgs>();
      cmd.add_option("DERIVATION", args->file, "the .derivation file (it names its starting program)")
          ->required()
          ->type_name("");
      cmd.add_option("-o", args->output, "write the result to this file instead of standard output")
          ->type_name("OUT.lift");
      cmd.add_flag("--check", args->check, "compare the result with the starting program in the interpreter");
      cmd.add_flag("--trace", args->trace, "print each step (and a strategy's rewrites) to stderr");
      cmd.add_option("--flatten", args->flatten, "also write the derivation with strategies expanded")
          ->type_name("OUT.derivation");
      addSizeOption(cmd, args->sizes, "256")
          ->description(fmt::format(
              "replay from the program at these sizes (they become constants; otherwise symbolic, "
              "and a factor that does not provably divide them is refused), e.g. M=256,N=256 "
              "(repeatable); each from 1 to {}",
              interp::kMaxSize))
          ->allow_extra_args(false);
      return [args] { return runDerive(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
