// The worker protocol: length-prefixed binary messages over pipes between the parent
// (WorkerClient) and `liftc worker`. A frame is a 4-byte type and an 8-byte payload length
// (native byte order: both ends are the same build), then the payload. Values are written
// field by field, so the two ends agree without any schema beyond this file.
//
//   parent -> worker: Run(KernelLaunch, RunOptions), Crash(signal; tests only)
//   worker -> parent: Hello(version, ok, DeviceInfo | Diagnostic) once at start,
//                     Heartbeat after the build and after every kernel execution,
//                     Result(RunResult)
//
// Big arrays that stay the same from one request to the next (a search's inputs and expected
// outputs, identified by KernelArg::dataKey / expectedKey) cross the pipe once: the worker keeps
// the keyed arrays of its last request, and the parent sends an array it knows the worker holds
// as its key only.
//
// Arrays of kSharedArrayBytes or more travel beside the frame when the writer has an
// ArrayChannel (WorkerClient: a memfd each, its descriptor sent over a Unix socket): the frame
// holds the array's type, length and channel id, and the reader's ArraySource fetches the bytes.
// One copy each way instead of the pipe's (build the frame, through the pipe, out of the frame).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "codegen/runtime/DeviceInfo.h"
#include "codegen/runtime/KernelLaunch.h"
#include "codegen/runtime/RunResult.h"

namespace lift::runtime::wire {

constexpr uint32_t kProtocolVersion = 3;

// Arrays at least this large go through the writer's ArrayChannel, when it has one.
constexpr size_t kSharedArrayBytes = size_t(1) << 20;

enum class MessageType : uint32_t { Run = 1, Crash = 2, Hello = 101, Heartbeat = 102, Result = 103 };

// A message whose payload lies in a buffer owned elsewhere.
struct MessageView {
  MessageType type{};
  std::string_view payload;
};

// A malformed or truncated payload.
struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where a Writer puts big arrays instead of its frame (the parent's side).
class ArrayChannel {
 public:
  virtual ~ArrayChannel() = default;
  // Hands the array's bytes to the other side; the id the frame names them by, or nullopt to
  // write them into the frame after all (the channel could not take them).
  virtual std::optional<uint64_t> send(const void* data, size_t bytes) = 0;
};

// Where a Reader gets the arrays a frame names by channel id (the worker's side): array `id`
// of `n` scalars of type `t`; throws WireError when it does not come.
class ArraySource {
 public:
  virtual ~ArraySource() = default;
  virtual HostArray receive(uint64_t id, ScalarType t, uint64_t n) = 0;
};

class Writer {
 public:
  Writer() = default;
  // A writer whose buffer starts with the frame header, so that takeFrame() needs no copy of
  // a payload that may hold megabytes of buffer contents.
  // `reuse` lends its capacity (a buffer kept from an earlier message), so that big messages
  // do not fault in fresh pages every time.
  explicit Writer(MessageType frameType, std::string reuse = {});
  void reserve(size_t n) { buf_.reserve(n); }
  void u8(uint8_t v) { raw(&v, 1); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void i64(int64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void str(const std::string& s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void raw(const void* p, size_t n) { buf_.append(static_cast<const char*>(p), n); }
  std::string take() { return std::move(buf_); }
  // The complete frame (for a writer made with a MessageType).
  std::string takeFrame();
  // Big arrays go to `c` (not owned; nullptr: into the frame).
  void setArrayChannel(ArrayChannel* c) { channel_ = c; }
  ArrayChannel* arrayChannel() const { return channel_; }

 private:
  std::string buf_;
  ArrayChannel* channel_ = nullptr;
};

class Reader {
 public:
  // Reads from `s`, which must outlive the reader.
  explicit Reader(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}
  explicit Reader(const std::string& s) : Reader(std::string_view(s)) {}
  explicit Reader(std::string&&) = delete;
  uint8_t u8() { return get<uint8_t>(); }
  uint32_t u32() { return get<uint32_t>(); }
  uint64_t u64() { return get<uint64_t>(); }
  int64_t i64() { return get<int64_t>(); }
  double f64() { return get<double>(); }
  std::string str();
  void raw(void* dst, size_t n);
  bool atEnd() const { return p_ == end_; }
  // Where arrays sent beside the frame come from (not owned; nullptr: a frame naming one is
  // malformed).
  void setArraySource(ArraySource* s) { source_ = s; }
  ArraySource* arraySource() const { return source_; }

 private:
  template <class T>
  T get() {
    T v;
    raw(&v, sizeof v);
    return v;
  }
  const char* p_;
  const char* end_;
  ArraySource* source_ = nullptr;
};

void put(Writer& w, const HostArray& a);
// Arrays whose key is in `held` are written as their key only.
void put(Writer& w, const KernelLaunch& l, const std::unordered_set<uint64_t>* held = nullptr);
void put(Writer& w, const RunOptions& o);
void put(Writer& w, const RunResult& r);
void put(Writer& w, const DeviceInfo& d);
void put(Writer& w, const Diagnostic& d);

HostArray getHostArray(Reader& r);
// Arrays written as keys are moved out of `kept`; a key it does not hold is a WireError.
KernelLaunch getKernelLaunch(Reader& r, std::unordered_map<uint64_t, HostArray>* kept = nullptr);
// Moves the keyed arrays out of a launch: what the worker keeps after running it.
std::unordered_map<uint64_t, HostArray> takeKeyedArrays(KernelLaunch& l);
// The keys of a launch's keyed arrays (what the worker holds after a request with it).
std::unordered_set<uint64_t> keyedArrays(const KernelLaunch& l);
RunOptions getRunOptions(Reader& r);
RunResult getRunResult(Reader& r);
DeviceInfo getDeviceInfo(Reader& r);
Diagnostic getDiagnostic(Reader& r);

// The bytes of one frame.
std::string frame(MessageType type, const std::string& payload);

// Accumulates bytes read from a pipe and cuts them into messages.
class FrameBuffer {
 public:
  void append(const char* data, size_t n);
  // The next complete message, if one has arrived. Its payload stays valid until the next
  // append().
  std::optional<MessageView> next();
  // Forgets every byte (keeping the capacity for the next messages).
  void clear() {
    buf_.clear();
    start_ = 0;
  }

 private:
  std::string buf_;
  size_t start_ = 0;  // bytes of buf_ already handed out
};

// Blocking I/O on a file descriptor (the worker's side). readMessage reads the payload into
// `payload` (reusing its capacity) and returns nothing at end of input; writeMessage returns
// false when the other end is gone.
std::optional<MessageType> readMessage(int fd, std::string& payload);
bool writeMessage(int fd, MessageType type, const std::string& payload);
bool writeFrame(int fd, const std::string& frame);
// Writes all `n` bytes to a blocking descriptor (retrying after signals); false on an error.
bool writeAll(int fd, const void* data, size_t n);

}  // namespace lift::runtime::wire
