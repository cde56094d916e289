// The search runner (see SearchRunner.h).
#include "rewrite/explore/SearchRunner.h"

#include <fmt/format.h>

#include <chrono>
#include <future>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/ReferenceCache.h"
#include "codegen/ResourceError.h"
#include "codegen/runtime/Worker.h"
#include "core/support/Trace.h"
#include "rewrite/explore/CodegenTunables.h"

namespace lift::explore {

const char* toString(StopReason r) {
  switch (r) {
    case StopReason::None:
      return "running";
    case StopReason::Exhausted:
      return "exhausted";
    case StopReason::TimeLimit:
      return "time-limit";
    case StopReason::KernelLimit:
      return "kernel-limit";
    case StopReason::Cancelled:
      return "cancelled";
    case StopReason::Error:
      return "error";
  }
  return "?";
}

bool inShard(const std::string& key, int index, int count) {
  if (count <= 1) return true;
  uint64_t h = std::stoull(hashText(key), nullptr, 16);
  return static_cast<int>(h % static_cast<uint64_t>(count)) == index;
}

std::pair<int, int> parseShard(const std::string& text) {
  size_t slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      int i = std::stoi(text.substr(0, slash)), n = std::stoi(text.substr(slash + 1));
      if (n >= 1 && i >= 0 && i < n && text.find_first_not_of("0123456789/") == std::string::npos)
        return {i, n};
    }
  } catch (const std::exception&) {
  }
  throw LiftError(fmt::format("bad shard '{}': expected I/N with 0 <= I < N, e.g. 0/4", text));
}

std::string deviceName(const runtime::DeviceInfo& d) {
  return fmt::format("{} ({})", d.name, d.platformName);
}

namespace {

using Clock = std::chrono::steady_clock;

// How many times slower than the best kernel so far a candidate's validated execution may be
// before its repetitions are skipped: far from the best, even on a cold first execution.
constexpr double kSlowCandidate = 4.0;

// An error quoted in the search's own messages: where (when known) and what, without the
// "error:" the message that quotes it adds (liftc printed "error: error: ...").
std::string quoted(const LiftError& e) {
  const SourceLoc& loc = e.diagnostic().loc;
  if (!loc.known()) return e.diagnostic().message;
  return fmt::format("{}:{}:{}: {}", loc.file, loc.line, loc.col, e.diagnostic().message);
}

std::string launchText(const std::vector<uint64_t>& global, const std::vector<uint64_t>& local) {
  auto list = [](const std::vector<uint64_t>& v) {
    std::string s;
    for (uint64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s.empty() ? std::string("auto") : s;
  };
  return fmt::format("global={} local={}", list(global), list(local));
}

void addPhase(SearchCounts& c, const std::string& phase) {
  for (auto& [p, n] : c.perPhase)
    if (p == phase) {
      ++n;
      return;
    }
  c.perPhase.push_back({phase, 1});
}

}  // namespace

struct SearchRunner::Impl {
  SearchRunner& self;
  const EventSink& sink;
  Clock::time_point start = Clock::now();
  std::mutex mutex;  // the strategy, the counts, the dedup sets and the events
  std::unique_ptr<SearchStrategy> strategy;
  StrategyContext ctx;
  SearchCounts counts;
  StopReason stop = StopReason::None;
  std::string error;
  int64_t searchId = 0;
  std::string device;
  DeviceLimits limits;
  uint32_t preferredWidth = 0;
  codegen::EvaluationRequest request;
  // The inputs and expected outputs, computed on a thread of their own from the start of the
  // search (while the workers start and the strategy runs phases 1 and 2); the first evaluation
  // waits for them (awaitReference). The thread stops at `referenceStop` (its request's cancel
  // flag), which cancel() and every return of run() set: members end in reverse order, and the
  // future's end waits for the thread, which then ends soon (StopReference).
  // (The cache and the flag before the futures: their threads use them.)
  std::optional<codegen::ReferenceCache> referenceCache;
  std::atomic<bool> referenceStop{false};
  bool referenceFromCache = false;  // set by the reference's thread before it returns
  std::future<codegen::PreparedReference> pendingReference;
  bool referenceReady = false;
  std::future<void> cacheWrite;  // a new reference kept for later searches (joined at the end)
  codegen::PreparedReference reference;
  std::unordered_map<std::string, KernelRecord> storedByProgram, storedByKernel;
  std::unordered_set<int64_t> reportedStored;  // ids of stored kernels reported in this search
  std::unordered_set<std::string> seenPrograms, seenKernels;
  std::unordered_map<std::string, Measurement> measuredByProgram;
  double bestMs = 0, bestGflops = 0;
  std::vector<KernelRecord> valid;  // of this search, for the summary
  int64_t index = 0;
  int active = 0;  // workers evaluating a candidate

  Impl(SearchRunner& s, const EventSink& k) : self(s), sink(k) {}

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }

  // Under the mutex.
  void emit(SearchEvent e) {
    e.elapsedS = elapsed();
    e.counts = counts;
    e.bestMs = bestMs;
    e.bestGflops = bestGflops;
    if (sink) sink(e);
  }
  void activity(const std::string& what) {
    SearchEvent e;
    e.kind = SearchEvent::Kind::Activity;
    e.activity = what;
    emit(std::move(e));
  }

  // What limits.maxKernels counts.
  int64_t kernelsCounted() const {
    return self.options_.dryRun ? counts.compileFailed + counts.compiled : counts.evaluated;
  }

  // Under the mutex: whether a limit stops the search now.
  bool limitReached() {
    if (stop != StopReason::None) return true;
    if (self.cancel_.load())
      stop = StopReason::Cancelled;
    else if (self.options_.limits.seconds > 0 && elapsed() >= self.options_.limits.seconds)
      stop = StopReason::TimeLimit;
    else if (self.options_.limits.maxKernels > 0 && kernelsCounted() >= self.options_.limits.maxKernels)
      stop = StopReason::KernelLimit;
    return stop != StopReason::None;
  }

  // Under the mutex: a kernel measured now or found in the store.
  void report(const Candidate& c, const KernelRecord& k, bool cached) {
    if (k.ok()) {
      ++counts.valid;
      valid.push_back(k);
    }
    bool newBest = false;
    if (k.ok() && k.medianMs > 0 && (bestMs == 0 || k.medianMs < bestMs)) {
      bestMs = k.medianMs;
      bestGflops = k.gflops;
      newBest = true;
    }
    Measurement m{k.status, k.medianMs, k.gflops};
    measuredByProgram[c.structuralKey()] = m;
    strategy->observe(c, m);
    SearchEvent e;
    e.kind = SearchEvent::Kind::Kernel;
    KernelEvent& ke = e.kernel;
    ke.index = ++index;
    ke.storeId = k.id;
    ke.phase = c.phase;
    ke.derivation = k.derivation;
    ke.parameters = k.parameters;
    ke.device = k.device;
    ke.status = k.status;
    ke.message = k.message;
    ke.medianMs = k.medianMs;
    ke.minMs = k.minMs;
    ke.maxMs = k.maxMs;
    ke.gflops = k.gflops;
    ke.gbs = k.gbs;
    ke.cached = cached;
    ke.newBest = newBest;
    ke.sourceHash = k.sourceHash;
    ke.elapsedS = elapsed();
    e.activity = cached ? "measured before" : "evaluated";
    emit(std::move(e));
  }

  // Under the mutex: a candidate the store has measured. Each stored kernel counts once (another
  // derivation giving the same kernel is a duplicate), so that the counts of a resumed search
  // are those of distinct kernels.
  void reportStored(const Candidate& c, const KernelRecord& k) {
    if (!reportedStored.insert(k.id).second) {
      ++counts.duplicates;
      strategy->observe(c, Measurement{k.status, k.medianMs, k.gflops});
      return;
    }
    ++counts.cached;
    measuredByProgram[k.kernelKey()] = Measurement{k.status, k.medianMs, k.gflops};
    report(c, k, true);
  }

  KernelRecord recordFor(const Candidate& c) {
    KernelRecord k;
    k.searchId = searchId;
    k.programHash = c.programHash;
    k.startHash = self.problem_.startHash;
    k.program = self.problem_.name;
    k.derivation = c.derivationText();
    k.parameters = c.parametersText();
    k.strategy = strategy->name();
    k.phase = c.phase;
    k.device = device;
    k.sizes = self.problem_.sizesText;
    return k;
  }

  int64_t store(KernelRecord& k, const std::string& source) {
    k.elapsedS = elapsed();
    if (!self.store_ || self.options_.dryRun) return 0;
    try {
      k.id = self.store_->addKernel(k, source);
    } catch (const LiftError& e) {
      std::lock_guard lock(mutex);
      activity(fmt::format("could not store a kernel: {}", quoted(e)));
    }
    return k.id;
  }

  // Under the mutex: the reference, waiting for its thread the first time (the other workers
  // wait on the mutex meanwhile); false, with the search stopped, when it could not be computed
  // or the search's time ran out or it was cancelled while it waited (checked every 50 ms: a
  // reference of a large size may take longer than the whole budget).
  bool awaitReference() {
    if (referenceReady) return true;
    if (!pendingReference.valid()) return false;
    while (pendingReference.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
      if (limitReached()) return false;
    try {
      reference = pendingReference.get();
      referenceReady = true;
      request.work = reference.work;
      activity(fmt::format("expected outputs ready ({}; {})", reference.description,
                           referenceFromCache ? "kept from an earlier search"
                                              : fmt::format("{:.0f} ms", reference.milliseconds)));
      if (referenceCache && !referenceFromCache && !self.cancel_.load())
        cacheWrite = std::async(std::launch::async, [this, ref = reference] {
          referenceCache->store(self.problem_.original, request, ref);
        });
      return true;
    } catch (const LiftError& e) {
      if (self.cancel_.load()) {
        stop = StopReason::Cancelled;
      } else {
        stop = StopReason::Error;
        error = fmt::format("no reference for the kernels: {}", quoted(e));
      }
      return false;
    }
  }

  // One worker's loop (a dry run: no worker).
  void work(runtime::WorkerClient* worker) {
    std::unique_lock lock(mutex);
    while (!limitReached()) {
      std::optional<Candidate> c;
      try {
        c = strategy->next(ctx);
      } catch (const LiftError& e) {
        activity(fmt::format("the strategy failed: {}", quoted(e)));
        c.reset();
      }
      counts.rejected += strategy->takeRejected();
      if (!c) {
        if (limitReached()) break;
        if (active > 0) {
          // Another worker may still teach the strategy something: wait for it.
          lock.unlock();
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          lock.lock();
          if (active > 0) continue;
        }
        if (stop == StopReason::None)
          stop = self.cancel_.load() ? StopReason::Cancelled : StopReason::Exhausted;
        break;
      }
      ++counts.generated;
      addPhase(counts, c->phase);
      std::string key = c->key();
      if (!inShard(key, self.options_.shardIndex, self.options_.shardCount)) {
        ++counts.otherShard;
        continue;
      }
      if (!seenPrograms.insert(c->structuralKey()).second) {
        ++counts.duplicates;
        auto m = measuredByProgram.find(c->structuralKey());
        if (m != measuredByProgram.end()) strategy->observe(*c, m->second);
        continue;
      }
      std::string programKey = c->programHash + "|" + c->parametersText();
      if (auto it = storedByProgram.find(programKey); it != storedByProgram.end()) {
        reportStored(*c, it->second);
        continue;
      }
      ++active;
      lock.unlock();
      evaluate(*c, worker, lock);
      --active;
    }
    if (worker && (stop == StopReason::Cancelled || stop == StopReason::TimeLimit)) worker->cancel();
  }

  // Under the mutex, in a dry run: a candidate that would not run, or would.
  void reportDry(const Candidate& c, KernelRecord& k, const std::string& status, const std::string& why) {
    k.status = status;
    k.message = why;
    if (status == "compiled")
      ++counts.compiled;
    else
      ++counts.rejected;
    report(c, k, false);
  }

  // Compiles, checks and runs one candidate (a dry run: without running it; no worker); takes
  // the lock for what is shared.
  void evaluate(const Candidate& c, runtime::WorkerClient* worker, std::unique_lock<std::mutex>& lock) {
    KernelRecord k = recordFor(c);
    codegen::EvaluationRequest req = request;
    if (!c.local.empty()) req.local = c.local;
    codegen::CompileOptions options = req.compile;
    applyCodegenValues(c, options);
    for (int64_t l : req.local) options.localSize.push_back(arith::cst(l));
    // A program that needs several kernels (a reduction finished by a second kernel) is a sequence.
    std::shared_ptr<const codegen::CompiledProgram> kernel;
    try {
      kernel = std::make_shared<const codegen::CompiledProgram>(
          codegen::compileProgram(c.program->program, options));
    } catch (const codegen::ResourceError& e) {
      // More local or private memory than the device model allows: a constraint, as below.
      lock.lock();
      if (self.options_.dryRun) return reportDry(c, k, "constraint", e.diagnostic().message);
      ++counts.rejected;
      strategy->observe(c, Measurement{"constraint"});
      return;
    } catch (const LiftError& e) {
      k.status = "compile-failed";
      k.message = e.diagnostic().message;
      store(k, "");
      lock.lock();
      ++counts.compileFailed;
      report(c, k, false);
      return;
    }
    runtime::KernelLaunch launch;
    try {
      launch = codegen::instantiate(*kernel, self.problem_.sizes);
      if (!c.local.empty()) {
        launch.local.assign(c.local.begin(), c.local.end());
        if (!launch.sequence.empty()) launch.sequence.front().local = launch.local;  // the first kernel's
      }
    } catch (const LiftError& e) {
      lock.lock();
      if (self.options_.dryRun) return reportDry(c, k, "invalid-launch", e.diagnostic().message);
      ++counts.rejected;
      strategy->observe(c, Measurement{"invalid-launch"});
      return;
    }
    const std::string source = kernel->source();
    k.sourceHash = kernelSourceHash(source);
    k.launch = launchText(launch.global, launch.local);
    std::string why = resourceViolation(*kernel, launch, limits);
    if (!why.empty()) {
      lock.lock();
      if (self.options_.dryRun) return reportDry(c, k, "constraint", why);
      ++counts.rejected;
      strategy->observe(c, Measurement{"constraint"});
      return;
    }
    {
      lock.lock();
      std::string kernelKey = k.kernelKey();
      bool duplicate = !seenKernels.insert(kernelKey).second;
      auto stored = storedByKernel.find(kernelKey);
      if (stored != storedByKernel.end() && !duplicate) {
        reportStored(c, stored->second);
        return;
      }
      if (duplicate) {
        ++counts.duplicates;
        auto m = measuredByProgram.find(kernelKey);
        strategy->observe(c, m != measuredByProgram.end() ? m->second : Measurement{"duplicate"});
        return;
      }
      if (!worker) return reportDry(c, k, "compiled", "");
      if (!awaitReference()) return;
      req.work = request.work;
      // A kernel whose first execution takes kSlowCandidate times the best so far is not timed
      // again (RunOptions::stopAboveMs).
      if (bestMs > 0 && req.run.stopAboveMs == 0) req.run.stopAboveMs = kSlowCandidate * bestMs;
      lock.unlock();
    }
    support::trace("search: evaluating a candidate");
    codegen::Evaluation e =
        kernel->singleKernel()
            ? codegen::evaluate(
                  c.program->program,
                  std::make_shared<const codegen::CompiledKernel>(kernel->stages.front().kernel), req,
                  *worker, &reference)
            : codegen::evaluate(c.program->program, kernel, req, *worker, &reference);
    support::trace(fmt::format("search: evaluated ({})", codegen::toString(e.status)));
    k.status = codegen::toString(e.status);
    k.message = e.message;
    k.medianMs = e.run.medianMs;
    k.minMs = e.run.minMs;
    k.maxMs = e.run.maxMs;
    k.gflops = e.gflops;
    k.gbs = e.gbps;
    k.maxRelErr = e.maxRelError;
    k.buildMs = e.run.buildMs;
    if (!e.local.empty() || !e.global.empty()) k.launch = launchText(e.global, e.local);
    if (e.status == codegen::EvaluationStatus::Cancelled || self.cancel_.load()) {
      lock.lock();
      return;  // not a measurement: a resumed search runs it again
    }
    store(k, source);
    lock.lock();
    ++counts.evaluated;
    measuredByProgram[k.kernelKey()] = Measurement{k.status, k.medianMs, k.gflops};
    report(c, k, false);
  }
};

SearchRunner::SearchRunner(SearchProblem problem, SearchOptions options, ResultStore* store)
    : problem_(std::move(problem)), options_(std::move(options)), store_(store) {}

SearchRunner::~SearchRunner() = default;

void SearchRunner::cancel() {
  cancel_.store(true);
  std::lock_guard lock(workersMutex_);
  if (referenceStop_) referenceStop_->store(true);
  for (auto* w : workers_) w->cancel();
}

SearchSummary SearchRunner::run(const EventSink& onEvent) {
  Impl impl(*this, onEvent);
  // Whatever way run() returns (an error before the strategy runs, the strategy's end, a limit),
  // the reference's thread is told to stop before Impl's end waits for it: the expected outputs
  // of a 2^14 x 2^14 matrix take seconds to make, and those of the interpreter minutes.
  struct StopReference {
    SearchRunner& self;
    Impl& impl;
    StopReference(SearchRunner& s, Impl& i) : self(s), impl(i) {
      std::lock_guard lock(self.workersMutex_);
      self.referenceStop_ = &impl.referenceStop;
      impl.referenceStop.store(self.cancel_.load());  // cancel() sets cancel_ before it locks
    }
    ~StopReference() {
      std::lock_guard lock(self.workersMutex_);
      self.referenceStop_ = nullptr;
      impl.referenceStop.store(true);
    }
  } stopReference(*this, impl);
  SearchSummary summary;
  auto finish = [&](StopReason r, const std::string& error) {
    std::lock_guard lock(impl.mutex);
    if (impl.stop == StopReason::None || r == StopReason::Error) impl.stop = r;
    summary.stopReason = impl.stop;
    summary.error = error;
    summary.counts = impl.counts;
    summary.seconds = impl.elapsed();
    summary.searchId = impl.searchId;
    summary.device = impl.device;
    summary.bestMs = impl.bestMs;
    summary.bestGflops = impl.bestGflops;
    std::vector<KernelRecord> best = impl.valid;
    std::sort(best.begin(), best.end(),
              [](const KernelRecord& a, const KernelRecord& b) { return a.medianMs < b.medianMs; });
    if (best.size() > 10) best.resize(10);
    summary.best = best;
    if (store_ && impl.searchId > 0) {
      try {
        store_->finishSearch(impl.searchId, toString(impl.stop), impl.counts.evaluated, impl.counts.valid,
                             impl.bestMs);
      } catch (const LiftError&) {
      }
    }
    SearchEvent e;
    e.kind = SearchEvent::Kind::Finished;
    e.stopReason = impl.stop;
    e.activity = error.empty() ? fmt::format("finished: {}", toString(impl.stop)) : error;
    impl.emit(std::move(e));
    return summary;
  };

  // The reference: inputs and expected outputs, once for every candidate, on a thread of its own
  // while the workers start and the strategy explores (awaitReference).
  impl.request.sizes = problem_.sizes;
  impl.request.run = options_.run;
  impl.request.seed = options_.inputSeed;
  impl.request.reference = options_.reference;
  impl.request.cancel = &cancel_;
  if (!options_.dryRun) {
    {
      std::lock_guard lock(impl.mutex);
      impl.activity("computing the expected outputs (in the background)");
    }
    std::filesystem::path cacheDir =
        options_.referenceCacheDir ? *options_.referenceCacheDir
        : options_.cacheDir
            ? (options_.cacheDir->empty() ? std::filesystem::path() : *options_.cacheDir / "references")
            : codegen::ReferenceCache::defaultDir();
    if (!cacheDir.empty()) impl.referenceCache.emplace(cacheDir);
    codegen::EvaluationRequest referenceRequest = impl.request;
    referenceRequest.cancel = &impl.referenceStop;
    impl.pendingReference = std::async(std::launch::async, [this, &impl, request = referenceRequest] {
      support::trace("search: the reference's thread starts");
      std::optional<codegen::PreparedReference> r;
      if (impl.referenceCache) try {
          r = impl.referenceCache->load(problem_.original, request);
        } catch (const std::exception&) {
          r.reset();  // made again below
        }
      impl.referenceFromCache = r.has_value();
      if (!r) r = codegen::prepareReference(problem_.original, request);
      support::trace(impl.referenceFromCache ? "search: the reference loaded" : "search: the reference made");
      if (request.cancel->load()) throw LiftError("the reference was cancelled");
      codegen::prepareBuffers(*r);
      support::trace("search: the reference's buffers prepared");
      return std::move(*r);
    });
  }

  // Workers, one per device (a dry run: the device described, no worker).
  std::vector<std::unique_ptr<runtime::WorkerClient>> workers;
  if (options_.dryRun) {
    impl.device = deviceName(*options_.dryRun);
    impl.limits = options_.deviceLimits ? *options_.deviceLimits : DeviceLimits::of(*options_.dryRun);
    impl.preferredWidth = options_.dryRun->preferredFloatVectorWidth;
  } else
    try {
      std::string liftc =
          options_.liftcPath.empty() ? runtime::WorkerClient::findLiftc() : options_.liftcPath;
      if (liftc.empty()) throw LiftError("no liftc executable for the worker (set LIFT_LIFTC)");
      for (const std::string& d :
           options_.devices.empty() ? std::vector<std::string>{"0"} : options_.devices) {
        runtime::WorkerOptions wo;
        wo.liftcPath = liftc;
        wo.device = d;
        wo.cacheDir = options_.cacheDir;
        wo.warmUp = options_.warmUpCompiler;  // while the reference and phases 1 and 2 are made
        auto w = std::make_unique<runtime::WorkerClient>(wo);
        {
          std::lock_guard lock(impl.mutex);
          impl.activity(fmt::format("starting the worker for device {}", d.empty() ? "0" : d));
        }
        runtime::DeviceInfo info = w->start();
        if (impl.device.empty()) {
          impl.device = deviceName(info);
          impl.limits = options_.deviceLimits ? *options_.deviceLimits : DeviceLimits::of(info);
          impl.preferredWidth = info.preferredFloatVectorWidth;
        }
        workers.push_back(std::move(w));
      }
    } catch (const LiftError& e) {
      return finish(StopReason::Error, quoted(e));
    }
  {
    std::lock_guard lock(workersMutex_);
    for (auto& w : workers) workers_.push_back(w.get());
  }
  struct Unregister {
    SearchRunner* self;
    ~Unregister() {
      std::lock_guard lock(self->workersMutex_);
      self->workers_.clear();
    }
  } unregister{this};
  if (cancel_.load()) return finish(StopReason::Cancelled, "");

  // The store: this search, and what earlier ones measured.
  if (store_ && !options_.dryRun) {
    try {
      SearchRecord s;
      s.program = options_.programLabel.empty() ? problem_.name : options_.programLabel;
      s.startHash = problem_.startHash;
      s.strategy = options_.strategy;
      s.seed = options_.seed;
      s.device = impl.device;
      s.sizes = problem_.sizesText;
      s.shard = options_.shardCount > 1 ? fmt::format("{}/{}", options_.shardIndex, options_.shardCount) : "";
      s.limits = fmt::format("seconds={},max-kernels={},depth={}", options_.limits.seconds,
                             options_.limits.maxKernels, options_.limits.maxDepth);
      impl.searchId = store_->beginSearch(s);
      if (options_.resume) {
        KernelQuery q;
        q.device = impl.device;
        q.sizes = problem_.sizesText;
        q.startHash = problem_.startHash;
        for (KernelRecord& k : store_->kernels(q)) {
          impl.storedByProgram.emplace(k.programHash + "|" + k.parameters, k);
          impl.storedByKernel.emplace(k.kernelKey(), k);
        }
      }
    } catch (const LiftError& e) {
      return finish(StopReason::Error, quoted(e));
    }
  }

  // The strategy.
  StrategyOptions so;
  so.seed = options_.seed;
  if (store_ && !options_.dryRun && options_.warmStart > 0) {
    // The fastest kernels of the same program on this device at other sizes, one per
    // derivation (the strategy maps them to its templates, or ignores them).
    try {
      KernelQuery q;
      q.device = impl.device;
      q.validOnly = true;
      q.bestFirst = true;
      std::set<std::string> derivations;
      std::map<std::string, double> bestOfSizes;  // ratios to the best at their sizes
      std::vector<KernelRecord> others;
      for (KernelRecord& k : store_->kernels(q)) {
        if (k.program != problem_.name || k.sizes == problem_.sizesText) continue;
        bestOfSizes.emplace(k.sizes, k.medianMs);  // best first: the first one is the best
        others.push_back(std::move(k));
      }
      // Best first across sizes: by the ratio to the best kernel of the same sizes.
      std::stable_sort(others.begin(), others.end(), [&](const KernelRecord& a, const KernelRecord& b) {
        return a.medianMs / bestOfSizes[a.sizes] < b.medianMs / bestOfSizes[b.sizes];
      });
      for (const KernelRecord& k : others) {
        if (static_cast<int>(so.hints.size()) >= options_.warmStart) break;
        if (derivations.insert(k.derivation + "|" + k.parameters).second)
          so.hints.push_back({k.derivation, k.parameters});
      }
    } catch (const LiftError& e) {
      std::lock_guard lock(impl.mutex);
      impl.activity(fmt::format("no warm start: {}", quoted(e)));
    }
  }
  so.algorithmic.maxDepth = options_.limits.maxDepth;
  so.algorithmic.heuristics = options_.heuristics;
  if (options_.limits.seconds > 0)
    so.algorithmic.maxSeconds = std::max(1.0, options_.limits.seconds * options_.phase1Share);
  if (impl.limits.gpu) so.localSizes = {32, 64, 128, 256, 16, 8, 4, 2, 1, 512, 1024};
  // On a CPU a work-group's work-items run one after another on one core: the tiled kernels with
  // the result tile in local memory and work-groups of one work-item are BLAS's cache blocking.
  so.mapping.localResultTile = !impl.limits.gpu;
  so.algorithmic.preferredWidth = impl.preferredWidth > 1 ? static_cast<int>(impl.preferredWidth) : 4;
  so.algorithmic.preferredFactors = preferredFactors(impl.limits.gpu);
  so.algorithmic.preferContiguousLanes = !impl.limits.gpu;
  so.algorithmic.rowBlockStarts = !impl.limits.gpu;
  so.algorithmic.contiguousLaneFactors = contiguousLaneFactors();
  so.codegenTunables = codegenTunables(impl.limits.gpu, static_cast<int64_t>(impl.limits.minWorkGroups));
  so.gpu = impl.limits.gpu;
  so.firstGuesses = options_.firstGuesses;
  so.firstStageDepth = options_.firstStageDepth;
  try {
    impl.strategy = makeStrategy(options_.strategy, so);
  } catch (const LiftError& e) {
    return finish(StopReason::Error, quoted(e));
  }
  impl.ctx.problem = &problem_;
  impl.ctx.cancel = &cancel_;
  impl.ctx.activity = [&impl](const std::string& what) { impl.activity(what); };  // called under the mutex

  std::vector<std::thread> threads;
  for (size_t i = 1; i < workers.size(); ++i)
    threads.emplace_back([&impl, w = workers[i].get()] { impl.work(w); });
  impl.work(workers.empty() ? nullptr : workers[0].get());
  for (auto& t : threads) t.join();
  for (auto& w : workers) w->stop();
  return finish(impl.stop == StopReason::None ? StopReason::Exhausted : impl.stop, impl.error);
}

}  // namespace lift::explore
