// liftc rewrite FILE.lift --apply RULE@LOC[:PARAMS] ... [--strategy S [--at LOC]] [--size N=..]
// [--check] [-o OUT]: applies rewrites (and strategies) in the order given and prints the result;
// with --size, to the program at those sizes (as `liftc rules --size` lists them: a tiling whose
// factor does not provably divide a symbolic size applies at a size it divides). --check runs the
// original and the result in the interpreter on random inputs and compares them (exit 1 when
// they differ). An unknown rule, a missing location, a rule that does not apply there or a bad
// parameter is an error (exit 2) that says which and why.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <tuple>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "core/support/Elided.h"
#include "core/support/FileWrite.h"
#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"
#include "rewrite/Strategy.h"

namespace lift::liftc {
namespace {

using namespace lift::rewrite;

struct RewriteArgs {
  std::string file, output;
  // --apply, --strategy and --at as given, in order (--at sets the focus of the strategies after it).
  std::vector<std::pair<std::string, std::string>> steps;
  bool check = false, trace = false;
  arith::Env sizes;
};

int runRewrite(const RewriteArgs& args) {
  // Parse every step before doing anything, so a typo is reported at once.
  struct Item {
    std::string text;
    std::optional<RewriteStep> rewrite;
    std::optional<Strategy> strategy;
    Location focus = Location::body();
  };
  std::vector<Item> items;
  Location focus = Location::body();
  for (auto& [k, v] : args.steps) {
    if (k == "--apply") {
      items.push_back({v, RewriteStep::parse(v), std::nullopt, focus});
    } else if (k == "--at") {
      auto loc = Location::parse(v);
      if (!loc)
        badArgument("--at",
                    fmt::format("bad location '{}': expected dot-separated child indices", elided(v)));
      focus = *loc;
    } else if (k == "--strategy") {
      items.push_back({v, std::nullopt, parseStrategy(v), focus});
    }
  }
  if (items.empty()) badUsage("nothing to do: give --apply RULE@LOC[:PARAMS] or --strategy S");

  TypedProgram start = TypedProgram::check(specializeGivenSizes(lang::parseFile(args.file), args.sizes));
  TypedProgram cur = start;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.rewrite) {
      RewriteResult r = applyRewrite(cur, *it.rewrite);
      if (!r) throw LiftError(fmt::format("step {} ({}): {}", i + 1, elided(it.text), r.message));
      cur = std::move(*r.program);
    } else {
      StrategyResult r = runStrategy(*it.strategy, cur, it.focus);
      if (!r)
        throw LiftError(
            fmt::format("step {} (strategy {}): the strategy failed: {}", i + 1, it.text, r.reason));
      if (!r.state->stopReason().empty())
        std::fprintf(stderr, "liftc rewrite: note: strategy %s stopped: %s\n", it.text.c_str(),
                     r.state->stopReason().c_str());
      if (args.trace)
        for (auto& s : r.state->trace()) std::fprintf(stderr, "  %s\n", s.spec().c_str());
      cur = r.state->typed();
    }
  }
  // The sizes given are constants in the result: their declarations go.
  std::string text = lang::printProgram(withoutGivenSizes(cur.program, args.sizes));
  if (!args.output.empty()) {
    writeFileAtomically(args.output, text);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  if (args.check) {
    EquivalenceReport rep = checkEquivalence(start.program, cur.program);
    if (!rep) {
      std::fprintf(stderr, "liftc rewrite: check failed: %s\n", rep.message.c_str());
      return rep.equal ? kExitError : kExitWrong;
    }
    std::fprintf(stderr, "check: %s\n", rep.message.c_str());
  }
  return kExitOk;
}

const CommandRegistration registration(Command{
    "rewrite", "apply rewrites and strategies in the order given; print the result", [](CLI::App& cmd) {
      auto args = std::make_shared<RewriteArgs>();
      addProgramArgument(cmd, args->file);
      // Each in its place among the others: every occurrence is collected as it is parsed.
      for (auto [name, type, help] :
           {std::tuple{"--apply", "RULE@LOC[:PARAMS]", "apply a rewrite (as `liftc rules FILE` lists them)"},
            std::tuple{"--strategy", "S", "run a strategy (at the location of the last --at)"},
            std::tuple{"--at", "LOC", "where the strategies after it start (default: the body)"}}) {
        std::string option = name;
        cmd.add_option_function<std::vector<std::string>>(
               option,
               [args, option](const std::vector<std::string>& values) {
                 for (const std::string& v : values) args->steps.emplace_back(option, v);
               },
               help)
            ->type_name(type)
            ->trigger_on_parse();
      }
      cmd.add_option("-o", args->output, "write the result to this file instead of standard output")
          ->type_name("OUT.lift");
      cmd.add_flag("--check", args->check,
                   "compare the original and the result in the interpreter on random inputs (exit 1 when "
                   "they differ)");
      cmd.add_flag("--trace", args->trace, "print the rewrites each strategy applied to stderr");
      addSizeOption(cmd, args->sizes, "256")
          ->description(
              fmt::format("rewrite the program at these sizes (they become constants; otherwise symbolic, "
                          "and a factor that does not provably divide them is refused), e.g. M=256,N=256 "
                          "(repeatable); each from 1 to {}",
                          interp::kMaxSize))
          ->allow_extra_args(false);
      return [args] { return runRewrite(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
