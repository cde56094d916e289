// writeFileAtomically (FileWrite.h): temporary file beside the target, checked writes, fsync,
// rename.
#include "core/support/FileWrite.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/support/Diagnostic.h"

namespace lift {

void writeFileAtomically(const std::string& path, std::string_view text) {
  auto fail = [&](const char* what, int err) {
    return LiftError(fmt::format("cannot write '{}': {} ({})", path, what, std::strerror(err)));
  };
  if (path.empty()) throw LiftError("cannot write a file with an empty name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw LiftError(fmt::format("cannot write '{}': it is a folder", path));
  // The rename would replace a device or FIFO (as root, /dev/null itself) with a regular file.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw LiftError(
        fmt::format("cannot write '{}': it is not a regular file (a device, FIFO or socket)", path));
  std::string tmpl = path + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) throw fail("cannot create a temporary file beside it", errno);
  std::string tmp(name.data());
  // A file-size limit raises SIGXFSZ, which would kill the process: ignored while writing, so
  // that the write fails with EFBIG instead; the previous disposition is back on every return.
  struct IgnoreFileSizeSignal {
    struct sigaction previous {};
    IgnoreFileSizeSignal() {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      ::sigaction(SIGXFSZ, &ignore, &previous);
    }
    ~IgnoreFileSizeSignal() { ::sigaction(SIGXFSZ, &previous, nullptr); }
  } ignoreFileSizeSignal;
  auto cleanup = [&](const char* what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return fail(what, err);
  };
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw cleanup("the write failed", n < 0 ? errno : ENOSPC);
    done += static_cast<size_t>(n);
  }
  // Keep the target's permissions when it exists (mkstemp makes the file 0600).
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0)
    ::fchmod(fd, st.st_mode & 07777);
  else
    ::fchmod(fd, 0644);
  if (::fsync(fd) != 0) throw cleanup("syncing it failed", errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw fail("closing it failed", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw fail("replacing it failed", err);
  }
}

}  // namespace lift
