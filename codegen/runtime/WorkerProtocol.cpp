// Serialisation of the worker protocol's values and framing.
#include "codegen/runtime/WorkerProtocol.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "codegen/runtime/RegisterCap.h"

namespace lift::runtime::wire {

constexpr size_t kHeader = 12;  // u32 type, u64 payload length

std::string Reader::str() {
  uint64_t n = u64();
  if (n > static_cast<uint64_t>(end_ - p_)) throw WireError("truncated string");
  std::string s(p_, n);
  p_ += n;
  return s;
}

void Reader::raw(void* dst, size_t n) {
  if (n > static_cast<size_t>(end_ - p_)) throw WireError("truncated message");
  std::memcpy(dst, p_, n);
  p_ += n;
}

// ---- values

// The type byte of an array sent beside the frame has this bit set; its id follows the length.
constexpr uint8_t kBesideTheFrame = 0x80;

void put(Writer& w, const HostArray& a) {
  if (ArrayChannel* c = w.arrayChannel(); c && a.byteSize() >= kSharedArrayBytes)
    if (std::optional<uint64_t> id = c->send(a.data(), a.byteSize())) {
      w.u8(static_cast<uint8_t>(a.type()) | kBesideTheFrame);
      w.u64(a.size());
      w.u64(*id);
      return;
    }
  w.u8(static_cast<uint8_t>(a.type()));
  w.u64(a.size());
  w.raw(a.data(), a.byteSize());
}

HostArray getHostArray(Reader& r) {
  uint8_t t = r.u8();
  bool beside = (t & kBesideTheFrame) != 0;
  t &= static_cast<uint8_t>(~kBesideTheFrame);
  if (t > 2) throw WireError("bad scalar type");
  uint64_t n = r.u64();
  if (n > (uint64_t(1) << 36)) throw WireError("array too large");
  if (beside) {
    uint64_t id = r.u64();
    if (!r.arraySource()) throw WireError("an array sent beside the frame, but no channel for it");
    return r.arraySource()->receive(id, static_cast<ScalarType>(t), n);
  }
  HostArray a(static_cast<ScalarType>(t), n);
  r.raw(a.data(), a.byteSize());
  return a;
}

// An optional array: 0 none, 1 the array, 2 a key and the array, 3 a key the worker holds.
static void putOptionalArray(Writer& w, const std::optional<HostArray>& a, uint64_t key,
                             const std::unordered_set<uint64_t>* held) {
  if (!a) {
    w.u8(0);
  } else if (key == 0) {
    w.u8(1);
    put(w, *a);
  } else if (held && held->count(key)) {
    w.u8(3);
    w.u64(key);
  } else {
    w.u8(2);
    w.u64(key);
    put(w, *a);
  }
}

static std::optional<HostArray> getOptionalArray(Reader& r, uint64_t& key,
                                                 std::unordered_map<uint64_t, HostArray>* kept) {
  key = 0;
  switch (r.u8()) {
    case 0:
      return std::nullopt;
    case 1:
      return getHostArray(r);
    case 2:
      key = r.u64();
      return getHostArray(r);
    case 3: {
      key = r.u64();
      if (!kept) throw WireError("an array sent by key outside a worker");
      auto it = kept->find(key);
      if (it == kept->end()) throw WireError(fmt::format("array {} is not kept", key));
      HostArray a = std::move(it->second);
      kept->erase(it);
      return a;
    }
    default:
      throw WireError("bad array tag");
  }
}

static void putSizes(Writer& w, const std::vector<uint64_t>& v) {
  w.u64(v.size());
  for (auto x : v) w.u64(x);
}

static std::vector<uint64_t> getSizes(Reader& r) {
  uint64_t n = r.u64();
  if (n > 64) throw WireError("too many sizes");
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = r.u64();
  return v;
}

void put(Writer& w, const KernelLaunch& l, const std::unordered_set<uint64_t>* held) {
  w.str(l.source);
  w.str(l.kernelName);
  w.str(l.buildOptions);
  w.u32(static_cast<uint32_t>(l.maxRegisters));
  w.str(l.warpPatterns);
  w.str(l.sourceName);
  putSizes(w, l.global);
  putSizes(w, l.local);
  w.u64(l.seed);
  w.u64(l.args.size());
  for (const auto& a : l.args) {
    w.u8(static_cast<uint8_t>(a.kind));
    w.str(a.name);
    w.u8(static_cast<uint8_t>(a.type.scalar));
    w.u32(static_cast<uint32_t>(a.type.width));
    w.u64(a.count);
    w.u8(static_cast<uint8_t>(a.role));
    putOptionalArray(w, a.data, a.dataKey, held);
    putOptionalArray(w, a.expected, a.expectedKey, held);
    w.i64(a.intValue);
    w.f64(a.floatValue);
    w.u64(a.localBytes);
  }
  w.u64(l.sequence.size());
  for (const auto& c : l.sequence) {
    w.str(c.source);
    w.str(c.kernelName);
    w.str(c.sourceName);
    w.u64(c.args.size());
    for (uint32_t i : c.args) w.u32(i);
    putSizes(w, c.global);
    putSizes(w, c.local);
  }
}

KernelLaunch getKernelLaunch(Reader& r, std::unordered_map<uint64_t, HostArray>* kept) {
  KernelLaunch l;
  l.source = r.str();
  l.kernelName = r.str();
  l.buildOptions = r.str();
  l.maxRegisters = static_cast<int>(r.u32());
  if (!isRegisterCap(l.maxRegisters)) throw WireError("bad register cap");
  l.warpPatterns = r.str();
  l.sourceName = r.str();
  l.global = getSizes(r);
  l.local = getSizes(r);
  l.seed = r.u64();
  uint64_t n = r.u64();
  if (n > 4096) throw WireError("too many arguments");
  l.args.resize(n);
  for (auto& a : l.args) {
    a.kind = static_cast<KernelArg::Kind>(r.u8());
    a.name = r.str();
    a.type.scalar = static_cast<ScalarType>(r.u8());
    a.type.width = static_cast<int>(r.u32());
    a.count = r.u64();
    a.role = static_cast<ArgRole>(r.u8());
    a.data = getOptionalArray(r, a.dataKey, kept);
    a.expected = getOptionalArray(r, a.expectedKey, kept);
    a.intValue = r.i64();
    a.floatValue = r.f64();
    a.localBytes = r.u64();
  }
  uint64_t calls = r.u64();
  if (calls > 64) throw WireError("too many kernels");
  l.sequence.resize(calls);
  for (auto& c : l.sequence) {
    c.source = r.str();
    c.kernelName = r.str();
    c.sourceName = r.str();
    uint64_t m = r.u64();
    if (m > 4096) throw WireError("too many arguments");
    c.args.resize(m);
    for (auto& i : c.args) i = r.u32();
    c.global = getSizes(r);
    c.local = getSizes(r);
  }
  return l;
}

std::unordered_map<uint64_t, HostArray> takeKeyedArrays(KernelLaunch& l) {
  std::unordered_map<uint64_t, HostArray> out;
  for (auto& a : l.args) {
    if (a.data && a.dataKey) out[a.dataKey] = std::move(*a.data);
    if (a.expected && a.expectedKey) out[a.expectedKey] = std::move(*a.expected);
  }
  return out;
}

std::unordered_set<uint64_t> keyedArrays(const KernelLaunch& l) {
  std::unordered_set<uint64_t> out;
  for (const auto& a : l.args) {
    if (a.data && a.dataKey) out.insert(a.dataKey);
    if (a.expected && a.expectedKey) out.insert(a.expectedKey);
  }
  return out;
}

void put(Writer& w, const RunOptions& o) {
  w.i64(o.warmups);
  w.i64(o.repetitions);
  w.f64(o.tolerance.floatRel);
  w.f64(o.tolerance.floatAbs);
  w.f64(o.tolerance.doubleRel);
  w.f64(o.tolerance.doubleAbs);
  w.u8(o.returnOutputs);
  w.u8(o.timeWrongResults);
  w.f64(o.timeoutMs);
  w.f64(o.buildTimeoutMs);
  w.f64(o.stopAboveMs);
}

RunOptions getRunOptions(Reader& r) {
  RunOptions o;
  o.warmups = static_cast<int>(r.i64());
  o.repetitions = static_cast<int>(r.i64());
  o.tolerance.floatRel = r.f64();
  o.tolerance.floatAbs = r.f64();
  o.tolerance.doubleRel = r.f64();
  o.tolerance.doubleAbs = r.f64();
  o.returnOutputs = r.u8();
  o.timeWrongResults = r.u8();
  o.timeoutMs = r.f64();
  o.buildTimeoutMs = r.f64();
  o.stopAboveMs = r.f64();
  return o;
}

void put(Writer& w, const Diagnostic& d) {
  w.u8(static_cast<uint8_t>(d.severity));
  w.str(d.loc.file);
  w.i64(d.loc.line);
  w.i64(d.loc.col);
  w.str(d.message);
  w.str(d.sourceLine);
}

Diagnostic getDiagnostic(Reader& r) {
  Diagnostic d;
  d.severity = static_cast<Diagnostic::Severity>(r.u8());
  d.loc.file = r.str();
  d.loc.line = static_cast<int>(r.i64());
  d.loc.col = static_cast<int>(r.i64());
  d.message = r.str();
  d.sourceLine = r.str();
  return d;
}

static void put(Writer& w, const ValidationReport& v) {
  w.u8(v.checked);
  w.u8(v.ok);
  w.str(v.argName);
  w.i64(v.firstMismatch);
  w.f64(v.got);
  w.f64(v.expected);
  w.u8(v.unwritten);
  w.u64(v.mismatches);
  w.f64(v.maxRelError);
  w.str(v.message);
}

static ValidationReport getValidation(Reader& r) {
  ValidationReport v;
  v.checked = r.u8();
  v.ok = r.u8();
  v.argName = r.str();
  v.firstMismatch = r.i64();
  v.got = r.f64();
  v.expected = r.f64();
  v.unwritten = r.u8();
  v.mismatches = r.u64();
  v.maxRelError = r.f64();
  v.message = r.str();
  return v;
}

void put(Writer& w, const RunResult& x) {
  w.u8(static_cast<uint8_t>(x.status));
  w.str(x.message);
  w.i64(x.clErrorCode);
  w.str(x.clError);
  put(w, x.diagnostic);
  w.str(x.buildLog);
  w.u8(static_cast<uint8_t>(x.buildSource));
  w.f64(x.buildMs);
  w.u64(x.timesMs.size());
  for (double t : x.timesMs) w.f64(t);
  w.f64(x.kernelMsTotal);
  put(w, x.validation);
  w.u64(x.outputs.size());
  for (const auto& o : x.outputs) {
    w.u32(o.argIndex);
    w.str(o.name);
    put(w, o.data);
  }
}

RunResult getRunResult(Reader& r) {
  RunResult x;
  x.status = static_cast<RunStatus>(r.u8());
  x.message = r.str();
  x.clErrorCode = static_cast<int>(r.i64());
  x.clError = r.str();
  x.diagnostic = getDiagnostic(r);
  x.buildLog = r.str();
  x.buildSource = static_cast<BuildSource>(r.u8());
  x.buildMs = r.f64();
  uint64_t n = r.u64();
  if (n > (uint64_t(1) << 24)) throw WireError("too many samples");
  std::vector<double> times(n);
  for (auto& t : times) t = r.f64();
  x.setTimes(std::move(times));
  x.kernelMsTotal = r.f64();
  x.validation = getValidation(r);
  uint64_t outs = r.u64();
  if (outs > 4096) throw WireError("too many outputs");
  for (uint64_t i = 0; i < outs; ++i) {
    KernelOutput o;
    o.argIndex = r.u32();
    o.name = r.str();
    o.data = getHostArray(r);
    x.outputs.push_back(std::move(o));
  }
  return x;
}

void put(Writer& w, const DeviceInfo& d) {
  w.i64(d.index);
  w.i64(d.platformIndex);
  for (const std::string* s : {&d.platformName, &d.platformVendor, &d.platformVersion, &d.name, &d.vendor,
                               &d.type, &d.version, &d.driverVersion, &d.openclCVersion})
    w.str(*s);
  w.u32(d.computeUnits);
  w.u32(d.maxClockMHz);
  w.u64(d.globalMemBytes);
  w.u64(d.localMemBytes);
  w.u64(d.maxAllocBytes);
  w.u64(d.maxWorkGroupSize);
  putSizes(w, d.maxWorkItemSizes);
  w.u32(d.preferredFloatVectorWidth);
  w.u32(d.nativeFloatVectorWidth);
  w.u8(d.doubleSupported);
}

DeviceInfo getDeviceInfo(Reader& r) {
  DeviceInfo d;
  d.index = static_cast<int>(r.i64());
  d.platformIndex = static_cast<int>(r.i64());
  for (std::string* s : {&d.platformName, &d.platformVendor, &d.platformVersion, &d.name, &d.vendor, &d.type,
                         &d.version, &d.driverVersion, &d.openclCVersion})
    *s = r.str();
  d.computeUnits = r.u32();
  d.maxClockMHz = r.u32();
  d.globalMemBytes = r.u64();
  d.localMemBytes = r.u64();
  d.maxAllocBytes = r.u64();
  d.maxWorkGroupSize = r.u64();
  d.maxWorkItemSizes = getSizes(r);
  d.preferredFloatVectorWidth = r.u32();
  d.nativeFloatVectorWidth = r.u32();
  d.doubleSupported = r.u8();
  return d;
}

// ---- framing

std::string frame(MessageType type, const std::string& payload) {
  std::string f(kHeader, '\0');
  uint32_t t = static_cast<uint32_t>(type);
  uint64_t n = payload.size();
  std::memcpy(f.data(), &t, 4);
  std::memcpy(f.data() + 4, &n, 8);
  f += payload;
  return f;
}

Writer::Writer(MessageType frameType, std::string reuse) : buf_(std::move(reuse)) {
  buf_.assign(kHeader, '\0');
  uint32_t t = static_cast<uint32_t>(frameType);
  std::memcpy(buf_.data(), &t, 4);
}

std::string Writer::takeFrame() {
  uint64_t n = buf_.size() - kHeader;
  std::memcpy(buf_.data() + 4, &n, 8);
  return std::move(buf_);
}

void FrameBuffer::append(const char* data, size_t n) {
  if (start_ > 0) {  // drop what was handed out (usually everything: clear() keeps the capacity)
    buf_.erase(0, start_);
    start_ = 0;
  }
  buf_.append(data, n);
  // Once a header is in, make room for the whole frame at once.
  if (buf_.size() >= kHeader) {
    uint64_t len;
    std::memcpy(&len, buf_.data() + 4, 8);
    if (len < (uint64_t(1) << 36) && buf_.capacity() < kHeader + len) buf_.reserve(kHeader + len);
  }
}

std::optional<MessageView> FrameBuffer::next() {
  if (buf_.size() - start_ < kHeader) return std::nullopt;
  uint32_t t;
  uint64_t n;
  std::memcpy(&t, buf_.data() + start_, 4);
  std::memcpy(&n, buf_.data() + start_ + 4, 8);
  if (buf_.size() - start_ - kHeader < n) return std::nullopt;
  MessageView m{static_cast<MessageType>(t), std::string_view(buf_).substr(start_ + kHeader, n)};
  start_ += kHeader + n;
  return m;
}

static bool readAll(int fd, char* p, size_t n) {
  while (n > 0) {
    ssize_t k = ::read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

std::optional<MessageType> readMessage(int fd, std::string& payload) {
  char header[kHeader];
  if (!readAll(fd, header, kHeader)) return std::nullopt;
  uint32_t t;
  uint64_t n;
  std::memcpy(&t, header, 4);
  std::memcpy(&n, header + 4, 8);
  payload.resize(n);
  if (!readAll(fd, payload.data(), n)) return std::nullopt;
  return static_cast<MessageType>(t);
}

bool writeMessage(int fd, MessageType type, const std::string& payload) {
  return writeFrame(fd, frame(type, payload));
}

bool writeFrame(int fd, const std::string& f) { return writeAll(fd, f.data(), f.size()); }

bool writeAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

}  // namespace lift::runtime::wire
