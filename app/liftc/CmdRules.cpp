// liftc rules: the rewrite rules. `liftc rules FILE.lift` lists every applicable rewrite, one a
// line, whose first column RULE@LOC[:PARAMS] is what `liftc rewrite --apply` takes;
// `--at LOC` shows every rule at one location (with the reason for those that do not apply);
// `--locations` lists every location with its node and type; `--all` lists the library (NAME  FAMILY  lhs =>
// rhs); `--markdown` prints docs/RULES.md. `--size N=..,M=..` (as `liftc explore --size`) judges the
// rules at those sizes: the program's sizes are symbolic otherwise, and a tiling factor then does
// not provably divide a length such as M.
#include <fmt/format.h>

#include <cstdio>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/lang/Parser.h"
#include "core/support/Elided.h"
#include "rewrite/Engine.h"
#include "rewrite/RuleDocs.h"

namespace lift::liftc {
namespace {

using namespace lift::rewrite;

struct RulesArgs {
  std::string file, at;
  std::vector<std::string> families;
  arith::Env sizes;
  bool all = false, markdown = false, noMacros = false, allParams = false, verbose = false, locations = false;
};

std::vector<Family> parseFamilies(const RulesArgs& args) {
  std::vector<Family> fams;
  for (auto& f : args.families) {
    auto fam = familyByName(f);
    if (!fam) {
      std::string names;
      for (Family g : allFamilies()) names += (names.empty() ? "" : ", ") + std::string(familyName(g));
      badArgument("--family", fmt::format("unknown rule family '{}' (families: {})", f, names));
    }
    fams.push_back(*fam);
  }
  return fams;
}

int runRules(const RulesArgs& args) {
  const RuleRegistry& reg = RuleRegistry::instance();
  if (args.markdown) {
    std::fputs(rulesMarkdown(reg).c_str(), stdout);
    return kExitOk;
  }
  if (args.all) {
    if (!args.file.empty()) badUsage("--all takes no FILE.lift");
    std::vector<Family> fams = parseFamilies(args);
    if (fams.empty()) {
      std::fputs(rulesListing(reg).c_str(), stdout);
    } else {
      for (Family f : fams)
        for (const Rule* r : reg.family(f))
          std::printf("%s  %s  %s\n", r->name.c_str(), std::string(familyName(f)).c_str(),
                      r->display().c_str());
    }
    return kExitOk;
  }
  if (args.file.empty()) badUsage("expected one FILE.lift (or --all, or --markdown)");
  TypedProgram p = TypedProgram::check(specializeGivenSizes(lang::parseFile(args.file), args.sizes));

  if (args.locations) {
    // Every location with what is there, indented by depth, e.g. for choosing where to --apply.
    std::vector<LocatedNode> all = allLocations(p.main());
    int width = 0;
    for (auto& ln : all) width = std::max(width, static_cast<int>(ln.loc.toString().size()));
    for (const LocatedNode& ln : all) {
      std::string what = describeNode(ln.node);
      if (ln.node.isExpr()) {
        if (Type t = p.types->typeOf(ln.node.expr())) what += " : " + t.toString();
      }
      std::printf("%-*s  %*s%s\n", width, ln.loc.toString().c_str(),
                  static_cast<int>(2 * (ln.loc.depth() - 1)), "", what.c_str());
    }
    return kExitOk;
  }
  if (!args.at.empty()) {
    const std::string& locText = args.at;
    auto loc = Location::parse(locText);
    if (!loc)
      badArgument("--at", fmt::format("bad location '{}': expected dot-separated child indices such as 0.1.0",
                                      elided(locText)));
    std::string why;
    Resolved r = resolve(p.main(), *loc, &why);
    if (!r) throw LiftError(why);
    std::printf("at %s: %s\n", loc->toString().c_str(), describeNode(r.node).c_str());
    bool showAll = args.verbose;
    for (const RuleAtLocation& ra : rulesAt(p, *loc, false)) {
      if (ra.applies) {
        RewriteStep step{ra.rule, *loc, ra.params};
        std::printf("  applies   %-36s %s\n", step.spec().c_str(), ra.rule->description.c_str());
      } else if (showAll || ra.reason.rfind("applies to a call of", 0) != 0) {
        std::printf("  no        %-36s %s\n", ra.rule->name.c_str(), ra.reason.c_str());
      }
    }
    return kExitOk;
  }

  EnumerateOptions opts;
  opts.families = parseFamilies(args);
  opts.includeMacros = !args.noMacros;
  opts.allParameterChoices = args.allParams;
  std::vector<RewriteStep> steps = enumerateRewrites(p, opts);
  size_t width = 0;
  for (auto& s : steps) width = std::max(width, s.spec().size());
  for (auto& s : steps)
    std::printf("%-*s  %s\n", static_cast<int>(width), s.spec().c_str(), s.rule->description.c_str());
  if (steps.empty()) std::fprintf(stderr, "no rule applies anywhere in %s\n", args.file.c_str());
  return kExitOk;
}

const CommandRegistration registration(Command{
    "rules", "list the rewrites that apply to a program (RULE@LOC[:PARAMS]), or every rule",
    [](CLI::App& cmd) {
      auto args = std::make_shared<RulesArgs>();
      cmd.add_option("FILE.lift", args->file, "the program (not with --all or --markdown)")->type_name("");
      auto* at =
          cmd.add_option("--at", args->at, "every rule at this location, with why those that do not apply")
              ->type_name("LOC");
      cmd.add_flag("--locations", args->locations, "every location with its node and type")->excludes(at);
      cmd.add_option("--family", args->families, "only the rules of this family (repeatable)")
          ->type_name("F");
      cmd.add_flag("--no-macros", args->noMacros, "no macro rules");
      cmd.add_flag("--all-params", args->allParams, "every parameter choice, not only the first");
      cmd.add_flag("--verbose", args->verbose, "with --at: also the rules for other kinds of node");
      auto* all = cmd.add_flag("--all", args->all, "the rule library: NAME  FAMILY  lhs => rhs");
      auto* markdown = cmd.add_flag("--markdown", args->markdown, "the rule library as docs/RULES.md");
      addSizeOption(cmd, args->sizes, "256")
          ->description(
              fmt::format("judge the rules at these sizes of the program (otherwise symbolic: a factor "
                          "then does not provably divide them), e.g. M=256,N=256 (repeatable); each "
                          "from 1 to {}",
                          interp::kMaxSize))
          ->excludes(all)
          ->excludes(markdown)
          ->allow_extra_args(false);  // one NAME=VALUE[,...] each: FILE.lift after it stays the program
      return [args] { return runRules(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
