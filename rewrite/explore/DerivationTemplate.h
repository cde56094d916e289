// Derivation templates: a derivation whose numeric parameters (split factors, block factors,
// vector widths) are named tunables, plus the tunables of the launch (work-group sizes). The
// first two phases of the seeds' exploration produce templates (one per algorithmic variant and
// OpenCL mapping); the third instantiates them with values. A Candidate is one instantiation:
// the concrete rewrite steps, the program they give (type-checked) and the launch parameters.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rewrite/Engine.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::explore {

struct Tunable {
  std::string name;             // "k", "w", "local0"
  std::string what;             // "register-blocking-1d@0 k"
  std::vector<int64_t> values;  // the values to try, preferred first
  bool launch = false;          // a work-group size, not a rewrite parameter
  bool codegen = false;         // a switch of the code generator (codegenTunables), not a rewrite parameter
  int rankCost = 1;             // three-phase: what each value after the first adds to a setting's rank
};

// Tunable values by name.
using Assignment = std::map<std::string, int64_t>;
// "k=8,local0=4,w=16" (sorted by name); "" for none.
std::string formatAssignment(const Assignment& a);

struct DerivationTemplate {
  // The rewrite steps; a parameter value "$name" stands for the tunable `name`.
  std::vector<rewrite::RewriteStep> steps;
  std::vector<Tunable> tunables;
  size_t algorithmicSteps = 0;  // steps[0, algorithmicSteps) are phase 1, the rest the mapping
  std::string mapping;          // the OpenCL mapping's name ("glb-1-0", "wrg-lcl", ...)
  std::vector<int> launchDims;  // dimensions whose work-group size is tunable (mapGlb programs)
  int promiseBonus = 0;         // added to derivationPromise (AlgorithmicOptions::preferContiguousLanes)
  // The OpenCL mapping of the known schema whose algorithmic form the phase-1 steps are
  // (SplitReductionStart::mapping; "" for none): that mapping's template gets kSchemaPromise.
  std::string schemaMapping;

  // One step a line ("register-blocking-1d@0:k=$k").
  std::string text() const;
  std::string algorithmText() const;  // the phase-1 steps only, on one line ("a; b")
  const Tunable* tunable(const std::string& name) const;
  // The first value of every tunable.
  Assignment defaults() const;
  // How many assignments there are (the product of the value counts, saturating).
  uint64_t spaceSize() const;
};

struct Candidate {
  std::shared_ptr<const DerivationTemplate> tmpl;
  Assignment values;
  std::vector<rewrite::RewriteStep> steps;               // the template's steps with the values filled in
  std::shared_ptr<const rewrite::TypedProgram> program;  // the derived program
  std::vector<int64_t> local;  // work-group size to launch with (empty: the program's)
  std::string phase;           // what proposed it ("parameters", "mutation", ...)
  std::string programHash;     // programHash(program): stable across processes
  size_t structuralHash = 0;   // ir::structuralHash(program): equal up to renaming

  // One step a line, as `liftc rewrite --apply` and derivation files take them.
  std::string derivationText() const;
  // The tunable values and the work-group size: "k=8,w=16" + ",local=4x1".
  std::string parametersText() const;
  // The values of the code generator's tunables: "unroll=8,vload=1" ("" for none).
  std::string codegenText() const;
  // What identifies the candidate before compilation: program hash, launch parameters and
  // code generator switches (stable across processes: shards use it).
  std::string key() const;
  // The same with the structural hash (alpha-equivalent programs have the same one).
  std::string structuralKey() const;
};

// The steps of `t` with the values of `a` (missing values: the tunable's first value).
std::vector<rewrite::RewriteStep> substitute(const DerivationTemplate& t, const Assignment& a);

// Replays the template with the values from the problem's start program. nullopt, with the
// reason in `why`, when a step does not apply with these values (a split factor that does not
// divide, ...). Work-group sizes come from the launch tunables.
std::optional<Candidate> instantiate(const SearchProblem& problem,
                                     std::shared_ptr<const DerivationTemplate> t, const Assignment& values,
                                     std::string* why = nullptr);

// Replays concrete steps from a program; nullopt (and why) when one fails.
std::optional<rewrite::TypedProgram> replaySteps(const rewrite::TypedProgram& start,
                                                 const std::vector<rewrite::RewriteStep>& steps,
                                                 std::string* why = nullptr);

}  // namespace lift::explore
