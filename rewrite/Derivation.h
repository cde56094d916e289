// Derivations: a starting program and the list of rewrites that turn it into another, saved as
// a readable text file and replayed exactly. The format (one item a line, `#` starts a comment):
//
//   # naive matmul -> 1D register blocking (003 slides)
//   program: ../examples/matmul.lift
//   size-multiple@0:var=M,k=4            # a rewrite: RULE@LOC[:PARAMS], as liftc rewrite --apply
//   2. split-join@0:n=4                  # an optional step number in front
//   strategy: normalise(map-fusion)      # a strategy run at the main body
//   strategy@0.1: repeat(map-fission)    # ... or at a location
//
// The program path is relative to the derivation file, or else to a `resources/` folder of one
// of its ancestors (so files in resources/derivations/ may say `examples/matmul.lift`).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/Strategy.h"

namespace lift::rewrite {

struct DerivationStep {
  enum class Kind : uint8_t { Rewrite, Strategy };
  Kind kind = Kind::Rewrite;
  RewriteStep rewrite;                // Kind::Rewrite
  std::string strategy;               // Kind::Strategy: the strategy text
  Location focus = Location::body();  // Kind::Strategy: where it runs
  std::string comment;                // the comment on the step's line, without '#'
  int line = 0;                       // in the file (0 when built in memory)

  std::string text() const;  // the step as written in a file (without number and comment)
};

struct Derivation {
  std::string file;                 // where it was read from ("" if built in memory)
  std::vector<std::string> header;  // comment lines before the program line, without '#'
  std::string program;              // the starting program, as written
  std::vector<DerivationStep> steps;

  // Parses the text; errors are LiftErrors at file:line:col (unknown rules with suggestions).
  static Derivation parse(const std::string& text, const std::string& file = "<derivation>");
  static Derivation load(const std::string& path);
  // The text form; parse(toText()) gives the same derivation.
  std::string toText() const;
  void save(const std::string& path) const;
  // The file the program line names (see the resolution rule above). Throws LiftError naming
  // the places tried when there is no such file.
  std::string programPath() const;
};

struct ReplayedStep {
  const DerivationStep* step = nullptr;
  TypedProgram before, after;
  std::vector<RewriteStep> applied;  // the rewrites made (one, or those of a strategy)
};

struct ReplayResult {
  TypedProgram start;
  TypedProgram result;
  std::vector<ReplayedStep> steps;
  // Every rewrite made, strategies expanded into their rules: a derivation of plain rewrites.
  std::vector<RewriteStep> flattened() const;
};

// Replays a derivation from its program file. `onStep` sees each step as it is done. Throws
// LiftError located at the step's line when a step fails (with the rule's reason).
ReplayResult replay(const Derivation& d, const std::function<void(const ReplayedStep&)>& onStep = {});
// Replays from a given starting program (ignoring the program line).
ReplayResult replay(const Derivation& d, const TypedProgram& start,
                    const std::function<void(const ReplayedStep&)>& onStep = {});

}  // namespace lift::rewrite
