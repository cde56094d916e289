// The rewriting engine: which rules apply where, applying one, and the per-location view the
// desktop app shows (every rule at a clicked node, with a preview or the reason it does not
// apply). Programs are immutable; applying a rule rebuilds only the path from the main
// function to the rewritten node, so every other node keeps its id.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/IR.h"
#include "core/ir/TypeCheck.h"
#include "rewrite/Location.h"
#include "rewrite/Rule.h"
#include "rewrite/RuleRegistry.h"

namespace lift::rewrite {

// A program together with its types: what rules match against.
struct TypedProgram {
  ir::Program program;
  std::shared_ptr<const ir::TypeInfo> types;

  // Type-checks p. Throws LiftError when it is ill-typed.
  static TypedProgram check(ir::Program p);
  const ir::Lambda& main() const { return program.main; }
};

// The program with another main function: sizes, file and source locations are kept, the user
// functions are those the new main function calls (old ones first, in their order).
ir::Program withMain(const ir::Program& p, ir::Lambda main);

// One rewrite: a rule at a location with its parameters. Its text form, the "spec",
// is RULE@LOC[:PARAMS], e.g. "split-join@0.1:n=4".
struct RewriteStep {
  const Rule* rule = nullptr;
  Location loc;
  ParamValues params;

  std::string spec() const;
  // Parses a spec. Throws LiftError naming what is wrong: bad syntax, an unknown rule (with
  // "did you mean"), a bad location, an unknown parameter or a bad parameter value.
  static RewriteStep parse(std::string_view spec, const RuleRegistry& registry = RuleRegistry::instance());
  friend bool operator==(const RewriteStep&, const RewriteStep&) = default;
};

// Why a rewrite was not made.
enum class RewriteError : uint8_t {
  None,
  NoSuchLocation,  // the location does not exist in the program
  WrongNodeKind,   // the rule rewrites expressions and the location holds a function, or vice versa
  BadParameters,   // unknown parameter or invalid value
  DoesNotApply,    // the rule's precondition fails there (the message gives the reason)
  IllTyped,        // the result does not type-check (a bug in the rule: reported, never hidden)
};

struct RewriteResult {
  RewriteError error = RewriteError::None;
  std::string message;                  // for errors: what is wrong, with the rule's reason
  std::optional<TypedProgram> program;  // the result, type-checked
  ir::NodeRef replaced, replacement;    // the old and the new node at the location
  explicit operator bool() const { return error == RewriteError::None; }
};

// Applies one rewrite and type-checks the result.
RewriteResult applyRewrite(const TypedProgram& p, const RewriteStep& step);

// Tries a rule at a location without building the new program (parameters are completed and
// validated first). `error` gets the kind of failure.
Outcome tryRule(const TypedProgram& p, const Rule& rule, const Location& loc, ParamValues params,
                RewriteError* error = nullptr);

struct EnumerateOptions {
  bool includeMacros = true;               // macro rules are slower to try (each runs a strategy)
  bool allParameterChoices = false;        // one rewrite per applicable parameter choice, not just the first
  std::vector<Family> families;            // empty: every family
  const RuleRegistry* registry = nullptr;  // null: the built-in library
};

// Every applicable (rule, location, parameters), locations in pre-order, rules in registry
// order at each location.
std::vector<RewriteStep> enumerateRewrites(const TypedProgram& p, const EnumerateOptions& opts = {});

// Every rule at one location: whether it applies (with the parameters that make it apply and,
// if asked, the resulting program) or why not. For the rule palette of the desktop app.
struct RuleAtLocation {
  const Rule* rule = nullptr;
  bool applies = false;
  std::string reason;                     // why not, when !applies
  ParamValues params;                     // the first parameter choice that applies (or the defaults)
  std::vector<ParamValues> alternatives;  // other applicable parameter choices
  std::optional<TypedProgram> preview;    // the result, when applies and previews were asked for
};
std::vector<RuleAtLocation> rulesAt(const TypedProgram& p, const Location& loc, bool withPreview = true,
                                    const RuleRegistry* registry = nullptr);

// The parameter choices the engine tries for a rule at a site: the rule's candidates, or the
// defaults. Each is completed (every parameter present).
std::vector<ParamValues> parameterChoices(const Rule& rule, const Site& site);

}  // namespace lift::rewrite
