#include "io/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {
[[noreturn]] void fail(const std::string& path, const char* what, int err) {
  throw error("cannot write " + path + ": " + what + ": " + std::strerror(err));
}
/// The directory `path` is in ("." for a bare name).
std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}
/// Where `path` is written: a symbolic link's target (the link stays a link, as with `> link` in a shell), else
/// `path` itself.
std::string written_path(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) fail(path, "following the symbolic link", errno);
  std::string target(real);
  std::free(real);
  return target;
}
/// Whether `path` exists and is neither a regular file nor a directory: a device (/dev/null) or a FIFO, which is
/// written in place, since renaming a file over it would replace the device.
bool special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}
/// Writes all of `content` to `fd`; false with errno set on a failure.
bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t w = ::write(fd, content.data() + done, content.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(w);
  }
  return true;
}
/// Creates the temporary beside `path` that write_file_atomic writes first, `PATH.tmp.PID.XXXXXX`; its name goes
/// to `name`. The writer's pid in the name lets a later writer remove what a killed one left (remove_stale_temporaries).
int open_temporary(const std::string& path, std::string& name) {
  name = path + ".tmp." + std::to_string(::getpid()) + ".XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, "creating a temporary file", errno);
  return fd;
}
}  // namespace

int remove_stale_temporaries(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = directory_of(path);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  int removed = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    // PID.XXXXXX: the pid of the writer, then mkstemp's six characters
    const std::string rest = name.substr(prefix.size());
    const std::size_t dot = rest.find('.');
    if (dot == std::string::npos || dot == 0 || rest.size() != dot + 7) continue;
    if (rest.find_first_not_of("0123456789") != dot) continue;
    const long pid = std::strtol(rest.substr(0, dot).c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid() || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)) continue;
    const std::string full = dir + "/" + name;
    struct stat st {};
    if (::lstat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::unlink(full.c_str()) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

void check_writable(const std::string& given) {
  struct stat st {};
  if (given.empty()) throw error("cannot write a file with an empty name; expected a file path");
  const std::string path = written_path(given);
  if (special_file(path)) {
    if (::access(path.c_str(), W_OK) != 0) fail(given, "opening it", errno);
    return;
  }
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw error("cannot write " + path + ": it is a directory");
  const std::string dir = directory_of(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw error("cannot write " + path + ": the directory " + dir + " does not exist");
  std::string tmpl;
  ::close(open_temporary(path, tmpl));
  ::unlink(tmpl.c_str());
}

void write_file_atomic(const std::string& given, const std::string& content) {
  const std::string path = written_path(given);
  if (special_file(path)) {  // a device or FIFO: nothing to be atomic about
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail(given, "opening it", errno);
    const bool written = write_all(fd, content);
    const int err = errno;
    ::close(fd);
    if (!written) fail(given, "write", err);
    return;
  }
  remove_stale_temporaries(path);
  std::string tmpl;
  const int fd = open_temporary(path, tmpl);
  const auto cleanup = [&](const char* what) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    fail(path, what, err);
  };
  if (!write_all(fd, content)) cleanup("write");
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
