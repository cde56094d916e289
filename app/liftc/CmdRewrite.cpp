// liftc rewrite FILE.lift --apply RULE@LOC[:PARAMS] ... [--strategy S [--at LOC]] [--check] [-o OUT]:
// applies rewrites (and strategies) in the order given and prints the result. --check runs the
// original and the result in the interpreter on random inputs and compares them (exit 1 when
// they differ). An unknown rule, a missing location, a rule that does not apply there or a bad
// parameter is an error (exit 2) that says which and why.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "app/liftc/Command.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "core/support/FileWrite.h"
#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"
#include "rewrite/Strategy.h"

namespace lift::liftc {
namespace {

using namespace lift::rewrite;

int runRewrite(const Args& args) {
  if (args.positional.size() != 1)
    throw LiftError("usage: liftc rewrite FILE.lift --apply RULE@LOC[:PARAMS] ... [--check]");
  // Parse every step before doing anything, so a typo is reported at once.
  struct Item {
    std::string text;
    std::optional<RewriteStep> rewrite;
    std::optional<Strategy> strategy;
    Location focus = Location::body();
  };
  std::vector<Item> items;
  Location focus = Location::body();
  for (auto& [k, v] : args.options) {
    if (k == "--apply") {
      items.push_back({v, RewriteStep::parse(v), std::nullopt, focus});
    } else if (k == "--at") {
      auto loc = Location::parse(v);
      if (!loc)
        throw LiftError(fmt::format("bad location '{}' for --at: expected dot-separated child indices", v));
      focus = *loc;
    } else if (k == "--strategy") {
      items.push_back({v, std::nullopt, parseStrategy(v), focus});
    }
  }
  if (items.empty()) throw LiftError("nothing to do: give --apply RULE@LOC[:PARAMS] or --strategy S");

  TypedProgram start = TypedProgram::check(lang::parseFile(args.positional[0]));
  TypedProgram cur = start;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.rewrite) {
      RewriteResult r = applyRewrite(cur, *it.rewrite);
      if (!r) throw LiftError(fmt::format("step {} ({}): {}", i + 1, it.text, r.message));
      cur = std::move(*r.program);
    } else {
      StrategyResult r = runStrategy(*it.strategy, cur, it.focus);
      if (!r)
        throw LiftError(
            fmt::format("step {} (strategy {}): the strategy failed: {}", i + 1, it.text, r.reason));
      if (!r.state->stopReason().empty())
        std::fprintf(stderr, "liftc rewrite: note: strategy %s stopped: %s\n", it.text.c_str(),
                     r.state->stopReason().c_str());
      if (args.has("--trace"))
        for (auto& s : r.state->trace()) std::fprintf(stderr, "  %s\n", s.spec().c_str());
      cur = r.state->typed();
    }
  }
  std::string text = lang::printProgram(cur.program);
  if (args.has("-o")) {
    writeFileAtomically(args.get("-o"), text);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  if (args.has("--check")) {
    EquivalenceReport rep = checkEquivalence(start.program, cur.program);
    if (!rep) {
      std::fprintf(stderr, "liftc rewrite: check failed: %s\n", rep.message.c_str());
      return rep.equal ? kExitError : kExitWrong;
    }
    std::fprintf(stderr, "check: %s\n", rep.message.c_str());
  }
  return kExitOk;
}

const CommandRegistration registration(Command{"rewrite",
                                               "rewrite FILE.lift --apply RULE@LOC[:PARAMS] ... [--strategy "
                                               "S] [--at LOC] [--check] [-o OUT.lift]   apply "
                                               "rewrites, print the result",
                                               {"--check", "--trace"},
                                               {"--apply", "--strategy", "--at", "-o"},
                                               &runRewrite});

}  // namespace
}  // namespace lift::liftc
