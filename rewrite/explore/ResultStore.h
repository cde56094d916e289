// The result store: every kernel a search evaluates, in one SQLite file (docs/RESULTS.md has the
// schema). Each kernel is written in its own transaction (WAL journal), so a search that is
// killed loses nothing already measured, and a resumed search finds what was measured and does
// not measure it again. Several searches (one per device, or shards of one search on several
// machines) write into one store, or into several that `merge` combines. No Qt.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace lift::explore {

// One evaluated candidate (a row of `kernels`).
struct KernelRecord {
  int64_t id = 0;
  int64_t searchId = 0;
  std::string programHash;  // structural hash of the derived (low-level) program, hex
  std::string startHash;    // structural hash of the program the search started from, hex
  std::string program;      // name of the starting program ("matmul")
  std::string derivation;   // the rewrite steps, one RULE@LOC[:PARAMS] a line
  std::string parameters;   // the tuning parameters as "name=value,..." (split factors, local size)
  std::string strategy;     // "three-phase", "random", "evolution", "replay"
  std::string phase;        // what produced it within the strategy ("parameters", "mutation", ...)
  std::string device;       // DeviceInfo name and platform: "cpu-... (Portable Computing Language)"
  std::string sizes;        // "K=256,M=256,N=256" (sorted by name)
  std::string sourceHash;   // hash of the OpenCL source, hex; empty when code generation failed
  std::string launch;       // "global=64,64 local=8,8"
  std::string status;       // "ok", "wrong-result", "build-failed", "timeout", "codegen-failed", ...
  double medianMs = 0, minMs = 0, maxMs = 0;
  double gflops = 0, gbs = 0;
  double maxRelErr = 0;
  double buildMs = 0;     // OpenCL build time (0 from the cache)
  double elapsedS = 0;    // seconds since the start of its search, when it was stored
  std::string message;    // one line: why it failed
  std::string createdAt;  // ISO 8601, UTC

  bool ok() const { return status == "ok"; }
  // What identifies a measurement: the kernel (source and launch, or the program where there is
  // no source), the device and the sizes.
  std::string kernelKey() const;
  std::string programKey() const;  // program hash, parameters, device, sizes
};

// One search (a row of `searches`).
struct SearchRecord {
  int64_t id = 0;
  std::string program;  // path or name of the starting program
  std::string startHash;
  std::string strategy;
  uint64_t seed = 0;
  std::string device;
  std::string sizes;
  std::string shard;   // "i/n", or "" for the whole space
  std::string limits;  // "budget=90s,max-kernels=0,depth=8"
  std::string startedAt, finishedAt;
  std::string stopReason;  // "" while running (or when it was killed)
  int64_t evaluated = 0, valid = 0;
  double bestMs = 0;
  std::string host;
};

struct KernelQuery {
  std::string device, sizes, startHash;  // empty: any
  int64_t searchId = 0;                  // 0: any
  bool validOnly = false;
  bool bestFirst = false;  // by median time (fastest first); else in insertion order
  int limit = 0;           // 0: all
};

class ResultStore {
 public:
  enum class Access { ReadWrite, ReadOnly };
  // Opens a store. ReadWrite creates the file and its tables when needed (and keeps the store
  // in WAL mode); ReadOnly only reads: it never creates, migrates or changes the file, and
  // refuses a file that is not a result store (an SQLite database without our tables
  // included) or a damaged one (it fails SQLite's integrity check). Throws LiftError when the
  // file cannot be opened, is not a result store or is damaged; so does every call that meets a
  // damaged file later, saying so.
  explicit ResultStore(const std::string& path, Access access = Access::ReadWrite);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  const std::string& path() const { return path_; }

  int64_t beginSearch(SearchRecord s);
  void finishSearch(int64_t id, const std::string& stopReason, int64_t evaluated, int64_t valid,
                    double bestMs);
  std::vector<SearchRecord> searches();

  // Stores one kernel (and its source, once per hash) in one transaction. A kernel whose key is
  // already stored is not stored again; the id of the stored one is returned.
  int64_t addKernel(const KernelRecord& k, const std::string& source = {});

  std::vector<KernelRecord> kernels(const KernelQuery& q = {});
  std::optional<KernelRecord> kernel(int64_t id);
  // The fastest valid kernel stored for a program, sizes and device: `startHash` the hash of
  // the program its search started from (SearchProblem::startHash, the program specialised to
  // the sizes), `sizes` as SearchProblem::sizesText, `device` as deviceName() gives it (empty:
  // any, as in KernelQuery). Of equally fast ones the first stored; none when no valid kernel
  // matches.
  std::optional<KernelRecord> bestKernel(const std::string& startHash, const std::string& sizes,
                                         const std::string& device);
  std::optional<std::string> source(const std::string& sourceHash);
  int64_t count(bool validOnly = false);

  // The problems SQLite's integrity check (PRAGMA integrity_check) finds in the file, at most
  // kMaxIntegrityProblems; none when it is sound. Opens the file read-only, whatever it holds.
  // Throws LiftError when it cannot be opened or is not an SQLite database.
  static constexpr size_t kMaxIntegrityProblems = 100;
  static std::vector<std::string> integrityProblems(const std::string& path);

  // CSV with a header line, one kernel a line, in id order.
  void exportCsv(std::ostream& out, const KernelQuery& q = {});

  // Copies the searches and kernels of another store into this one (kernels already here, by
  // kernelKey, are skipped). Returns the number of kernels added.
  int64_t merge(const std::string& otherPath);

  // The current time as ISO 8601 UTC with milliseconds.
  static std::string now();

 private:
  void exec(const char* sql);
  static std::vector<std::string> integrityProblems(sqlite3* db, size_t max);
  std::string path_;
  sqlite3* db_ = nullptr;
  std::recursive_mutex mutex_;
};

// Hex of a 64-bit FNV-1a hash of the text.
std::string hashText(const std::string& text);
// The store's source hash of an OpenCL kernel: of its text without the leading comment lines
// (they name the file the program came from, which does not change the kernel).
std::string kernelSourceHash(const std::string& source);
std::string hex64(uint64_t v);

}  // namespace lift::explore
