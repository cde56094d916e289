// The isolated worker: kernels run in a separate process (`liftc worker`), so that a driver
// crash or a kernel that never ends cannot take down the app or a search. WorkerClient is the
// parent's side: it starts the worker, sends each KernelLaunch over a pipe, kills the worker
// (SIGKILL) when a kernel execution outlives its timeout, reports a dead worker as `crashed`,
// and starts a fresh worker for the next request. serveWorker is the worker's side.
// Arrays of a megabyte or more do not go through the pipe: each is written once into a memfd
// whose descriptor goes to the worker over a Unix socket (its descriptor 3), and the worker
// reads it from there (wire::ArrayChannel).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "codegen/runtime/DeviceInfo.h"
#include "codegen/runtime/Evaluator.h"
#include "codegen/runtime/WorkerProtocol.h"

namespace lift::runtime {

struct WorkerOptions {
  std::string liftcPath;  // the liftc executable (see WorkerClient::findLiftc)
  std::string device;     // as --device takes it: an index or a name; empty: device 0
  // The build cache directory of the worker; nullopt: the default one; an empty path: memory only.
  std::optional<std::filesystem::path> cacheDir;
  double startTimeoutMs = 60'000;  // for the worker to start and open the device
  // Right after it says hello, the worker builds a small program of its own
  // (KernelRunner::warmUpCompiler), so that the OpenCL compiler's one-time start (PoCL: seconds)
  // overlaps what its parent does before the first request (a search: the expected outputs,
  // phases 1 and 2) instead of delaying the first kernel.
  bool warmUp = false;
};

class WorkerClient : public Evaluator {
 public:
  explicit WorkerClient(WorkerOptions options);
  ~WorkerClient() override;
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // Starts the worker unless it runs already; returns its device. Throws LiftError when the
  // worker cannot start (no liftc at the path, unknown device, no OpenCL platform).
  DeviceInfo start();

  // Evaluates through the worker (starting it when needed). A kernel execution that takes
  // longer than options.timeoutMs (the build: buildTimeoutMs) gives `timeout`, a worker that
  // dies gives `crashed`; either way the next call runs in a fresh worker. Throws LiftError
  // only when the worker cannot be started. One request at a time; other callers wait.
  RunResult run(const KernelLaunch& launch, const RunOptions& options = {}) override;

  // From any thread: stops the request in flight (its result is `cancelled`; the worker is
  // killed and restarted on the next request). No effect when nothing is in flight.
  void cancel();

  // Ends the worker process now; the next run starts a new one.
  void stop();

  // Tests only: asks the worker to kill itself with `signal`, as a driver crash would, and
  // returns what the client made of it (status crashed).
  RunResult crashForTesting(int signal);

  pid_t pid() const { return pid_.load(); }
  // Bytes of the last request sent (tests and benchmarks: arrays the worker kept are not resent).
  uint64_t lastRequestBytes() const { return lastRequestBytes_.load(); }
  // Bytes of the last request's arrays sent beside the pipe, through shared memory.
  uint64_t lastSharedBytes() const { return lastSharedBytes_.load(); }
  int startCount() const { return starts_.load(); }  // how many worker processes were started

  // The liftc next to the running executable or in ../app of it (the build tree layout),
  // else the LIFT_LIFTC environment variable, else "liftc" on PATH. Empty if none exists.
  static std::string findLiftc();

 private:
  RunResult request(const std::string& frame, const RunOptions& options, bool expectHeartbeats);
  DeviceInfo startLocked();
  void killLocked();
  std::string collectExit(const char* what);
  void drainStderr();
  bool writeFrame(const std::string& bytes, std::string& error);

  WorkerOptions options_;
  std::mutex mutex_;  // one request at a time
  std::atomic<pid_t> pid_{-1};
  std::atomic<int> starts_{0};
  std::atomic<uint64_t> lastRequestBytes_{0};
  std::atomic<uint64_t> lastSharedBytes_{0};
  std::atomic<bool> cancelRequested_{false};
  int toWorker_ = -1;    // the worker's stdin
  int fromWorker_ = -1;  // the worker's protocol output
  int workerErr_ = -1;   // the worker's stderr
  int arrays_ = -1;      // the socket that big arrays' memfds go through
  uint64_t nextArrayId_ = 0;
  int wake_[2] = {-1, -1};  // cancel() writes here to wake the poll loop
  std::string stderrTail_;
  std::string sendBuffer_;    // reused between requests
  wire::FrameBuffer frames_;  // likewise
  DeviceInfo device_;
  std::vector<pid_t> unreaped_;               // killed workers still to be waited for
  std::unordered_set<uint64_t> workerHolds_;  // keyed arrays the running worker keeps
};

// The worker's loop (what `liftc worker` runs): opens the device, says hello, then serves
// requests read from `inFd` and answers on `outFd` until end of input; the big arrays of a
// request come as memfds over the socket `arraysFd` (-1: none). Returns the exit status.
int serveWorker(int inFd, int outFd, const std::string& device,
                const std::optional<std::filesystem::path>& cacheDir, bool warmUp = false, int arraysFd = -1);

}  // namespace lift::runtime
