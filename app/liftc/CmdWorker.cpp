// liftc worker: the isolated process in which kernels run (see codegen/runtime/Worker.h). It
// speaks the worker protocol on stdin and stdout; started by WorkerClient, not by people.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "codegen/runtime/Worker.h"

namespace lift::liftc {
namespace {

struct WorkerArgs {
  std::string device, cacheDir;
  bool noDiskCache = false, warmUp = false;
  int arraysFd = -1;
};

int runWorker(const WorkerArgs& args) {
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
  if (args.noDiskCache)
    cacheDir = std::filesystem::path();
  else if (!args.cacheDir.empty())
    cacheDir = std::filesystem::path(args.cacheDir);
  return runtime::serveWorker(0, out, args.device, cacheDir, args.warmUp, args.arraysFd);
}

CommandRegistration reg(
    {"worker", "the process kernels run in (started by liftc run and explore)", [](CLI::App& cmd) {
       auto args = std::make_shared<WorkerArgs>();
       addDeviceOption(cmd, args->device);
       auto* noCache =
           cmd.add_flag("--no-disk-cache", args->noDiskCache, "keep built kernels in memory only");
       cmd.add_option("--cache-dir", args->cacheDir, "where built kernels are kept")->excludes(noCache);
       cmd.add_flag("--warm-up", args->warmUp,
                    "build a small program right after opening the device (the OpenCL compiler's "
                    "start, before the first request)");
       cmd.add_option("--arrays-fd", args->arraysFd,
                      "the Unix socket the big arrays' memfds come through (set by the parent)");
       return [args] { return runWorker(*args); };
     }});

}  // namespace
}  // namespace lift::liftc
