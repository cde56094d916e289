// An evolutionary search over derivation templates and their parameters: the stronger
// strategy, compared with the three phases and random search in docs/PERFORMANCE.md.
//
// It uses the same space as the three phases (every algorithmic variant with every OpenCL
// mapping) but lets the measurements decide where to look: after an initial population (the
// templates of a known schema at their preferred values, SplitReductionStarts.h, a random
// template of every OpenCL mapping, then random ones) it picks a parent by tournament
// among the fastest valid kernels and mutates it — one or two
// parameters moved to a neighbouring value (or a random one), the same algorithm with another
// mapping, or another algorithm with the same mapping (parameter values carried over by name) —
// with a few random immigrants to keep exploring. A kernel that fails teaches it to avoid that
// template: templates whose kernels keep failing are sampled less. Given hints (the fastest
// kernels of the same program at other sizes, from the store), it proposes those first.
// Before the random population it measures the most promising derivations (TemplateOrder.h),
// each through its most promising mapping whose kernel the device takes; whenever the best kernel
// changes, it tries the code generator's switches on it one at a time; a switch whose every
// other value it measured that way keeps the best's value in the kernels that follow.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "rewrite/explore/SearchStrategy.h"
#include "rewrite/explore/SplitReductionStarts.h"
#include "rewrite/explore/StagedTemplateSpace.h"
#include "rewrite/explore/TemplateOrder.h"

namespace lift::explore {

namespace {

struct Member {
  size_t tmpl = 0;
  Assignment values;
  double fitness = 0;  // GFLOP/s (or 1/ms) of a valid kernel
};

class EvolutionStrategy : public SearchStrategy {
 public:
  explicit EvolutionStrategy(StrategyOptions o) : options_(std::move(o)), rng_(options_.seed) {}
  std::string name() const override { return "evolution"; }

  std::optional<Candidate> next(StrategyContext& ctx) override {
    if (!built_) {
      // The first guesses while phases 1 and 2 run (StagedTemplateSpace.h); with hints (the
      // fastest kernels at other sizes) those come first instead.
      if (!staged_.started()) {
        StrategyOptions o = options_;
        if (!o.hints.empty()) o.firstGuesses = 0;
        staged_.start(ctx, o);
      }
      if (std::optional<Candidate> c = staged_.nextFirstGuess(ctx, &rejected_)) return c;
      build(ctx);
    }
    if (templates_.empty()) return std::nullopt;
    for (int attempt = 0; attempt < 500 && !ctx.cancelled(); ++attempt) {
      auto [t, values, phase] = propose();
      keepSettledSwitches(t, phase, values);
      std::string key = fmt::format("{}|{}", t, formatAssignment(values));
      if (!proposed_.insert(key).second) {
        retryMapping();
        continue;
      }
      std::string why;
      std::optional<Candidate> c = instantiate(*ctx.problem, templates_[t], values, &why);
      if (!c) {
        ++rejected_;
        if (phase != "promising") penalise(t);  // one setting of many, not the template's failure
        retryMapping();
        continue;
      }
      c->phase = phase;
      if (phase == "promising") awaitPromising(t);
      byTemplate_[c->tmpl.get()] = t;
      return c;
    }
    return std::nullopt;
  }

  void observe(const Candidate& c, const Measurement& m) override {
    auto it = byTemplate_.find(c.tmpl.get());
    if (it == byTemplate_.end()) {
      // A first guess (a template of the first stage): it joins once the whole space is built.
      if (!built_) early_.push_back({c.tmpl, c.values, m});
      return;
    }
    size_t t = it->second;
    if (c.phase == "promising") promisingMeasured(t, m.status);
    if (!m.ok() || m.medianMs <= 0) {
      penalise(t);
      if (c.phase == "switches") switchMeasured(c.values);
      return;
    }
    double fitness = m.gflops > 0 ? m.gflops : 1.0 / m.medianMs;
    population_.push_back({t, c.values, fitness});
    std::sort(population_.begin(), population_.end(),
              [](const Member& a, const Member& b) { return a.fitness > b.fitness; });
    if (population_.size() > kPopulation) population_.resize(kPopulation);
    failures_[t] = 0;
    if (c.phase == "switches") switchMeasured(c.values);
  }

 private:
  static constexpr size_t kPopulation = 24;
  // The most promising derivations measured at their preferred values before the random initial
  // population: on the 2-core CPU device, where one random matmul kernel at 1024³ can take
  // seconds, the random population alone left a 60 s search at 6.6 GFLOP/s, while the
  // three phases' first template, in the same order, ran at 265 (docs/PERFORMANCE.md).
  // Derivations, not templates: the first templates in that order are often mappings of one
  // derivation (at 8192³ on an H100 the first two were mappings of a 4 x 4 block at 26 and 14
  // TFLOP/s, the third derivation is the 16 x 4 block behind 46).
  static constexpr size_t kPromising = 4;
  // Mappings tried per promising derivation: the next comes when the kernel of the one before
  // could not run (beyond the device's resources, a launch it refuses, a failed compilation).
  static constexpr size_t kPromisingMappings = 4;
  // Settings tried per promising template (well below next()'s 500 attempts): at small sizes, where
  // its tiles do not fit, it is left to the random population.
  static constexpr int kPromisingTries = 32;

  void build(StrategyContext& ctx) {
    built_ = true;
    TemplateSpace space = staged_.take(ctx);
    templates_ = space.templates;
    std::map<std::string, size_t> byText;
    for (size_t i = 0; i < templates_.size(); ++i) {
      byAlgorithm_[templates_[i]->algorithmText()].push_back(i);
      byMapping_[templates_[i]->mapping].push_back(i);
      byText.emplace(templates_[i]->mapping + "\n" + templates_[i]->text(), i);
    }
    // The first guesses measured meanwhile: the same templates of the whole space learn from them.
    for (const Early& e : early_) {
      auto t = byText.find(e.tmpl->mapping + "\n" + e.tmpl->text());
      if (t == byText.end()) continue;
      proposed_.insert(fmt::format("{}|{}", t->second, formatAssignment(e.values)));
      Candidate same;
      same.tmpl = templates_[t->second];
      same.values = e.values;
      byTemplate_[same.tmpl.get()] = t->second;
      observe(same, e.measurement);
    }
    early_.clear();
    // Warm start: the kernels found before at other sizes are proposed first (those whose
    // derivation still fits a template), so that a large problem, where every measurement is
    // expensive, starts from what worked on smaller ones.
    for (const Hint& h : options_.hints)
      if (auto m = matchHint(templates_, h)) warm_.push_back(*m);
    std::reverse(warm_.begin(), warm_.end());  // popped from the back: fastest first
    // The initial population covers every kind of OpenCL mapping once (a random template of
    // each, in random order), so that a rare mapping (a work-group tree, a 2-D grid) is
    // measured before the tournament narrows the search.
    for (auto& [name, ts] : byMapping_) mappingsToTry_.push_back(name);
    std::shuffle(mappingsToTry_.begin(), mappingsToTry_.end(), rng_);
    // Before them, the templates of a known schema (SplitReductionStarts.h: 001's two kernels of a
    // reduction), each at its preferred values.
    for (size_t i = templates_.size(); i-- > 0;)
      if (templates_[i]->promiseBonus >= kSchemaPromise) schemas_.push_back(i);
    std::map<std::string, size_t> derivationOf;  // algorithmText -> index in promising_
    for (size_t t : mostPromisingOrder(templates_)) {
      if (templates_[t]->promiseBonus >= kSchemaPromise) continue;
      auto [d, added] = derivationOf.emplace(templates_[t]->algorithmText(), promising_.size());
      if (added) {
        if (promising_.size() == kPromising) break;
        promising_.emplace_back();
      }
      std::vector<size_t>& mappings = promising_[d->second].templates;
      if (mappings.size() < kPromisingMappings) mappings.push_back(t);
    }
    std::reverse(promising_.begin(), promising_.end());  // popped from the back: most promising first
    if (ctx.activity)
      ctx.activity(fmt::format(
          "evolution over {} templates ({} programs x mappings){}", templates_.size(), space.variants,
          warm_.empty() ? "" : fmt::format(", starting from {} kernels found before", warm_.size())));
  }

  void penalise(size_t t) { ++failures_[t]; }

  // A promising derivation's kernel was proposed: the derivation waits for its measurement.
  void awaitPromising(size_t t) {
    promising_.back().nextMapping();
    awaiting_.emplace(t, std::move(promising_.back()));
    promising_.pop_back();
  }

  // Its measurement: a kernel that could not run (beyond the device's resources, a launch it
  // refuses, a failed compilation, a duplicate of one not measured) puts the derivation first
  // again, with its next mapping. A kernel that ran, valid or not, ends its turn.
  void promisingMeasured(size_t t, const std::string& status) {
    auto it = awaiting_.find(t);
    if (it == awaiting_.end()) return;
    bool refused = status == "constraint" || status == "invalid-launch" || status == "compile-failed" ||
                   status == "duplicate";
    if (refused && it->second.next < it->second.templates.size()) promising_.push_back(std::move(it->second));
    awaiting_.erase(it);
  }

  // The initial proposal of a mapping gave no new candidate (its random values did not
  // instantiate, or were tried): try that mapping again, a few times.
  void retryMapping() {
    if (!lastMapping_.empty() && ++mappingRetries_[lastMapping_] <= 8) mappingsToTry_.push_back(lastMapping_);
  }

  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng_)];
  }

  Assignment randomValues(size_t t) {
    Assignment a;
    for (auto& tu : templates_[t]->tunables) a[tu.name] = pick(tu.values);
    return a;
  }

  // A random template, avoiding those whose kernels keep failing.
  size_t randomTemplate() {
    for (int i = 0; i < 20; ++i) {
      size_t t = std::uniform_int_distribution<size_t>(0, templates_.size() - 1)(rng_);
      if (failures_[t] < 3 || uniform() < 0.05) return t;
    }
    return std::uniform_int_distribution<size_t>(0, templates_.size() - 1)(rng_);
  }

  // The values of `from` carried over to template t (by tunable name), the rest random.
  Assignment carryOver(const Assignment& from, size_t t) {
    Assignment a = randomValues(t);
    for (auto& [n, v] : from)
      if (const Tunable* tu = templates_[t]->tunable(n);
          tu && std::find(tu->values.begin(), tu->values.end(), v) != tu->values.end())
        a[n] = v;
    return a;
  }

  const Member& tournament() {
    const Member* best = &pick(population_);
    for (int i = 0; i < 2; ++i) {
      const Member& m = pick(population_);
      if (m.fitness > best->fitness) best = &m;
    }
    return *best;
  }

  std::tuple<size_t, Assignment, std::string> propose() {
    if (!warm_.empty()) {
      auto [t, values] = warm_.back();
      warm_.pop_back();
      return {t, values, "warm-start"};
    }
    lastMapping_.clear();
    if (!schemas_.empty()) {
      size_t t = schemas_.back();
      schemas_.pop_back();
      return {t, templates_[t]->defaults(), "initial"};
    }
    // The next setting of the most promising derivation left, through its current mapping (its
    // preferred values first; next() sets the derivation aside once one instantiates), at most
    // kPromisingTries of them; then its next mapping.
    while (!promising_.empty()) {
      Promising& p = promising_.back();
      if (p.next < p.templates.size()) {
        size_t t = p.templates[p.next];
        if (!p.values) p.values.emplace(templates_[t]);
        std::optional<Assignment> a = p.tries++ < kPromisingTries ? p.values->next() : std::nullopt;
        if (a) return {t, *a, "promising"};
        p.nextMapping();
        continue;
      }
      promising_.pop_back();
    }
    if (std::optional<Assignment> a = nextSwitch()) return {population_.front().tmpl, *a, "switches"};
    if (!mappingsToTry_.empty()) {
      lastMapping_ = mappingsToTry_.back();
      mappingsToTry_.pop_back();
      size_t t = pick(byMapping_[lastMapping_]);
      return {t, randomValues(t), "initial"};
    }
    if (population_.size() < 4 || uniform() < 0.12) {
      size_t t = randomTemplate();
      return {t, randomValues(t), population_.size() < 4 ? "initial" : "immigrant"};
    }
    const Member& parent = tournament();
    double r = uniform();
    if (r < 0.6 || templates_[parent.tmpl]->tunables.empty()) {
      Assignment a = parent.values;
      const auto& tus = templates_[parent.tmpl]->tunables;
      if (!tus.empty()) {
        // Not a switch the sweep settled on the best kernel (unless nothing else is left).
        std::vector<const Tunable*> open;
        for (const Tunable& tu : tus)
          if (!settled_.count(tu.name)) open.push_back(&tu);
        if (open.empty())
          for (const Tunable& tu : tus) open.push_back(&tu);
        int changes = uniform() < 0.7 ? 1 : 2;
        for (int i = 0; i < changes; ++i) {
          const Tunable& tu = *pick(open);
          std::vector<int64_t> sorted = tu.values;
          std::sort(sorted.begin(), sorted.end());
          auto pos = std::find(sorted.begin(), sorted.end(), a[tu.name]);
          size_t p = pos == sorted.end() ? 0 : static_cast<size_t>(pos - sorted.begin());
          if (uniform() < 0.8 && sorted.size() > 1) {
            if (p == 0)
              p = 1;
            else if (p + 1 == sorted.size())
              p = p - 1;
            else
              p = uniform() < 0.5 ? p - 1 : p + 1;
            a[tu.name] = sorted[p];
          } else {
            a[tu.name] = pick(sorted);
          }
        }
      }
      return {parent.tmpl, a, "mutation"};
    }
    if (r < 0.85) {
      const auto& same = byAlgorithm_[templates_[parent.tmpl]->algorithmText()];
      size_t t = pick(same);
      return {t, carryOver(parent.values, t), "remap"};
    }
    const auto& same = byMapping_[templates_[parent.tmpl]->mapping];
    size_t t = pick(same);
    return {t, carryOver(parent.values, t), "crossover"};
  }

  // The best kernel so far with one of the code generator's switches at another value, each value
  // of each switch once, whenever the best changes: the same derivation, so one compile and run
  // each, and where a switch decides most (stream-K took 1024³ on an H100 from 18.2 to 29.8
  // TFLOP/s, a change mutations reach late).
  std::optional<Assignment> nextSwitch() {
    if (population_.empty()) return std::nullopt;
    const Member& best = population_.front();
    std::string key = fmt::format("{}|{}", best.tmpl, formatAssignment(best.values));
    if (key != sweptBest_) {
      sweptBest_ = key;
      sweptValues_ = best.values;
      switches_.clear();
      settled_.clear();
      sweepLeft_.clear();
      for (const Tunable& tu : templates_[best.tmpl]->tunables) {
        if (!tu.codegen) continue;
        auto current = best.values.find(tu.name);
        for (int64_t v : tu.values) {
          if (current != best.values.end() && current->second == v) continue;
          Assignment a = best.values;
          a[tu.name] = v;
          switches_.push_back(std::move(a));
          ++sweepLeft_[tu.name];
        }
      }
      std::reverse(switches_.begin(), switches_.end());  // popped from the back: in order
    }
    if (switches_.empty()) return std::nullopt;
    Assignment a = std::move(switches_.back());
    switches_.pop_back();
    return a;
  }

  // A kernel of the sweep measured (or failed). Once every other value of a switch has been
  // measured and the best kernel is still the one swept, the switch is settled: new kernels take
  // the best's value of it (at the large SGEMM shapes on an H100, a third of the kernels were
  // stream-K kernels the sweep had already found slower; docs/PERFORMANCE.md, session 22).
  void switchMeasured(const Assignment& values) {
    for (auto& [name, v] : values) {
      auto swept = sweptValues_.find(name);
      if (swept == sweptValues_.end() || swept->second == v) continue;
      auto left = sweepLeft_.find(name);
      if (left == sweepLeft_.end() || --left->second > 0) continue;
      if (population_.empty()) continue;
      const Member& best = population_.front();
      if (fmt::format("{}|{}", best.tmpl, formatAssignment(best.values)) == sweptBest_) settled_.insert(name);
    }
  }

  // The settled switches at the best kernel's values, in a kernel of the random population.
  void keepSettledSwitches(size_t t, const std::string& phase, Assignment& values) const {
    if (settled_.empty() || population_.empty()) return;
    if (phase != "initial" && phase != "immigrant" && phase != "mutation" && phase != "remap" &&
        phase != "crossover")
      return;
    for (const std::string& name : settled_) {
      const Tunable* tu = templates_[t]->tunable(name);
      auto best = sweptValues_.find(name);
      if (!tu || best == sweptValues_.end()) continue;
      if (std::find(tu->values.begin(), tu->values.end(), best->second) != tu->values.end())
        values[name] = best->second;
    }
  }

  // A promising derivation: its templates (mappings) most promising first, and the settings of
  // the current one.
  struct Promising {
    std::vector<size_t> templates;
    size_t next = 0;
    std::optional<AssignmentEnumerator> values;
    int tries = 0;
    void nextMapping() {
      ++next;
      values.reset();
      tries = 0;
    }
  };

  struct Early {
    std::shared_ptr<const DerivationTemplate> tmpl;
    Assignment values;
    Measurement measurement;
  };

  StrategyOptions options_;
  std::mt19937_64 rng_;
  StagedTemplateSpace staged_;
  std::vector<Early> early_;  // the first guesses' measurements, before the whole space is built
  bool built_ = false;
  std::vector<std::shared_ptr<const DerivationTemplate>> templates_;
  std::map<std::string, std::vector<size_t>> byAlgorithm_, byMapping_;
  std::unordered_map<const DerivationTemplate*, size_t> byTemplate_;
  std::unordered_map<size_t, int> failures_;
  std::vector<Member> population_;
  std::vector<std::pair<size_t, Assignment>> warm_;  // hints still to propose (next at the back)
  std::vector<size_t> schemas_;             // the schema's templates still to propose (next at the back)
  std::vector<Promising> promising_;        // the promising derivations still to propose (next at the back)
  std::map<size_t, Promising> awaiting_;    // by the template proposed: derivations awaiting a measurement
  std::vector<std::string> mappingsToTry_;  // the initial population's mappings (next at the back)
  std::string lastMapping_;                 // the mapping the last proposal covered ("": none)
  std::map<std::string, int> mappingRetries_;
  std::set<std::string> proposed_;
  std::string sweptBest_;                 // the best member whose switches were queued ("template|values")
  std::vector<Assignment> switches_;      // its settings with one switch changed (next at the back)
  Assignment sweptValues_;                // the settings of the best kernel swept
  std::map<std::string, int> sweepLeft_;  // per switch: its values still to measure in the sweep
  std::set<std::string> settled_;         // the switches whose every other value the sweep measured
};

}  // namespace

std::unique_ptr<SearchStrategy> makeEvolutionStrategy(const StrategyOptions& options) {
  return std::make_unique<EvolutionStrategy>(options);
}

}  // namespace lift::explore
