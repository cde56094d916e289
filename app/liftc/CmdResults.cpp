// liftc results --db FILE [--csv] [--all] [--top N] [--device D] [--sizes S] [--search ID]
// liftc results --db FILE --searches
// liftc results --db FILE --kernel ID          (its derivation, parameters and OpenCL source)
// liftc results --merge A.sqlite B.sqlite ... -o OUT.sqlite
// lists, exports and merges result stores of `liftc explore` (docs/RESULTS.md has the schema).
// Without --csv: the fastest valid kernels, best first (--all: every kernel, in order). With
// --csv: every kernel matching the filters as CSV on stdout.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/liftc/Command.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/ResultStore.h"

namespace lift::liftc {
namespace {

int64_t positive(const Args& args, const std::string& opt, int64_t def) {
  if (!args.has(opt)) return def;
  std::string v = args.get(opt);
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end || n < 1)
    throw LiftError(fmt::format("{}: expected a positive integer, got '{}'", opt, v));
  return n;
}

std::string oneLine(std::string s) {
  for (size_t p = s.find('\n'); p != std::string::npos; p = s.find('\n', p)) s.replace(p, 1, "; ");
  return s;
}

int runResults(const Args& args) {
  if (args.has("--merge")) {
    std::vector<std::string> inputs = args.positional;
    if (!args.get("--merge").empty()) inputs.insert(inputs.begin(), args.get("--merge"));
    if (inputs.empty() || !args.has("-o"))
      throw LiftError("usage: liftc results --merge A.sqlite B.sqlite ... -o OUT.sqlite");
    explore::ResultStore out(args.get("-o"));
    for (const std::string& in : inputs) {
      if (!std::filesystem::exists(in)) throw LiftError(fmt::format("no result store '{}'", in));
      int64_t added = out.merge(in);
      std::printf("%s: %lld kernels added\n", in.c_str(), static_cast<long long>(added));
    }
    std::printf("%s: %lld kernels (%lld valid)\n", args.get("-o").c_str(),
                static_cast<long long>(out.count()), static_cast<long long>(out.count(true)));
    return kExitOk;
  }
  if (!args.has("--db")) throw LiftError("usage: liftc results --db FILE [--csv] [--all] [--top N]");
  std::string path = args.get("--db");
  if (!std::filesystem::exists(path)) throw LiftError(fmt::format("no result store '{}'", path));
  explore::ResultStore store(path, explore::ResultStore::Access::ReadOnly);  // reading never changes it

  if (args.has("--searches")) {
    std::printf("%-4s %-10s %-12s %-20s %-16s %-6s %9s %7s %10s  %s\n", "id", "strategy", "stop", "sizes",
                "started", "shard", "evaluated", "valid", "best ms", "device");
    for (const auto& s : store.searches())
      std::printf("%-4lld %-10s %-12s %-20s %-16s %-6s %9lld %7lld %10.4f  %s\n",
                  static_cast<long long>(s.id), s.strategy.c_str(),
                  s.stopReason.empty() ? "(killed)" : s.stopReason.c_str(), s.sizes.c_str(),
                  s.startedAt.substr(0, 16).c_str(), s.shard.c_str(), static_cast<long long>(s.evaluated),
                  static_cast<long long>(s.valid), s.bestMs, s.device.c_str());
    return kExitOk;
  }
  if (args.has("--kernel")) {
    auto k = store.kernel(positive(args, "--kernel", 1));
    if (!k) throw LiftError(fmt::format("no kernel {} in '{}'", args.get("--kernel"), path));
    std::printf("# kernel %lld: %s, %s at %s on %s\n", static_cast<long long>(k->id), k->status.c_str(),
                k->program.c_str(), k->sizes.c_str(), k->device.c_str());
    std::printf("# median %.4f ms, %.2f GFLOP/s, %.2f GB/s; parameters %s; %s\n", k->medianMs, k->gflops,
                k->gbs, k->parameters.c_str(), k->launch.c_str());
    std::printf("# derivation (from the program specialised to its sizes):\n%s\n", k->derivation.c_str());
    if (auto src = store.source(k->sourceHash)) std::printf("\n%s", src->c_str());
    return kExitOk;
  }

  explore::KernelQuery q;
  q.device = args.get("--device");
  q.sizes = args.get("--sizes");
  q.searchId = args.has("--search") ? positive(args, "--search", 1) : 0;
  if (args.has("--csv")) {
    store.exportCsv(std::cout, q);
    return kExitOk;
  }
  q.validOnly = !args.has("--all");
  q.bestFirst = !args.has("--all");
  q.limit = static_cast<int>(positive(args, "--top", args.has("--all") ? 1000000 : 10));
  std::vector<explore::KernelRecord> ks = store.kernels(q);
  std::printf("%s: %lld kernels, %lld valid\n", path.c_str(), static_cast<long long>(store.count()),
              static_cast<long long>(store.count(true)));
  std::printf("%-6s %-14s %10s %10s %9s  %-16s %-28s %s\n", "id", "status", "median ms", "GFLOP/s", "GB/s",
              "sizes", "parameters", "derivation");
  for (const auto& k : ks)
    std::printf("%-6lld %-14s %10.4f %10.2f %9.2f  %-16s %-28s %s\n", static_cast<long long>(k.id),
                k.status.c_str(), k.medianMs, k.gflops, k.gbs, k.sizes.c_str(), k.parameters.c_str(),
                oneLine(k.derivation).c_str());
  return kExitOk;
}

CommandRegistration reg(
    {"results",
     "results --db FILE [--csv] [--all] [--top N] [--searches] [--kernel ID] | results --merge A B "
     "... -o OUT",
     {"--csv", "--all", "--searches"},
     {"--db", "--top", "--device", "--sizes", "--search", "--kernel", "--merge", "-o"},
     runResults});

}  // namespace
}  // namespace lift::liftc
