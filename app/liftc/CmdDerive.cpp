// liftc derive DERIVATION [-o OUT.lift] [--check] [--trace] [--flatten OUT.derivation]: replays
// a derivation file (it names its starting program) and prints or writes the result. --check
// compares the result with the starting program in the interpreter; --trace prints each step;
// --flatten writes the same derivation with strategies expanded into their rewrites.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/liftc/Command.h"
#include "core/lang/Printer.h"
#include "core/support/FileWrite.h"
#include "rewrite/Derivation.h"
#include "rewrite/Equivalence.h"

namespace lift::liftc {
namespace {

using namespace lift::rewrite;

int runDerive(const Args& args) {
  if (args.positional.size() != 1) throw LiftError("usage: liftc derive DERIVATION [-o OUT.lift] [--check]");
  Derivation d = Derivation::load(args.positional[0]);
  bool trace = args.has("--trace");
  ReplayResult r = replay(d, [&](const ReplayedStep& s) {
    if (!trace) return;
    std::fprintf(stderr, "%s\n", s.step->text().c_str());
    if (s.applied.size() > 1 || s.step->kind == DerivationStep::Kind::Strategy)
      for (auto& a : s.applied) std::fprintf(stderr, "    %s\n", a.spec().c_str());
  });
  std::string text = lang::printProgram(r.result.program);
  if (args.has("-o")) {
    writeFileAtomically(args.get("-o"), text);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  if (args.has("--flatten")) {
    Derivation flat;
    flat.header = d.header;
    flat.header.push_back("flattened: every strategy expanded into its rewrites");
    // The program path as seen from where the flattened file goes.
    std::filesystem::path out = std::filesystem::absolute(args.get("--flatten")).parent_path();
    flat.program = std::filesystem::relative(d.programPath(), out).string();
    for (auto& s : r.flattened())
      flat.steps.push_back({DerivationStep::Kind::Rewrite, s, "", Location::body(), "", 0});
    flat.save(args.get("--flatten"));
  }
  if (args.has("--check")) {
    EquivalenceReport rep = checkEquivalence(r.start.program, r.result.program);
    if (!rep) {
      std::fprintf(stderr, "liftc derive: check failed: %s\n", rep.message.c_str());
      return rep.equal ? kExitError : kExitWrong;
    }
    std::fprintf(stderr, "check: %s\n", rep.message.c_str());
  }
  return kExitOk;
}

const CommandRegistration registration(Command{"derive",
                                               "derive DERIVATION [-o OUT.lift] [--check] [--trace] "
                                               "[--flatten OUT.derivation]   replay a derivation file",
                                               {"--check", "--trace"},
                                               {"-o", "--flatten"},
                                               &runDerive});

}  // namespace
}  // namespace lift::liftc
