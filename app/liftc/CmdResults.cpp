// liftc results --db FILE [--csv] [--all] [--top N] [--device D] [--sizes S] [--search ID]
// liftc results --db FILE --searches
// liftc results --db FILE --kernel ID          (its derivation, parameters and OpenCL source)
// liftc results --merge A.sqlite B.sqlite ... -o OUT.sqlite
// liftc results --check STORE                  (SQLite's integrity check; exit 2 when it fails)
// lists, exports and merges result stores of `liftc explore` (docs/RESULTS.md has the schema).
// Without --csv: the fastest valid kernels, best first (--all: every kernel, in order). With
// --csv: every kernel matching the filters as CSV on stdout.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchProblem.h"

namespace lift::liftc {
namespace {

struct ResultsArgs {
  std::string db, check, merge, output;
  std::vector<std::string> stores;  // more stores to merge
  bool csv = false, all = false, searches = false;
  int64_t top = 0, kernel = 0, search = 0;
  std::string device;
  arith::Env sizes;
};

std::string oneLine(std::string s) {
  for (size_t p = s.find('\n'); p != std::string::npos; p = s.find('\n', p)) s.replace(p, 1, "; ");
  return s;
}

int merge(const ResultsArgs& args) {
  std::vector<std::string> inputs = args.stores;
  if (!args.merge.empty()) inputs.insert(inputs.begin(), args.merge);
  if (inputs.empty())
    badArgument("--merge", "expected the stores to merge: --merge A.sqlite B.sqlite ... -o OUT");
  if (args.output.empty()) badArgument("--merge", "expected -o OUT.sqlite, the store to merge into");
  // Every input is checked (it exists, is a whole result store, is not the output) before the
  // output is opened: a refused merge leaves the output as it was.
  for (const std::string& in : inputs) {
    if (!std::filesystem::exists(in)) throw LiftError(fmt::format("no result store '{}'", in));
    std::error_code ec;
    if (std::filesystem::equivalent(in, args.output, ec))
      throw LiftError(fmt::format("cannot merge the result store '{}' into itself", in));
    explore::ResultStore check(in, explore::ResultStore::Access::ReadOnly);
  }
  explore::ResultStore out(args.output);
  for (const std::string& in : inputs) {
    int64_t added = out.merge(in);
    std::printf("%s: %lld kernels added\n", in.c_str(), static_cast<long long>(added));
  }
  std::printf("%s: %lld kernels (%lld valid)\n", args.output.c_str(), static_cast<long long>(out.count()),
              static_cast<long long>(out.count(true)));
  return kExitOk;
}

// --check STORE: SQLite's integrity check of the whole file, then whether it is a result store.
int check(const std::string& path) {
  if (!std::filesystem::exists(path)) throw LiftError(fmt::format("no result store '{}'", path));
  std::vector<std::string> problems = explore::ResultStore::integrityProblems(path);
  if (!problems.empty()) {
    std::fprintf(stderr, "liftc results: error: '%s' is damaged: SQLite's integrity check found %s%s:\n",
                 path.c_str(),
                 problems.size() >= explore::ResultStore::kMaxIntegrityProblems ? "at least " : "",
                 problems.size() == 1 ? "1 problem" : fmt::format("{} problems", problems.size()).c_str());
    for (const std::string& p : problems) std::fprintf(stderr, "  %s\n", p.c_str());
    return kExitError;
  }
  explore::ResultStore store(path, explore::ResultStore::Access::ReadOnly);
  std::printf("%s: ok (SQLite integrity check passed; %lld kernels, %lld valid, %zu searches)\n",
              path.c_str(), static_cast<long long>(store.count()), static_cast<long long>(store.count(true)),
              store.searches().size());
  return kExitOk;
}

int runResults(const ResultsArgs& args) {
  if (!args.check.empty()) return check(args.check);
  if (!args.merge.empty() || !args.stores.empty()) return merge(args);
  const std::string& path = args.db;
  if (!std::filesystem::exists(path)) throw LiftError(fmt::format("no result store '{}'", path));
  explore::ResultStore store(path, explore::ResultStore::Access::ReadOnly);  // reading never changes it

  if (args.searches) {
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
  if (args.kernel > 0) {
    auto k = store.kernel(args.kernel);
    if (!k) throw LiftError(fmt::format("no kernel {} in '{}'", args.kernel, path));
    std::printf("# kernel %lld: %s, %s at %s on %s\n", static_cast<long long>(k->id), k->status.c_str(),
                k->program.c_str(), k->sizes.c_str(), k->device.c_str());
    std::printf("# median %.4f ms, %.2f GFLOP/s, %.2f GB/s; parameters %s; %s\n", k->medianMs, k->gflops,
                k->gbs, k->parameters.c_str(), k->launch.c_str());
    std::printf("# derivation (from the program specialised to its sizes):\n%s\n", k->derivation.c_str());
    if (auto src = store.source(k->sourceHash)) std::printf("\n%s", src->c_str());
    return kExitOk;
  }

  explore::KernelQuery q;
  q.device = args.device;
  q.sizes = args.sizes.empty() ? "" : explore::formatSizes(args.sizes);
  q.searchId = args.search;
  if (args.csv) {
    store.exportCsv(std::cout, q);
    return kExitOk;
  }
  q.validOnly = !args.all;
  q.bestFirst = !args.all;
  q.limit = static_cast<int>(args.top > 0 ? args.top : args.all ? 1000000 : 10);
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

const CommandRegistration registration(Command{
    "results", "list, export, check and merge the result stores of liftc explore", [](CLI::App& cmd) {
      auto args = std::make_shared<ResultsArgs>();
      auto* db =
          cmd.add_option("--db", args->db, "the result store to read (never changed)")->type_name("FILE");
      auto* check =
          cmd.add_option(
                 "--check", args->check,
                 "run SQLite's integrity check on a store (exit 2, listing the problems, when it fails)")
              ->type_name("STORE");
      auto* merge =
          cmd.add_option("--merge", args->merge, "merge stores into the one of -o: --merge A B ... -o OUT")
              ->type_name("A.sqlite");
      cmd.add_option("STORE", args->stores, "more stores to merge (after --merge A)")->needs(merge);
      auto* output =
          cmd.add_option("-o", args->output, "the store --merge writes into")->type_name("OUT.sqlite");
      db->excludes(check)->excludes(merge);
      check->excludes(merge);
      merge->needs(output);
      output->needs(merge);
      // What to list from --db.
      const int64_t kMaxId = std::numeric_limits<int64_t>::max();
      for (CLI::Option* o :
           {cmd.add_flag("--csv", args->csv, "every kernel matching the filters as CSV"),
            cmd.add_flag("--all", args->all, "every kernel, in order (default: the fastest valid ones)"),
            cmd.add_option("--top", args->top, "how many kernels to list (default 10)")->check(integerIn(1)),
            cmd.add_flag("--searches", args->searches, "the searches instead of the kernels"),
            cmd.add_option("--kernel", args->kernel,
                           "one kernel: its derivation, parameters and OpenCL source")
                ->check(integerIn(1, kMaxId))
                ->type_name("ID"),
            cmd.add_option("--device", args->device,
                           "only the kernels of this device (as the store names it)"),
            addSizeOption(cmd, args->sizes, "256", "--sizes")->description("only the kernels of these sizes"),
            cmd.add_option("--search", args->search, "only the kernels of this search (see --searches)")
                ->check(integerIn(1, kMaxId))
                ->type_name("ID")})
        o->needs(db);
      return [args] {
        if (args->db.empty() && args->check.empty() && args->merge.empty())
          badUsage("expected --db FILE, --check STORE or --merge A.sqlite B.sqlite ... -o OUT.sqlite");
        return runResults(*args);
      };
    }});

}  // namespace
}  // namespace lift::liftc
