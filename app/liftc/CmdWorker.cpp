// liftc worker: the isolated process in which kernels run (see codegen/runtime/Worker.h). It
// speaks the worker protocol on stdin and stdout; started by WorkerClient, not by people.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "app/liftc/Command.h"
#include "codegen/runtime/Worker.h"

namespace lift::liftc {
namespace {

int runWorker(const Args& args) {
  // The protocol keeps the real stdout to itself; anything else written to stdout (a kernel's
  // printf, driver chatter) goes to stderr, which the parent collects for crash reports.
  std::fflush(stdout);
  int out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (out < 0) {
    std::perror("liftc worker: dup");
    return kExitError;
  }
  ::dup2(2, 1);
  std::optional<std::filesystem::path> cacheDir;
  if (args.has("--no-disk-cache"))
    cacheDir = std::filesystem::path();
  else if (args.has("--cache-dir"))
    cacheDir = std::filesystem::path(args.get("--cache-dir"));
  return runtime::serveWorker(0, out, args.get("--device"), cacheDir);
}

CommandRegistration reg({"worker",
                         "worker [--device D] [--cache-dir DIR | --no-disk-cache]",
                         {"--no-disk-cache"},
                         {"--device", "--cache-dir"},
                         runWorker});

}  // namespace
}  // namespace lift::liftc
