// readInputFile: open without blocking, check what the path is with fstat, read up to the limit.
#include "core/support/FileRead.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "core/support/Diagnostic.h"

namespace lift {
namespace {

// What a path that is not a regular file is, in words.
const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string sizeText(size_t bytes) {
  return bytes >= (size_t(1) << 20) ? fmt::format("{:.1f} MiB", double(bytes) / double(size_t(1) << 20))
                                    : fmt::format("{} bytes", bytes);
}

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string nonRegularKind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return {};
  return kindOf(st.st_mode);
}

std::string readInputFile(const std::string& path, size_t maxBytes) {
  SourceLoc at{path, 0, 0};
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) throw LiftError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)), at);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    throw LiftError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)), at);
  if (!S_ISREG(st.st_mode))
    throw LiftError(fmt::format("cannot read '{}': it is {}, not a file", path, kindOf(st.st_mode)), at);
  auto tooLarge = [&] {
    return LiftError(fmt::format("cannot read '{}': it is larger than {}, the limit for an input file", path,
                                 sizeText(maxBytes)),
                     at);
  };
  if (static_cast<unsigned long long>(st.st_size) > maxBytes) throw tooLarge();
  std::string text;
  text.resize(static_cast<size_t>(st.st_size));
  size_t have = 0;
  while (true) {
    if (have == text.size()) {  // the file may have grown since fstat: read on, up to the limit
      if (text.size() > maxBytes) throw tooLarge();
      text.resize(std::min(maxBytes + 1, text.size() + 65536));
    }
    ssize_t n = ::read(f.fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw LiftError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)), at);
    if (n == 0) break;
    have += static_cast<size_t>(n);
  }
  text.resize(have);
  if (have > maxBytes) throw tooLarge();
  return text;
}

}  // namespace lift
