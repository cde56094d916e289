// Prepared references kept on disk (see ReferenceCache.h).
#include "codegen/ReferenceCache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/interp/WorkCount.h"
#include "core/lang/Printer.h"
#include "core/support/CacheDir.h"
#include "core/support/Fnv1a.h"

namespace lift::codegen {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'L', 'I', 'F', 'T', 'R', 'E', 'F', '1'};

size_t scalarBytes(ScalarKind k) { return k == ScalarKind::Double ? 8 : 4; }

template <class T>
void put(std::ostream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}
void putString(std::ostream& out, const std::string& s) {
  put<uint64_t>(out, s.size());
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
}
template <class T>
bool get(std::istream& in, T& v) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&v), sizeof v));
}
bool getString(std::istream& in, std::string& s, uint64_t limit) {
  uint64_t n = 0;
  if (!get(in, n) || n > limit) return false;
  s.resize(n);
  return static_cast<bool>(in.read(s.data(), static_cast<std::streamsize>(n)));
}

bool cacheable(const interp::Value& v) {
  return v.isArray() && v.isFlat() && v.flatKind() != ScalarKind::Bool;
}

// A flat array: kind, width, rank, dims, then its scalars in their own type, in chunks.
void putValue(std::ostream& out, const interp::Value& v) {
  put<uint8_t>(out, static_cast<uint8_t>(v.flatKind()));
  put<int32_t>(out, v.flatWidth());
  std::span<const int64_t> dims = v.dims();
  put<uint8_t>(out, static_cast<uint8_t>(dims.size()));
  for (int64_t d : dims) put<int64_t>(out, d);
  std::span<const interp::Scalar> data = v.flatData();
  put<uint64_t>(out, data.size());
  size_t bytes = scalarBytes(v.flatKind());
  std::vector<char> buf;
  for (size_t at = 0; at < data.size(); at += 1 << 20) {
    size_t n = std::min<size_t>(1 << 20, data.size() - at);
    buf.resize(n * bytes);
    for (size_t i = 0; i < n; ++i) {
      const interp::Scalar& s = data[at + i];
      switch (v.flatKind()) {
        case ScalarKind::Float:
          std::memcpy(&buf[i * 4], &s.f, 4);
          break;
        case ScalarKind::Int:
          std::memcpy(&buf[i * 4], &s.i, 4);
          break;
        default:
          std::memcpy(&buf[i * 8], &s.d, 8);
          break;
      }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
}

std::optional<interp::Value> getValue(std::istream& in) {
  uint8_t kind = 0, rank = 0;
  int32_t width = 0;
  if (!get(in, kind) || kind > static_cast<uint8_t>(ScalarKind::Int) || !get(in, width) || width < 1 ||
      width > 16 || !get(in, rank) || rank < 1 || rank > interp::Value::kMaxFlatRank)
    return std::nullopt;
  std::vector<int64_t> dims(rank);
  uint64_t expected = static_cast<uint64_t>(width);
  for (int64_t& d : dims) {
    if (!get(in, d) || d <= 0 || static_cast<uint64_t>(d) > (uint64_t{1} << 40) / expected)
      return std::nullopt;
    expected *= static_cast<uint64_t>(d);
  }
  uint64_t count = 0;
  if (!get(in, count) || count != expected) return std::nullopt;
  auto k = static_cast<ScalarKind>(kind);
  size_t bytes = scalarBytes(k);
  std::vector<interp::Scalar> data(count);
  std::vector<char> buf;
  for (size_t at = 0; at < count; at += 1 << 20) {
    size_t n = std::min<size_t>(1 << 20, count - at);
    buf.resize(n * bytes);
    if (!in.read(buf.data(), static_cast<std::streamsize>(buf.size()))) return std::nullopt;
    for (size_t i = 0; i < n; ++i) {
      interp::Scalar& s = data[at + i];
      switch (k) {
        case ScalarKind::Float:
          std::memcpy(&s.f, &buf[i * 4], 4);
          break;
        case ScalarKind::Int:
          std::memcpy(&s.i, &buf[i * 4], 4);
          break;
        default:
          std::memcpy(&s.d, &buf[i * 8], 8);
          break;
      }
    }
  }
  return interp::Value::flatArray(k, width, std::move(dims), std::move(data));
}

}  // namespace

ReferenceCache::ReferenceCache(fs::path dir, uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {}

fs::path ReferenceCache::defaultDir() { return support::userCacheDir("references"); }

std::string ReferenceCache::keyOf(const ir::Program& p, const EvaluationRequest& request) {
  std::string sizes;
  for (auto& [n, v] : request.sizes) sizes += fmt::format("{}={};", n, v);
  // "inputs 2": the counter-based random inputs (core/interp/RandomInputs.cpp).
  return fmt::format("{}\nsizes {}\nseed {}\nreference {}\ninterpreter budget {}\ninputs 2\n",
                     lang::printProgram(p, {.allPairsByName = false}), sizes, request.seed,
                     request.reference.name(), request.interpreterBudget);
}

fs::path ReferenceCache::fileOf(const ir::Program& p, const EvaluationRequest& request) const {
  return dir_ / fmt::format("{:016x}.ref", support::fnv1a(keyOf(p, request)));
}

std::optional<PreparedReference> ReferenceCache::load(const ir::Program& p,
                                                      const EvaluationRequest& request) const {
  if (dir_.empty()) return std::nullopt;
  std::error_code ec;
  fs::path file = fileOf(p, request);
  if (!fs::exists(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  char magic[8] = {};
  std::string key = keyOf(p, request), storedKey, description;
  uint8_t source = 0, hasExpected = 0;
  uint32_t inputs = 0;
  double nominalFlops = 0;
  PreparedReference ref;
  bool ok = in.read(magic, 8) && std::memcmp(magic, kMagic, 8) == 0 &&
            getString(in, storedKey, key.size() + 1) && storedKey == key &&
            getString(in, description, 1 << 16) && get(in, source) &&
            source <= static_cast<uint8_t>(ValidationSource::None) && get(in, nominalFlops) &&
            get(in, inputs) && inputs <= 64;
  for (uint32_t i = 0; ok && i < inputs; ++i) {
    std::optional<interp::Value> v = getValue(in);
    ok = v.has_value();
    if (ok) ref.inputs.push_back(std::move(*v));
  }
  ok = ok && get(in, hasExpected);
  if (ok && hasExpected) {
    std::optional<interp::Value> v = getValue(in);
    ok = v.has_value();
    if (ok) ref.expected = std::move(*v);
  }
  if (!ok) {
    in.close();
    fs::remove(file, ec);  // damaged, or another key under the same hash: made again
    return std::nullopt;
  }
  ref.sizes = request.sizes;
  ref.seed = request.seed;
  ref.source = static_cast<ValidationSource>(source);
  ref.description = description;
  ref.nominalFlops = nominalFlops;
  ref.work = interp::countWork(p, request.sizes);
  fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // used now
  return ref;
}

bool ReferenceCache::store(const ir::Program& p, const EvaluationRequest& request,
                           const PreparedReference& ref) const {
  if (dir_.empty()) return false;
  if (!std::all_of(ref.inputs.begin(), ref.inputs.end(), cacheable) ||
      (ref.expected && !cacheable(*ref.expected)))
    return false;
  uint64_t bytes = 0;
  for (const interp::Value& v : ref.inputs) bytes += v.flatData().size() * scalarBytes(v.flatKind());
  if (ref.expected) bytes += ref.expected->flatData().size() * scalarBytes(ref.expected->flatKind());
  if (bytes > maxBytes_) return false;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  fs::path file = fileOf(p, request);
  fs::path tmp = file;
  tmp += fmt::format(".{}.tmp", ::getpid());
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) return false;
      out.write(kMagic, 8);
      putString(out, keyOf(p, request));
      putString(out, ref.description);
      put<uint8_t>(out, static_cast<uint8_t>(ref.source));
      put<double>(out, ref.nominalFlops);
      put<uint32_t>(out, static_cast<uint32_t>(ref.inputs.size()));
      for (const interp::Value& v : ref.inputs) putValue(out, v);
      put<uint8_t>(out, ref.expected ? 1 : 0);
      if (ref.expected) putValue(out, *ref.expected);
      if (!out.flush()) {
        out.close();
        fs::remove(tmp, ec);
        return false;
      }
    }
    fs::rename(tmp, file, ec);
    if (ec) {
      fs::remove(tmp, ec);
      return false;
    }
    // The least recently used go first while the directory holds more than maxBytes.
    std::vector<std::pair<fs::file_time_type, fs::path>> files;
    uint64_t total = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
      if (e.path().extension() != ".ref") continue;
      total += e.file_size(ec);
      files.push_back({e.last_write_time(ec), e.path()});
    }
    std::sort(files.begin(), files.end());
    for (auto& [time, path] : files) {
      if (total <= maxBytes_) break;
      if (path == file) continue;
      uint64_t size = fs::file_size(path, ec);
      if (fs::remove(path, ec)) total -= std::min(total, size);
    }
    return true;
  } catch (const std::exception&) {
    fs::remove(tmp, ec);
    return false;
  }
}

}  // namespace lift::codegen
