#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {
[[noreturn]] void fail(const std::string& path, const char* what, int err) {
  throw error("cannot write " + path + ": " + what + ": " + std::strerror(err));
}
/// Creates the temporary beside `path` that write_file_atomic writes first; its name goes to `name`.
int open_temporary(const std::string& path, std::string& name) {
  name = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, "creating a temporary file", errno);
  return fd;
}
}  // namespace

void check_writable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw error("cannot write " + path + ": it is a directory");
  std::string tmpl;
  ::close(open_temporary(path, tmpl));
  ::unlink(tmpl.c_str());
}

void write_file_atomic(const std::string& path, const std::string& content) {
  std::string tmpl;
  const int fd = open_temporary(path, tmpl);
  const auto cleanup = [&](const char* what) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    fail(path, what, err);
  };
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t w = ::write(fd, content.data() + done, content.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      cleanup("write");
    }
    done += static_cast<std::size_t>(w);
  }
  if (::fchmod(fd, 0644) != 0) cleanup("chmod");
  if (::fsync(fd) != 0) cleanup("fsync");
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    fail(path, "close", err);
  }
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    fail(path, "rename", err);
  }
}

}  // namespace fusedga
