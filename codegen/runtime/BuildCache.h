// BuildCache: OpenCL programs keyed by (source, device, build options), kept in memory and as
// binaries on disk, so that no kernel is compiled twice — neither within a search nor across
// runs of the app and its worker processes. A failed build becomes a BuildError whose
// diagnostic points at the kernel source line named in the build log.
#pragma once

#include <CL/opencl.hpp>

#include <cstdint>
#include <filesystem>
#include <future>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "codegen/runtime/Device.h"
#include "codegen/runtime/RunResult.h"
#include "core/support/Diagnostic.h"

namespace lift::runtime {

// A kernel that did not compile: the diagnostic (at the kernel source line when the log names
// one) and the full build log.
class BuildError : public LiftError {
 public:
  BuildError(Diagnostic d, std::string log) : LiftError(std::move(d)), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

// The first error of a build log: "<source>:3:10: error: ...", "/tmp/x.cl:3:10: ...",
// "3:10: error: ..." (PoCL, NVIDIA, Intel, clang styles).
struct BuildLogError {
  int line = 0;
  int col = 0;
  std::string message;
};
std::optional<BuildLogError> parseBuildLog(const std::string& log);

struct BuiltProgram {
  cl::Program program;
  BuildSource source = BuildSource::None;
  double ms = 0;  // host time spent here
};

class BuildCache {
 public:
  // `dir` holds the binaries; an empty path keeps the cache in memory only.
  explicit BuildCache(std::filesystem::path dir = defaultDir(), size_t maxMemoryEntries = 512);

  // $XDG_CACHE_HOME/lift-studio/kernels, else ~/.cache/lift-studio/kernels (empty when neither
  // variable is set).
  static std::filesystem::path defaultDir();

  // The program for `source` built for the context's device with `options`: from memory, else
  // from a binary on disk, else compiled (and then stored in both). Throws BuildError when the
  // source does not compile; a failed build is remembered too. Thread-safe: concurrent
  // requests for the same program wait for one build.
  // `entryDirective` (NVIDIA only, RegisterCap.h): a PTX directive such as ".maxnreg 128" for each
  // kernel entry: the source's PTX gets it and is built again.
  BuiltProgram build(const DeviceContext& ctx, const std::string& source, const std::string& options = "",
                     const std::string& sourceName = "kernel.cl", const std::string& entryDirective = "");

  struct Stats {
    uint64_t memoryHits = 0;
    uint64_t diskHits = 0;
    uint64_t compiles = 0;
    uint64_t failures = 0;
  };
  Stats stats() const;
  const std::filesystem::path& dir() const { return dir_; }
  // Forgets the programs held in memory (the disk stays).
  void clearMemory();

 private:
  struct Entry {
    std::shared_future<cl::Program> program;
    std::list<std::string>::iterator lru;
  };
  cl::Program load(const DeviceContext& ctx, const std::string& diskKey, const std::string& options);
  void store(const cl::Program& program, const std::string& diskKey);
  std::filesystem::path fileFor(const std::string& diskKey) const;

  std::filesystem::path dir_;
  size_t maxEntries_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recent first
  Stats stats_;
};

}  // namespace lift::runtime
