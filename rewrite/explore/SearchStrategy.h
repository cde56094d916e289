// A search strategy proposes candidates one at a time and may learn from their measurements.
// Strategies: "three-phase" (the seeds' algorithmic exploration, OpenCL mapping and parameter
// exploration), "random" (random derivations and parameters), "evolution" (an evolutionary
// search over derivation templates and their parameters). The runner (SearchRunner.h) owns the
// limits, deduplication, evaluation and the store; strategies only choose.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "rewrite/explore/AlgorithmicExploration.h"
#include "rewrite/explore/DerivationTemplate.h"
#include "rewrite/explore/OpenCLMapping.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::explore {

// What a strategy learns about a candidate it proposed.
struct Measurement {
  std::string status;   // as the store writes it ("ok", "wrong-result", "constraint", ...)
  double medianMs = 0;  // valid kernels only
  double gflops = 0;
  bool ok() const { return status == "ok"; }
};

// A kernel found before for the same program at other sizes (or on another device): its
// derivation and parameters as the store keeps them. Strategies may start from these (warm start).
struct Hint {
  std::string derivation;  // one step a line
  std::string parameters;  // "k=4,n=16,local=2x1"
};

struct StrategyOptions {
  uint64_t seed = 1;
  std::vector<Hint> hints;         // fastest first
  AlgorithmicOptions algorithmic;  // phase 1 (its depth is the search's depth limit)
  MappingOptions mapping;
  std::vector<int64_t> localSizes = {1,  2,  4,   8,  16,
                                     32, 64, 128, 256};  // work-group sizes tried per dimension
  // The code generator's tunables of templates whose mapping copies tiles (CodegenTunables.h).
  std::vector<Tunable> codegenTunables;
  // The device is a GPU (the first guesses' order: StagedTemplateSpace.h).
  bool gpu = false;
  // The first guesses (StagedTemplateSpace.h): at most `firstGuesses` templates, each of another
  // derivation, ranked for the device, measured first at their preferred values. They are chosen
  // among the derivations up to `firstStageDepth` steps from the starts: at the default (the
  // whole depth) from the whole space; below it, they are measured while the whole space is
  // built on a thread of its own (backgroundPhases; false: before them, on the strategy's
  // thread). firstGuesses 0: none.
  size_t firstGuesses = 3;
  int firstStageDepth = 1000;
  bool backgroundPhases = true;
};

// What strategies may use while choosing.
struct StrategyContext {
  const SearchProblem* problem = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  // Reports what the strategy is doing ("phase 1: ...").
  std::function<void(const std::string&)> activity;
  bool cancelled() const { return cancel && cancel->load(); }
};

// The template a hint's derivation instantiates and the values it used (nullopt when no template
// of `templates` has the same steps with the same fixed parameters).
std::optional<std::pair<size_t, Assignment>> matchHint(
    const std::vector<std::shared_ptr<const DerivationTemplate>>& templates, const Hint& hint);

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;
  virtual std::string name() const = 0;
  // The next candidate, or nullopt when the space is exhausted. Candidates that fail to
  // instantiate are skipped inside (they count as rejected through `rejected`).
  virtual std::optional<Candidate> next(StrategyContext& ctx) = 0;
  // The measurement of a candidate it proposed (also for cached and rejected ones).
  virtual void observe(const Candidate&, const Measurement&) {}
  // Candidates the strategy dropped since the last call (failed derivations).
  int64_t takeRejected() {
    int64_t r = rejected_;
    rejected_ = 0;
    return r;
  }

 protected:
  int64_t rejected_ = 0;
};

// "three-phase", "random" or "evolution"; throws LiftError naming the choices otherwise.
std::unique_ptr<SearchStrategy> makeStrategy(const std::string& name, const StrategyOptions& options);
std::vector<std::string> strategyNames();

// The template of an algorithmic variant under one OpenCL mapping: the variant's steps and
// tunables, the mapping's, the work-group sizes of its global dimensions and, for a mapping that
// copies tiles, options.codegenTunables.
std::shared_ptr<const DerivationTemplate> withMapping(const DerivationTemplate& algorithm,
                                                      const OpenCLMapping& m, const StrategyOptions& options);

// Shared by the strategies: the templates of phases 1 and 2 (every algorithmic variant with
// every OpenCL mapping), computed once. Launch tunables (work-group sizes) are added for the
// dimensions that mapGlb maps.
struct TemplateSpace {
  std::vector<std::shared_ptr<const DerivationTemplate>> templates;
  AlgorithmicStats algorithmic;
  size_t variants = 0;  // phase-1 programs
  size_t mappings = 0;  // templates that failed no mapping step
};
TemplateSpace buildTemplateSpace(StrategyContext& ctx, const StrategyOptions& options);

}  // namespace lift::explore
