// Both sides of the isolated worker: the client (fork/exec, pipes, poll with deadlines,
// SIGKILL, waitpid) and the worker's serving loop.
#include "codegen/runtime/Worker.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "codegen/runtime/ClError.h"
#include "codegen/runtime/KernelRunner.h"
#include "codegen/runtime/WorkerProtocol.h"
#include "core/support/Diagnostic.h"
#include "core/support/Trace.h"

namespace lift::runtime {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kStderrKeep = 4096;

std::string signalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  return fmt::format("SIG{} ({})", abbrev ? abbrev : std::to_string(sig), desc ? desc : "?");
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Milliseconds left until `deadline`, rounded up, for poll().
int msUntil(Clock::time_point deadline) {
  auto left = std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return static_cast<int>(std::min(std::ceil(left), 1e9));
}

Clock::time_point after(double ms) {
  return Clock::now() + std::chrono::microseconds(static_cast<int64_t>(std::min(ms, 1e12) * 1000));
}

// Waits up to `ms` for `pid` to end; true (and the status) if it did.
bool waitFor(pid_t pid, int& status, double ms) {
  auto deadline = after(ms);
  for (;;) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) {
      status = 0;
      return true;  // not our child any more (e.g. SIGCHLD ignored): nothing to wait for
    }
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::string lastLines(const std::string& s) {
  std::string t = s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > 1000) t = "..." + t.substr(t.size() - 1000);
  return t;
}

// ---- big arrays beside the pipe: a memfd each, its descriptor and id in one socket message

// The `n` scalars of type `t` in the memfd `fd`, copied out of its mapping in one pass (no
// zeroed array first); nullopt when it holds fewer bytes or cannot be mapped.
std::optional<HostArray> arrayIn(int fd, ScalarType t, uint64_t n) {
  const size_t bytes = n * sizeOf(t);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < bytes) return std::nullopt;
  if (bytes == 0) return HostArray(t, 0);
  // MAP_POPULATE maps the file's pages at once: a 1 GiB array read through page faults, one a
  // page, took longer than a read into a zeroed array (measured on an H100 host).
  void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) return std::nullopt;
  auto copy = [&](auto* first) { return HostArray(std::vector(first, first + n)); };
  std::optional<HostArray> a;
  switch (t) {
    case ScalarType::Float:
      a = copy(static_cast<const float*>(p));
      break;
    case ScalarType::Double:
      a = copy(static_cast<const double*>(p));
      break;
    case ScalarType::Int:
      a = copy(static_cast<const int32_t*>(p));
      break;
  }
  ::munmap(p, bytes);
  return a;
}

// One message of the arrays' socket: an id, and room for one descriptor beside it.
struct DescriptorMessage {
  uint64_t id = 0;
  iovec iov{&id, sizeof id};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  DescriptorMessage() {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  DescriptorMessage(const DescriptorMessage&) = delete;  // msg points into it
  DescriptorMessage& operator=(const DescriptorMessage&) = delete;
};

// Sends `fd` with `id` as the message (never blocks: a full socket sends nothing).
bool sendDescriptor(int socket, int fd, uint64_t id) {
  DescriptorMessage m;
  m.id = id;
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  ssize_t k;
  do k = ::sendmsg(socket, &m.msg, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (k < 0 && errno == EINTR);
  return k == static_cast<ssize_t>(sizeof id);
}

// Receives one message of sendDescriptor: its id and descriptor (-1 if none came with it).
bool receiveDescriptor(int socket, uint64_t& id, int& fd) {
  DescriptorMessage m;
  ssize_t k;
  do k = ::recvmsg(socket, &m.msg, MSG_CMSG_CLOEXEC);
  while (k < 0 && errno == EINTR);
  id = m.id;
  fd = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m.msg); c; c = CMSG_NXTHDR(&m.msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return k == static_cast<ssize_t>(sizeof id);
}

// The parent's side: each array written once into a memfd of its own, whose descriptor goes
// to the worker (the parent closes its own right away: the socket holds the file until the
// worker takes it).
class MemfdChannel final : public wire::ArrayChannel {
 public:
  MemfdChannel(int socket, uint64_t& nextId) : socket_(socket), nextId_(nextId) {}
  std::optional<uint64_t> send(const void* data, size_t bytes) override {
    if (socket_ < 0) return std::nullopt;
    int fd = ::memfd_create("lift-worker-array", MFD_CLOEXEC);
    if (fd < 0) return std::nullopt;
    // One writer: a file's writes take its inode's lock, so threads would only queue (tried).
    bool ok = wire::writeAll(fd, data, bytes) && sendDescriptor(socket_, fd, nextId_ + 1);
    ::close(fd);
    if (!ok) return std::nullopt;
    sentBytes += bytes;
    return ++nextId_;
  }
  uint64_t sentBytes = 0;

 private:
  int socket_;
  uint64_t& nextId_;
};

// The worker's side. Arrays of a request that failed before they were read are still queued:
// their ids are lower than the one asked for, and they are dropped on the way.
class SocketArraySource final : public wire::ArraySource {
 public:
  explicit SocketArraySource(int socket) : socket_(socket) {}
  HostArray receive(uint64_t id, ScalarType t, uint64_t n) override {
    for (;;) {
      pollfd p{socket_, POLLIN, 0};
      int ready = ::poll(&p, 1, 30'000);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) throw wire::WireError(fmt::format("the shared array {} did not arrive", id));
      uint64_t got = 0;
      int fd = -1;
      if (!receiveDescriptor(socket_, got, fd)) {
        if (fd >= 0) ::close(fd);
        throw wire::WireError("the shared arrays' socket failed");
      }
      if (got < id) {
        if (fd >= 0) ::close(fd);
        continue;
      }
      std::optional<HostArray> a;
      if (got == id && fd >= 0) a = arrayIn(fd, t, n);
      if (fd >= 0) ::close(fd);
      if (!a) throw wire::WireError(fmt::format("the shared array {} did not arrive whole", id));
      return std::move(*a);
    }
  }

 private:
  int socket_;
};

}  // namespace

// ---------------------------------------------------------------- client

WorkerClient::WorkerClient(WorkerOptions options) : options_(std::move(options)) {
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0)
    throw LiftError("cannot create a pipe for the worker client");
}

WorkerClient::~WorkerClient() {
  cancel();
  stop();
  closeFd(wake_[0]);
  closeFd(wake_[1]);
}

std::string WorkerClient::findLiftc() {
  auto executable = [](const fs::path& p) {
    return !p.empty() && ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p);
  };
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = self.parent_path();
    for (fs::path p : {dir / "liftc", dir / ".." / "app" / "liftc", dir / "app" / "liftc"})
      if (executable(p)) return fs::weakly_canonical(p, ec).string();
  }
  if (const char* env = std::getenv("LIFT_LIFTC"); env && executable(env)) return env;
  if (const char* path = std::getenv("PATH")) {
    std::string paths = path;
    size_t b = 0;
    while (b <= paths.size()) {
      size_t e = paths.find(':', b);
      if (e == std::string::npos) e = paths.size();
      fs::path p = fs::path(paths.substr(b, e - b)) / "liftc";
      if (e > b && executable(p)) return p.string();
      b = e + 1;
    }
  }
  return "";
}

DeviceInfo WorkerClient::start() {
  std::lock_guard lock(mutex_);
  return startLocked();
}

DeviceInfo WorkerClient::startLocked() {
  if (pid_ > 0) {
    // A worker that died while idle (killed from outside, OOM killer) is replaced silently: no
    // request of ours was lost.
    int st;
    if (::waitpid(pid_, &st, WNOHANG) != pid_) return device_;
    pid_ = -1;
    closeFd(toWorker_);
    closeFd(fromWorker_);
    closeFd(workerErr_);
    closeFd(arrays_);
  }
  workerHolds_.clear();  // a new worker holds nothing
  for (auto it = unreaped_.begin(); it != unreaped_.end();) {
    int st;
    it = ::waitpid(*it, &st, WNOHANG) == 0 ? it + 1 : unreaped_.erase(it);
  }
  const std::string& path = options_.liftcPath;
  if (path.empty()) throw LiftError("cannot start the worker: no liftc executable was given");
  if (::access(path.c_str(), X_OK) != 0)
    throw LiftError(fmt::format("cannot start the worker: '{}' is not an executable", path));

  std::vector<std::string> args = {path, "worker"};
  if (!options_.device.empty()) args.insert(args.end(), {"--device", options_.device});
  if (options_.warmUp) args.push_back("--warm-up");
  if (options_.cacheDir) {
    if (options_.cacheDir->empty())
      args.push_back("--no-disk-cache");
    else
      args.insert(args.end(), {"--cache-dir", options_.cacheDir->string()});
  }
  // The big arrays' socket (best effort: without it they go through the pipe).
  int arrays[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, arrays) == 0)
    args.insert(args.end(), {"--arrays-fd", "3"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  auto closeAll = [&] {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], arrays[0], arrays[1]})
      if (fd >= 0) ::close(fd);
  };
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    closeAll();
    throw LiftError("cannot create a pipe for the worker");
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    closeAll();
    throw LiftError(fmt::format("cannot start the worker: fork failed: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec. dup2 clears close-on-exec on 0-2;
    // every other descriptor of the parent was opened close-on-exec.
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    if (arrays[1] == 3)
      ::fcntl(3, F_SETFD, 0);
    else if (arrays[1] >= 0)
      ::dup2(arrays[1], 3);
    ::execv(path.c_str(), argv.data());
    const char msg[] = "liftc worker: exec failed\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (arrays[1] >= 0) ::close(arrays[1]);
  arrays_ = arrays[0];
  // Larger pipes move big buffers in fewer wake-ups (best effort: the limit is a system setting).
  ::fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
  ::fcntl(out[0], F_SETPIPE_SZ, 1 << 20);
  toWorker_ = in[1];
  fromWorker_ = out[0];
  workerErr_ = err[0];
  setNonBlocking(toWorker_);
  setNonBlocking(fromWorker_);
  setNonBlocking(workerErr_);
  pid_ = pid;
  ++starts_;
  stderrTail_.clear();

  // The worker says hello once the device is open.
  wire::FrameBuffer frames;
  auto deadline = after(options_.startTimeoutMs);
  for (;;) {
    pollfd fds[2] = {{fromWorker_, POLLIN, 0}, {workerErr_, POLLIN, 0}};
    int n = ::poll(fds, 2, msUntil(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (fds[1].revents) drainStderr();
    if (fds[0].revents) {
      char buf[65536];
      ssize_t k = ::read(fromWorker_, buf, sizeof buf);
      if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
        throw LiftError(collectExit("the worker did not start"));
      if (k > 0) frames.append(buf, static_cast<size_t>(k));
      if (auto m = frames.next()) {
        if (m->type != wire::MessageType::Hello) {
          killLocked();
          throw LiftError("the worker did not start: it answered with an unexpected message");
        }
        try {
          wire::Reader r(m->payload);
          uint32_t version = r.u32();
          if (version != wire::kProtocolVersion) {
            killLocked();
            throw LiftError(fmt::format("the worker '{}' speaks protocol {}, this program {}; rebuild liftc",
                                        path, version, wire::kProtocolVersion));
          }
          if (!r.u8()) {
            Diagnostic d = wire::getDiagnostic(r);
            killLocked();
            throw LiftError(d);
          }
          device_ = wire::getDeviceInfo(r);
        } catch (const wire::WireError& e) {
          killLocked();
          throw LiftError(fmt::format("the worker did not start: malformed hello ({})", e.what()));
        }
        return device_;
      }
    }
    if (Clock::now() >= deadline) {
      killLocked();
      throw LiftError(
          fmt::format("the worker did not start within {:.0f} s", options_.startTimeoutMs / 1000));
    }
  }
}

void WorkerClient::drainStderr() {
  if (workerErr_ < 0) return;
  char buf[4096];
  for (;;) {
    ssize_t k = ::read(workerErr_, buf, sizeof buf);
    if (k > 0) {
      if (support::tracing()) {
        [[maybe_unused]] auto n = ::write(2, buf, static_cast<size_t>(k));  // its trace lines
      }
      stderrTail_.append(buf, static_cast<size_t>(k));
      if (stderrTail_.size() > 2 * kStderrKeep) stderrTail_.erase(0, stderrTail_.size() - kStderrKeep);
      continue;
    }
    if (k < 0 && errno == EINTR) continue;
    if (k == 0) closeFd(workerErr_);  // the worker is gone; stop polling its stderr
    return;
  }
}

void WorkerClient::killLocked() {
  pid_t pid = pid_;
  if (pid > 0) {
    ::kill(pid, SIGKILL);
    int st;
    // A process stuck in a driver call may take a moment to die; never block on it for long.
    if (!waitFor(pid, st, 5000)) unreaped_.push_back(pid);
  }
  pid_ = -1;
  workerHolds_.clear();
  closeFd(toWorker_);
  closeFd(fromWorker_);
  closeFd(workerErr_);
  closeFd(arrays_);
}

std::string WorkerClient::collectExit(const char* what) {
  pid_t pid = pid_;
  int st = 0;
  bool ended = pid > 0 && waitFor(pid, st, 2000);
  if (pid > 0 && !ended) {
    ::kill(pid, SIGKILL);
    ended = waitFor(pid, st, 2000);
    if (!ended) unreaped_.push_back(pid);
  }
  // Whatever it printed before dying says why.
  if (workerErr_ >= 0) {
    ::fcntl(workerErr_, F_SETFL, ::fcntl(workerErr_, F_GETFL) & ~O_NONBLOCK);
    drainStderr();
  }
  pid_ = -1;
  closeFd(toWorker_);
  closeFd(fromWorker_);
  closeFd(workerErr_);
  closeFd(arrays_);
  std::string how;
  if (!ended)
    how = "it stopped answering and was killed";
  else if (WIFSIGNALED(st))
    how = "it was killed by " + signalName(WTERMSIG(st));
  else if (WIFEXITED(st))
    how = fmt::format("it exited with status {}", WEXITSTATUS(st));
  else
    how = "it ended";
  std::string tail = lastLines(stderrTail_);
  return fmt::format("{}: {}{}", what, how, tail.empty() ? "" : "; its last output:\n" + tail);
}

bool WorkerClient::writeFrame(const std::string& bytes, std::string& error) {
  // A worker that died makes write() raise SIGPIPE; keep it away from the process (the app
  // must not die with its worker) by blocking it in this thread and consuming it.
  sigset_t pipeSet, old;
  sigemptyset(&pipeSet);
  sigaddset(&pipeSet, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
  const char* p = bytes.data();
  size_t left = bytes.size();
  bool ok = true;
  auto deadline = after(60'000);
  while (left > 0) {
    ssize_t k = ::write(toWorker_, p, left);
    if (k > 0) {
      p += k;
      left -= static_cast<size_t>(k);
      continue;
    }
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EAGAIN) {
      // While the pipe is full, keep the worker's stderr flowing so that it cannot block us both.
      pollfd fds[2] = {{toWorker_, POLLOUT, 0}, {workerErr_, POLLIN, 0}};
      if (::poll(fds, workerErr_ >= 0 ? 2 : 1, msUntil(deadline)) == 0 && Clock::now() >= deadline) {
        error = "the worker stopped reading its requests";
        ok = false;
        break;
      }
      if (workerErr_ >= 0 && fds[1].revents) drainStderr();
      continue;
    }
    error = std::strerror(errno);
    if (errno == EPIPE) {
      timespec zero{0, 0};
      sigtimedwait(&pipeSet, nullptr, &zero);
    }
    ok = false;
    break;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

namespace {

// Forgets the wake-ups and the request of cancel() calls made while nothing was in flight: a
// request calls it on entry, before it starts the worker and sends anything, so that a cancel()
// made while it does those (starting a worker takes a second or more) still cancels it.
void forgetEarlierCancels(int wakeFd, std::atomic<bool>& cancelRequested) {
  char junk[64];
  while (::read(wakeFd, junk, sizeof junk) > 0) {
  }
  cancelRequested = false;
}

}  // namespace

RunResult WorkerClient::request(const std::string& bytes, const RunOptions& options, bool expectHeartbeats) {
  char junk[64];
  drainStderr();
  stderrTail_.clear();  // a crash report shows what the worker printed for this request

  RunResult r;
  std::string error;
  if (!writeFrame(bytes, error)) {
    r.status = RunStatus::Crashed;
    r.message = collectExit("the worker failed before it took the request");
    return r;
  }
  bool building = expectHeartbeats;
  auto deadline = after(building ? options.buildTimeoutMs : options.timeoutMs);
  wire::FrameBuffer& frames = frames_;
  frames.clear();
  for (;;) {
    pollfd fds[3] = {{fromWorker_, POLLIN, 0}, {wake_[0], POLLIN, 0}, {workerErr_, POLLIN, 0}};
    int n = ::poll(fds, workerErr_ >= 0 ? 3 : 2, msUntil(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (fds[1].revents) {
      while (::read(wake_[0], junk, sizeof junk) > 0) {
      }
      if (cancelRequested_) {
        killLocked();
        r.status = RunStatus::Cancelled;
        r.message = "cancelled";
        return r;
      }
    }
    if (workerErr_ >= 0 && fds[2].revents) drainStderr();
    if (fds[0].revents) {
      static thread_local std::vector<char> buf(1 << 20);
      for (;;) {
        ssize_t k = ::read(fromWorker_, buf.data(), buf.size());
        if (k > 0) {
          frames.append(buf.data(), static_cast<size_t>(k));
          continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && errno == EAGAIN) break;
        r.status = RunStatus::Crashed;
        r.message = collectExit(building ? "the worker crashed while building the kernel"
                                         : "the worker crashed while running the kernel");
        return r;
      }
      while (auto m = frames.next()) {
        if (m->type == wire::MessageType::Heartbeat) {
          building = false;
          deadline = after(options.timeoutMs);
        } else if (m->type == wire::MessageType::Result) {
          try {
            wire::Reader reader(m->payload);
            return wire::getRunResult(reader);
          } catch (const wire::WireError& e) {
            killLocked();
            r.status = RunStatus::Crashed;
            r.message = fmt::format("the worker sent a malformed result ({})", e.what());
            return r;
          }
        }
      }
    }
    if (Clock::now() >= deadline) {
      killLocked();
      r.status = RunStatus::Timeout;
      r.message =
          building ? fmt::format("the build did not finish within {:.1f} s; the worker was killed",
                                 options.buildTimeoutMs / 1000)
                   : fmt::format("a kernel execution did not finish within {:.1f} s; the worker was killed",
                                 options.timeoutMs / 1000);
      return r;
    }
  }
}

RunResult WorkerClient::run(const KernelLaunch& launch, const RunOptions& options) {
  std::lock_guard lock(mutex_);
  forgetEarlierCancels(wake_[0], cancelRequested_);
  startLocked();
  // The send buffer is kept between requests (up to a limit): big inputs then cost a copy,
  // not a copy plus fresh pages.
  size_t bytes = launch.source.size() + 4096;
  auto inFrame = [&](const std::optional<HostArray>& a, uint64_t key) -> size_t {
    if (!a || (key && workerHolds_.count(key))) return 0;
    return arrays_ >= 0 && a->byteSize() >= wire::kSharedArrayBytes ? 0 : a->byteSize();
  };
  for (const auto& a : launch.args)
    bytes += inFrame(a.data, a.dataKey) + inFrame(a.expected, a.expectedKey) + a.name.size() + 128;
  wire::Writer w(wire::MessageType::Run, std::move(sendBuffer_));
  MemfdChannel channel(arrays_, nextArrayId_);
  w.setArrayChannel(&channel);
  w.reserve(bytes);
  wire::put(w, launch, &workerHolds_);
  wire::put(w, options);
  std::string frame = w.takeFrame();
  lastRequestBytes_ = frame.size();
  lastSharedBytes_ = channel.sentBytes;
  support::trace(
      fmt::format("worker client: request of {} bytes, {} beside the pipe", frame.size(), channel.sentBytes));
  int starts = starts_.load();
  RunResult r = request(frame, options, true);
  support::trace(fmt::format("worker client: result ({})", toString(r.status)));
  if (frame.capacity() <= (size_t(256) << 20)) sendBuffer_ = std::move(frame);
  // The worker keeps the keyed arrays of a request it ran (it drops them when it cannot read
  // one); claim them only then, so that a doubt costs a resend, never a missing array.
  bool ran = r.status == RunStatus::Ok || r.status == RunStatus::WrongResult;
  if (ran && starts_.load() == starts && pid_.load() > 0)
    workerHolds_ = wire::keyedArrays(launch);
  else
    workerHolds_.clear();
  return r;
}

RunResult WorkerClient::crashForTesting(int signal) {
  std::lock_guard lock(mutex_);
  forgetEarlierCancels(wake_[0], cancelRequested_);
  startLocked();
  wire::Writer w;
  w.u32(static_cast<uint32_t>(signal));
  RunOptions options;
  options.timeoutMs = 10'000;
  return request(wire::frame(wire::MessageType::Crash, w.take()), options, false);
}

void WorkerClient::cancel() {
  cancelRequested_ = true;
  char c = 1;
  [[maybe_unused]] auto n = ::write(wake_[1], &c, 1);
}

void WorkerClient::stop() {
  std::lock_guard lock(mutex_);
  pid_t pid = pid_;
  if (pid <= 0) return;
  closeFd(toWorker_);  // end of input: the worker leaves its loop
  int st;
  if (waitFor(pid, st, 1000)) {
    pid_ = -1;
    closeFd(fromWorker_);
    closeFd(workerErr_);
    closeFd(arrays_);
  } else {
    killLocked();
  }
}

// ---------------------------------------------------------------- worker

int serveWorker(int inFd, int outFd, const std::string& device, const std::optional<fs::path>& cacheDir,
                bool warmUp, int arraysFd) {
  ::signal(SIGPIPE, SIG_IGN);  // a parent that went away shows as a failed write
  wire::Writer hello;
  hello.u32(wire::kProtocolVersion);
  auto refuse = [&](const Diagnostic& d) {
    hello.u8(0);
    wire::put(hello, d);
    wire::writeMessage(outFd, wire::MessageType::Hello, hello.take());
    return 2;
  };
  std::unique_ptr<KernelRunner> runner;
  try {
    Device dev = Device::find(device);
    runner = std::make_unique<KernelRunner>(
        dev, std::make_shared<BuildCache>(cacheDir ? *cacheDir : BuildCache::defaultDir()));
  } catch (const LiftError& e) {
    return refuse(e.diagnostic());
  } catch (const cl::Error& e) {
    Diagnostic d;
    d.message = fmt::format("cannot open OpenCL device '{}': {} failed: {}", device, e.what(),
                            describeClError(e.err()));
    return refuse(d);
  }
  hello.u8(1);
  wire::put(hello, runner->device().info());
  if (!wire::writeMessage(outFd, wire::MessageType::Hello, hello.take())) return 0;
  if (warmUp) runner->warmUpCompiler();

  // Big buffers arrive with every request; keep freed memory in the heap for the next one
  // rather than returning it to the system and faulting it in again.
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::string payload, resultBuffer;
  std::unordered_map<uint64_t, HostArray> kept;  // the keyed arrays of the last request
  SocketArraySource arrays(arraysFd);
  while (auto type = wire::readMessage(inFd, payload)) {
    switch (*type) {
      case wire::MessageType::Run: {
        RunResult result;
        try {
          support::trace(fmt::format("worker: request of {} bytes read", payload.size()));
          wire::Reader r(payload);
          if (arraysFd >= 0) r.setArraySource(&arrays);
          std::unordered_map<uint64_t, HostArray> previous = std::move(kept);
          kept.clear();
          KernelLaunch launch = wire::getKernelLaunch(r, &previous);
          previous.clear();
          RunOptions options = wire::getRunOptions(r);
          support::trace("worker: launch decoded (its arrays received)");
          result = runner->run(launch, options,
                               [&] { wire::writeMessage(outFd, wire::MessageType::Heartbeat, ""); });
          if (result.status == RunStatus::Ok || result.status == RunStatus::WrongResult)
            kept = wire::takeKeyedArrays(launch);
        } catch (const wire::WireError& e) {
          kept.clear();
          result.status = RunStatus::LaunchFailed;
          result.message = fmt::format("malformed request ({})", e.what());
        } catch (const std::exception& e) {
          kept.clear();
          result.status = RunStatus::LaunchFailed;
          result.message = e.what();
        }
        wire::Writer w(wire::MessageType::Result, std::move(resultBuffer));
        wire::put(w, result);
        resultBuffer = w.takeFrame();
        if (!wire::writeFrame(outFd, resultBuffer)) return 0;
        break;
      }
      case wire::MessageType::Crash: {
        wire::Reader r(payload);
        int sig = static_cast<int>(r.u32());
        std::fprintf(stderr, "liftc worker: crashing on request (%s)\n", signalName(sig).c_str());
        std::fflush(stderr);
        ::signal(sig, SIG_DFL);
        ::raise(sig);
        ::_exit(128 + sig);
      }
      default: {
        RunResult result;
        result.status = RunStatus::LaunchFailed;
        result.message = fmt::format("unknown request type {}", static_cast<uint32_t>(*type));
        wire::Writer w;
        wire::put(w, result);
        if (!wire::writeMessage(outFd, wire::MessageType::Result, w.take())) return 0;
      }
    }
  }
  return 0;
}

}  // namespace lift::runtime
