// SHA-256 by OpenSSL's EVP interface; the cache directory's checks, reading
// and loading its entries, compiling into it (jit_cache.hpp).
#include "expr/jit_cache.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "fusedga/core/error.hpp"
#include "expr/subprocess.hpp"
#include "io/atomic_file.hpp"

namespace fusedga::expr::detail {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

namespace {

/// Reads all of `fd` into `out`; false on a read error (EISDIR included).
bool read_all(int fd, std::string& out) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    else if (n == 0) return true;
    else if (errno != EINTR) return false;
  }
}

}  // namespace

// POSIX reads, not std::ifstream: libstdc++'s filebuf throws "basic_filebuf::underflow error reading the file:
// Is a directory" (naming no file) when a directory stands where a file was expected.
std::string read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string out;
  const bool ok = read_all(fd, out);
  ::close(fd);
  return ok ? out : "";
}

bool digest_recorded(const std::string& sidecar, const std::string& digest) {
  return !digest.empty() && read_file(sidecar) == digest + "\n";
}

cache_entry read_cache_entry(const std::string& path) {
  cache_entry e;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    e.present = errno != ENOENT;
    if (e.present) e.refused = std::string("cannot be examined: ") + std::strerror(errno);
    return e;
  }
  e.present = true;
  if (S_ISLNK(st.st_mode)) {
    e.refused = "is a symbolic link (never followed)";
    return e;
  }
  // O_NOFOLLOW: a link swapped in after the lstat is refused too; O_NONBLOCK: a FIFO does not hang the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    e.refused = errno == ELOOP ? "is a symbolic link (never followed)" : std::string("cannot be opened: ") + std::strerror(errno);
    return e;
  }
  if (::fstat(fd, &st) != 0) e.refused = std::string("cannot be examined: ") + std::strerror(errno);
  else if (S_ISDIR(st.st_mode)) e.refused = "is a directory";
  else if (!S_ISREG(st.st_mode)) e.refused = "is not a regular file";
  else if (st.st_uid != ::geteuid()) e.refused = "is owned by another user (uid " + std::to_string(st.st_uid) + ")";
  else if ((st.st_mode & 022) != 0) e.refused = "is writable by its group or others";
  else if (!read_all(fd, e.bytes)) e.refused = std::string("cannot be read: ") + std::strerror(errno);
  ::close(fd);
  if (!e.refused.empty()) e.bytes.clear();
  return e;
}

namespace {

/// Removes a refused entry: unlinks a file or link (never following it), removes a directory tree; false when
/// it is still there.
bool remove_entry(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT;
  if (!S_ISDIR(st.st_mode)) return ::unlink(path.c_str()) == 0 || errno == ENOENT;
  if (st.st_uid != ::geteuid()) return false;
  std::error_code ec;
  std::filesystem::remove_all(path, ec);  // does not follow links inside
  return !ec;
}

}  // namespace

std::optional<std::string> verified_entry(const std::string& object, const std::string& sidecar, const std::string& key,
                                          const std::string& what, const notice_function& notice) {
  cache_entry entry = read_cache_entry(object);
  if (!entry.present) return std::nullopt;
  const cache_entry digest = read_cache_entry(sidecar);
  const auto drop = [&](const cache_entry& e, const std::string& path) {
    if (e.refused.empty()) return;
    const bool removed = remove_entry(path);
    if (notice)
      notice(what + " cache: " + path + " " + e.refused + "; " +
             (removed ? "removed it, compiling again" : "cannot remove it, compiling without the cache"));
  };
  drop(entry, object);
  drop(digest, sidecar);
  if (!entry.refused.empty() || !digest.refused.empty()) return std::nullopt;
  if (!digest.present || digest.bytes != sha256_hex(entry.bytes) + "\n") return std::nullopt;
  // The module returns its key from fusedga_*_key(), so the key's text is in its bytes. Checked here, before
  // anything runs: an object planted with a digest to match (made for another key, or not by us) is never loaded.
  if (entry.bytes.find(key) == std::string::npos) {
    cache_entry planted;
    planted.refused = "does not carry its key";
    drop(planted, object);
    return std::nullopt;
  }
  return std::move(entry.bytes);
}

void publish_entry(const std::string& object, const std::string& sidecar, const std::string& bytes,
                   const std::string& what, const notice_function& notice) {
  std::string failure;
  try {
    write_file_atomic(object, bytes);
    record_digest(sidecar, sha256_hex(bytes));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty() && notice) notice(what + " cache: compiled, but " + failure + "; using it uncached");
}

cached_bytes cached_or_build(const std::string& object, const std::string& sidecar, const std::string& key,
                             const std::string& what, const notice_function& notice,
                             const std::function<std::string()>& build) {
  cached_bytes c;
  if (std::optional<std::string> cached = verified_entry(object, sidecar, key, what, notice)) {
    c.bytes = std::move(*cached);
    c.hit = true;
    return c;
  }
  c.bytes = build();
  publish_entry(object, sidecar, c.bytes, what, notice);
  return c;
}

module_ptr dlopen_bytes(const std::string& bytes, std::string* why) {
  const auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return module_ptr();
  };
  int fd = ::memfd_create("fusedga-jit", MFD_CLOEXEC);
  if (fd < 0) return fail(std::string("memfd_create failed: ") + std::strerror(errno));
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return fail(std::string("cannot write the object into a memfd: ") + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  // dlopen knows loaded objects by name first: a module still loaded under /proc/self/fd/N (its memfd number
  // reused since; a module with unique symbols is never unloaded) would be returned instead. Move to a free name.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::string name = "/proc/self/fd/" + std::to_string(fd);
    void* old = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!old) break;
    ::dlclose(old);
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
    ::close(fd);
    if (moved < 0) return fail(std::string("cannot duplicate the memfd: ") + std::strerror(errno));
    fd = moved;
  }
  const std::string name = "/proc/self/fd/" + std::to_string(fd);
  void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* reason = ::dlerror();
    ::close(fd);
    return fail(std::string("dlopen failed: ") + (reason ? reason : "unknown error"));
  }
  // The memfd stays open while the module is loaded, so its name is not reused meanwhile.
  return module_ptr(handle, [fd](void* h) {
    ::dlclose(h);
    ::close(fd);
  });
}

void record_digest(const std::string& sidecar, const std::string& digest) { write_file_atomic(sidecar, digest + "\n"); }

std::vector<std::string> default_include_dirs() {
  for (const char* dir : {FUSEDGA_JIT_SOURCE_INCLUDE_DIR, FUSEDGA_JIT_INSTALL_INCLUDE_DIR})
    if (file_exists(std::string(dir) + "/fusedga/expr/jit_abi.hpp")) return {dir};
  return {};
}

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw error("SHA-256 failed (OpenSSL EVP_Digest)");
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int k = 0; k < length; ++k) {
    out += hex[digest[k] >> 4];
    out += hex[digest[k] & 15];
  }
  return out;
}

std::string sha256_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string bytes;
  const bool ok = read_all(fd, bytes);
  ::close(fd);
  return ok ? sha256_hex(bytes) : "";
}

std::string cache_directory(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return std::string(xdg) + "/fusedga";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/fusedga";
  throw error("JIT cache: neither $XDG_CACHE_HOME nor $HOME is set; set one to choose where compiled problems are kept");
}

void ensure_private_directory(const std::string& dir) {
  // Parents first (0700 as well, like mkdir -p -m 0700 would give the last one).
  for (std::size_t slash = dir.find('/', 1); slash != std::string::npos; slash = dir.find('/', slash + 1))
    if (::mkdir(dir.substr(0, slash).c_str(), 0700) != 0 && errno != EEXIST)
      throw error("JIT cache: cannot create " + dir.substr(0, slash) + ": " + std::strerror(errno));
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw error("JIT cache: cannot create " + dir + ": " + std::strerror(errno));
  if (const std::string why = private_directory_problem(dir); !why.empty()) throw error("JIT cache: " + why);
  remove_stale_compiles(dir);
}

std::string private_directory_problem(const std::string& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return "cannot stat " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (st.st_uid != ::geteuid()) return dir + " is owned by another user; it must be private";
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(st.st_mode & 0777));
    return dir + " has mode " + mode + "; it must be private (chmod 700)";
  }
  return "";
}

namespace {

/// This host, as the 8 hex digits in compile temporaries' names (a cache on NFS is shared by hosts whose PIDs
/// mean nothing to each other).
const std::string& host_tag() {
  static const std::string tag = [] {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return sha256_hex(name).substr(0, 8);
  }();
  return tag;
}

/// Whether `rest` (after ".tmp-") is the older naming PID-N.cpp or PID-N.so.
bool old_temporary(const std::string& rest) {
  const std::size_t dash = rest.find('-'), dot = rest.find('.');
  if (dash == 0 || dash == std::string::npos || dot == std::string::npos || dot < dash + 2) return false;
  const auto digits = [&](std::size_t a, std::size_t b) {
    return rest.find_first_not_of("0123456789", a) >= b;
  };
  const std::string suffix = rest.substr(dot);
  return digits(0, dash) && digits(dash + 1, dot) && (suffix == ".cpp" || suffix == ".so");
}

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH); }

}  // namespace

int remove_stale_compiles(const std::string& dir, double max_age_s) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  std::vector<std::string> stale;
  const std::time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    const std::size_t at = name.find(".tmp-");
    if (at == std::string::npos) continue;
    struct stat st {};
    const std::string path = dir + "/" + name;
    if (::lstat(path.c_str(), &st) != 0 || st.st_uid != ::geteuid()) continue;
    // KEY.tmp-HOST-PID-XXXXXX (a directory), or the older KEY.tmp-PID-N.cpp / .so (files).
    const std::string rest = name.substr(at + 5);
    bool dead = false;
    if (rest.size() > 9 && rest[8] == '-' && rest.compare(0, 8, host_tag()) == 0)
      dead = !process_alive(std::strtol(rest.c_str() + 9, nullptr, 10));
    else if (old_temporary(rest))
      dead = !process_alive(std::strtol(rest.c_str(), nullptr, 10));
    if (dead || std::difftime(now, st.st_mtime) > max_age_s) stale.push_back(path);
  }
  ::closedir(d);
  int removed = 0;
  for (const std::string& path : stale) removed += remove_entry(path) ? 1 : 0;
  return removed;
}

namespace {

/// The private temporary directory of one compile, removed with everything in it.
struct compile_directory {
  std::string path;
  explicit compile_directory(const std::string& object) {
    std::string pattern = object.substr(0, object.rfind('.')) + ".tmp-" + host_tag() + "-" +
                          std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw error("cannot create a compile directory beside " + object + ": " + std::strerror(errno));
    path = pattern;
  }
  ~compile_directory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  compile_directory(const compile_directory&) = delete;
  compile_directory& operator=(const compile_directory&) = delete;
};

}  // namespace

std::string compile_object(const std::string& what, const std::string& subject, const std::string& compiler,
                           const std::vector<std::string>& args, const std::vector<std::string>& libraries,
                           const std::string& source, const std::string& object, const std::atomic<bool>* interrupt,
                           const notice_function& notice) {
  const compile_directory temp(object);
  // Fixed names: the source's name is written into the object (its FILE symbol), so a per-process name would
  // make two processes' objects for one key differ.
  const std::string source_path = temp.path + "/fusedga_jit.cpp", temp_object = temp.path + "/fusedga_jit.so";
  try {
    write_file_atomic(source_path, source);
  } catch (const error& e) {
    throw error(what + ": cannot write the generated source: " + e.what());
  }
  std::vector<std::string> argv{compiler};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const std::string& a : {std::string("-o"), temp_object, source_path}) argv.push_back(a);
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  const process_result r = run_process(argv, interrupt);
  if (r.interrupted || r.term_signal == SIGINT || (interrupt && interrupt->load()))
    throw interrupted(what + ": interrupted while compiling the generated " + subject + " (" + compiler + ")");
  if (r.exit_code != 0) {
    std::string output = r.output.size() > 8000 ? r.output.substr(0, 8000) + "\n[...]" : r.output;
    const std::string status =
        r.term_signal ? "killed by signal " + std::to_string(r.term_signal) : "exit " + std::to_string(r.exit_code);
    throw error(what + ": compiling the generated " + subject + " failed (" + compiler + ", " + status + "):\n" +
                output);
  }
  // Mode 0644 as the sidecar's: with a umask such as 002 the linker's 0775 would be refused as group-writable
  // on every later load. The object is loaded from a memfd, so it needs no execute bit.
  ::chmod(temp_object.c_str(), 0644);
  const cache_entry built = read_cache_entry(temp_object);
  if (!built.refused.empty() || built.bytes.empty())
    throw error(what + ": the compiler wrote no usable object " + temp_object +
                (built.refused.empty() ? "" : " (it " + built.refused + ")"));
  // Publish: the object by rename, then its digest by rename. Two processes compiling one key write the same
  // bytes (fixed names above), so whichever renames land last, the object and the digest agree; a reader
  // checks the pair anyway and takes a mismatch as a miss.
  const std::string sidecar = object.substr(0, object.rfind('.')) + ".sha256";
  std::string failure;
  if (std::rename(temp_object.c_str(), object.c_str()) != 0) {
    failure = std::string("cannot publish it as ") + object + ": " + std::strerror(errno);
  } else {
    try {
      record_digest(sidecar, sha256_hex(built.bytes));
    } catch (const error& e) {
      failure = e.what();
    }
  }
  if (!failure.empty() && notice) notice(what + " cache: compiled, but " + failure + "; using it uncached");
  return built.bytes;
}

}  // namespace fusedga::expr::detail
