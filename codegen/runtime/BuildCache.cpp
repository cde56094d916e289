// The two-level program cache and the build-log parser.
#include "codegen/runtime/BuildCache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "codegen/runtime/ClError.h"
#include "codegen/runtime/RegisterCap.h"
#include "core/support/CacheDir.h"
#include "core/support/Fnv1a.h"

namespace lift::runtime {

namespace fs = std::filesystem;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

constexpr char kMagic[8] = {'L', 'I', 'F', 'T', 'B', 'I', 'N', '1'};

}  // namespace

std::optional<BuildLogError> parseBuildLog(const std::string& log) {
  static const std::regex loc(R"((\S*):(\d+):(\d+):)");
  static const std::regex bare(R"(^\s*(\d+):(\d+):)");
  std::istringstream in(log);
  std::string line;
  std::optional<BuildLogError> firstAny;
  while (std::getline(in, line)) {
    std::smatch m;
    int l = 0, c = 0;
    std::string rest;
    if (std::regex_search(line, m, bare)) {
      l = std::stoi(m[1]), c = std::stoi(m[2]);
    } else if (std::regex_search(line, m, loc)) {
      l = std::stoi(m[2]), c = std::stoi(m[3]);
    } else {
      continue;
    }
    rest = line.substr(0, m.position(0)) + line.substr(m.position(0) + m.length(0));
    rest = trim(rest);
    bool isError = rest.find("error") != std::string::npos;
    for (const char* tag : {"fatal error:", "error:"}) {
      if (auto p = rest.find(tag); p != std::string::npos) {
        rest = trim(rest.substr(0, p) + rest.substr(p + std::string(tag).size()));
        break;
      }
    }
    BuildLogError e{l, c, rest};
    if (isError) return e;
    if (!firstAny) firstAny = e;
  }
  return firstAny;
}

BuildCache::BuildCache(fs::path dir, size_t maxMemoryEntries)
    : dir_(std::move(dir)), maxEntries_(maxMemoryEntries) {}

fs::path BuildCache::defaultDir() { return support::userCacheDir("kernels"); }

BuildCache::Stats BuildCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void BuildCache::clearMemory() {
  std::lock_guard lock(mutex_);
  entries_.clear();
  lru_.clear();
}

fs::path BuildCache::fileFor(const std::string& diskKey) const {
  return dir_ / fmt::format("{:016x}.bin", support::fnv1a(diskKey));
}

// A cache file: magic, the full key (checked on load, so a hash collision is harmless), the binary.
cl::Program BuildCache::load(const DeviceContext& ctx, const std::string& diskKey,
                             const std::string& options) {
  if (dir_.empty()) return {};
  std::ifstream in(fileFor(diskKey), std::ios::binary);
  if (!in) return {};
  char magic[8];
  uint64_t keyLen = 0, binLen = 0;
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return {};
  if (!in.read(reinterpret_cast<char*>(&keyLen), 8) || keyLen != diskKey.size()) return {};
  std::string key(keyLen, '\0');
  if (!in.read(key.data(), static_cast<std::streamsize>(keyLen)) || key != diskKey) return {};
  if (!in.read(reinterpret_cast<char*>(&binLen), 8) || binLen == 0 || binLen > (uint64_t(1) << 32)) return {};
  std::vector<unsigned char> binary(binLen);
  if (!in.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(binLen))) return {};
  try {
    cl::Program p(ctx.context(), {ctx.device().handle()}, cl::Program::Binaries{binary});
    p.build({ctx.device().handle()}, options.c_str());
    return p;
  } catch (const cl::Error&) {
    return {};  // a stale or foreign binary: compile from source instead
  }
}

void BuildCache::store(const cl::Program& program, const std::string& diskKey) {
  if (dir_.empty()) return;
  // Best effort: a cache that cannot be written only costs a rebuild next time.
  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty() || binaries[0].empty()) return;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    fs::path file = fileFor(diskKey);
    // Write then rename, so that a concurrent reader (another worker) never sees half a file.
    fs::path tmp = file;
    tmp += fmt::format(".tmp{}.{}", ::getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()));
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) return;
      uint64_t keyLen = diskKey.size(), binLen = binaries[0].size();
      out.write(kMagic, 8);
      out.write(reinterpret_cast<const char*>(&keyLen), 8);
      out.write(diskKey.data(), static_cast<std::streamsize>(keyLen));
      out.write(reinterpret_cast<const char*>(&binLen), 8);
      out.write(reinterpret_cast<const char*>(binaries[0].data()), static_cast<std::streamsize>(binLen));
      if (!out) {
        fs::remove(tmp, ec);
        return;
      }
    }
    fs::rename(tmp, file, ec);
    if (ec) fs::remove(tmp, ec);
  } catch (const cl::Error&) {
  }
}

namespace {

// The program built again from its PTX with `directive` in each kernel entry (RegisterCap.h).
cl::Program rebuiltWith(const DeviceContext& ctx, const cl::Program& built, const std::string& directive,
                        const std::string& options, const std::string& sourceName) {
  auto binaries = built.getInfo<CL_PROGRAM_BINARIES>();
  std::string ptx = binaries.empty() ? "" : std::string(binaries[0].begin(), binaries[0].end());
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  std::string edited = withEntryDirective(ptx, directive);
  if (edited.empty()) {
    Diagnostic d;
    d.loc.file = sourceName;
    d.message = fmt::format("cannot add '{}' to the kernel: the driver's binary of it is not PTX", directive);
    throw BuildError(d, "");
  }
  std::vector<unsigned char> bytes(edited.begin(), edited.end());
  bytes.push_back('\0');
  cl::Program again(ctx.context(), {ctx.device().handle()}, cl::Program::Binaries{bytes});
  try {
    again.build({ctx.device().handle()}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = trim(again.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx.device().handle()));
    } catch (const cl::Error&) {
    }
    Diagnostic d;
    d.loc.file = sourceName;
    d.message = fmt::format("the kernel's PTX with '{}' did not build ({}){}", directive,
                            clErrorName(e.err()), log.empty() ? "" : ": " + log.substr(0, log.find('\n')));
    throw BuildError(d, log);
  }
  return again;
}

}  // namespace

BuiltProgram BuildCache::build(const DeviceContext& ctx, const std::string& source,
                               const std::string& options, const std::string& sourceName,
                               const std::string& entryDirective) {
  auto t0 = std::chrono::steady_clock::now();
  const std::string diskKey = fmt::format("{}\x1f{}{}\x1f{}", ctx.device().info().cacheKey(), options,
                                          entryDirective.empty() ? "" : "\x1e" + entryDirective, source);
  // Programs belong to a context, so the memory key names it too.
  const std::string memKey = fmt::format("{}\x1f{}", reinterpret_cast<uintptr_t>(ctx.context()()), diskKey);

  std::promise<cl::Program> promise;
  {
    std::unique_lock lock(mutex_);
    if (auto it = entries_.find(memKey); it != entries_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      auto future = it->second.program;
      ++stats_.memoryHits;
      lock.unlock();
      return {future.get(), BuildSource::MemoryCache, msSince(t0)};  // rethrows a remembered BuildError
    }
    lru_.push_front(memKey);
    entries_[memKey] = Entry{promise.get_future().share(), lru_.begin()};
    while (entries_.size() > maxEntries_) {
      entries_.erase(lru_.back());
      lru_.pop_back();
    }
  }

  auto forget = [&] {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(memKey); it != entries_.end()) {
      lru_.erase(it->second.lru);
      entries_.erase(it);
    }
  };

  if (cl::Program p = load(ctx, diskKey, options); p()) {
    promise.set_value(p);
    std::lock_guard lock(mutex_);
    ++stats_.diskHits;
    return {p, BuildSource::DiskCache, msSince(t0)};
  }

  const cl::Device& dev = ctx.device().handle();
  cl::Program program;
  try {
    program = cl::Program(ctx.context(), source);
    program.build({dev}, options.c_str());
    if (!entryDirective.empty()) program = rebuiltWith(ctx, program, entryDirective, options, sourceName);
  } catch (const cl::Error& e) {
    std::string log;
    try {
      if (program()) log = trim(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev));
    } catch (const cl::Error&) {
    }
    if (e.err() != CL_BUILD_PROGRAM_FAILURE && e.err() != CL_INVALID_BUILD_OPTIONS &&
        e.err() != CL_COMPILE_PROGRAM_FAILURE) {
      // Not the kernel's fault (e.g. out of host memory): do not remember it.
      forget();
      promise.set_exception(std::current_exception());
      throw;
    }
    Diagnostic d;
    if (e.err() == CL_INVALID_BUILD_OPTIONS) {
      d.loc.file = sourceName;
      d.message = fmt::format("invalid OpenCL build options '{}'", options);
    } else if (auto first = parseBuildLog(log)) {
      d = makeDiagnostic(sourceName, source, first->line, first->col,
                         "OpenCL build failed: " + (first->message.empty() ? "error" : first->message));
    } else {
      d.loc.file = sourceName;
      std::string firstLine = log.substr(0, log.find('\n'));
      d.message = "OpenCL build failed" + (firstLine.empty() ? std::string() : ": " + firstLine);
    }
    auto error = std::make_exception_ptr(BuildError(d, log));
    promise.set_exception(error);
    {
      std::lock_guard lock(mutex_);
      ++stats_.failures;
    }
    std::rethrow_exception(error);
  } catch (...) {
    forget();
    promise.set_exception(std::current_exception());
    throw;
  }
  promise.set_value(program);
  store(program, diskKey);
  {
    std::lock_guard lock(mutex_);
    ++stats_.compiles;
  }
  return {program, BuildSource::Compiled, msSince(t0)};
}

}  // namespace lift::runtime
