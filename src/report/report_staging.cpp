#include "report/report_staging.hpp"

#include <signal.h>
#include <stdio.h>   // renameat2 (glibc >= 2.28)
#include <stdlib.h>  // mkdtemp
#include <fcntl.h>   // AT_FDCWD
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace fs = std::filesystem;

namespace {

std::string staging_prefix(const fs::path& target) { return "." + target.filename().string() + ".tmp-"; }

/// The writer's pid in a staging name `.NAME.tmp-PID-XXXXXX[.old]`, or 0 when the rest is not of that form.
long writer_pid(const std::string& rest) {
  const std::size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos) return 0;
  const std::string tail = rest.substr(dash + 1);
  if (tail.size() != 6 && !(tail.size() == 10 && tail.compare(6, 4, ".old") == 0)) return 0;
  for (std::size_t k = 0; k < dash; ++k)
    if (rest[k] < '0' || rest[k] > '9') return 0;
  return std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
}

bool exchange(const fs::path& a, const fs::path& b, int& err) {
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  err = errno;
#else
  err = ENOSYS;
#endif
  return false;
}

void must_rename(const fs::path& from, const fs::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw error(fmt::format("cannot move {} to {}: {}", from.string(), to.string(), std::strerror(errno)));
}

}  // namespace

int remove_stale_staging(const fs::path& target) {
  const std::string prefix = staging_prefix(target);
  std::error_code ec;
  int cleaned = 0;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(target.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = writer_pid(name.substr(prefix.size()));
    if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    stale.push_back(it->path());
  }
  for (const fs::path& p : stale) {
    const std::string name = p.filename().string();
    const bool set_aside = name.size() > 4 && name.compare(name.size() - 4, 4, ".old") == 0;
    std::error_code e;
    if (set_aside && !fs::exists(fs::symlink_status(target, e)) && std::rename(p.c_str(), target.c_str()) == 0) {
      ++cleaned;
      continue;
    }
    if (fs::remove_all(p, e) != static_cast<std::uintmax_t>(-1) && !e) ++cleaned;
  }
  return cleaned;
}

staged_directory::staged_directory(const fs::path& target) : target_(target) {
  remove_stale_staging(target_);
  std::string pattern = (target_.parent_path() / (staging_prefix(target_) + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw error(fmt::format("cannot create a staging directory beside {}: {}", target_.string(), std::strerror(errno)));
  path_ = pattern;
}

staged_directory::~staged_directory() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void staged_directory::commit(const std::vector<std::string>& replaced) {
  std::error_code ec;
  if (!fs::exists(target_, ec)) {
    (void)::chmod(path_.c_str(), 0755);  // mkdtemp makes it 0700; a report is for reading
    must_rename(path_, target_);
    return;
  }
  // Replace the directory a symlink names, not the symlink; the staging directory must then sit beside it.
  const fs::path real = fs::canonical(target_, ec);
  if (ec) throw error(fmt::format("cannot resolve {}: {}", target_.string(), ec.message()));
  if (real != target_ && real.parent_path() != target_.parent_path()) {
    staged_directory beside(real);
    for (const auto& e : fs::directory_iterator(path_)) must_rename(e.path(), beside.path() / e.path().filename());
    beside.commit(replaced);
    return;
  }
  // Checked before anything is kept, so a name that cannot be replaced leaves the old report as it was.
  for (const auto& name : replaced) {
    const fs::file_type type = fs::symlink_status(real / name, ec).type();
    if (type != fs::file_type::not_found && type != fs::file_type::regular && type != fs::file_type::symlink)
      throw error(fmt::format("cannot replace {}: it is not a regular file (nothing in {} was changed)",
                              (real / name).string(), real.string()));
  }
  // Keep everything else: hard links share the files, so the new directory holds them without copying.
  for (const auto& e : fs::directory_iterator(real)) {
    const std::string name = e.path().filename().string();
    if (std::find(replaced.begin(), replaced.end(), name) != replaced.end()) continue;
    if (fs::exists(fs::symlink_status(path_ / name, ec))) continue;  // written anew
    fs::copy(e.path(), path_ / name,
             fs::copy_options::recursive | fs::copy_options::create_hard_links | fs::copy_options::copy_symlinks, ec);
    if (ec)
      throw error(fmt::format("cannot keep {} in the new report ({}); nothing in {} was changed", e.path().string(),
                              ec.message(), real.string()));
  }
  struct stat st {};
  if (::stat(real.c_str(), &st) == 0) (void)::chmod(path_.c_str(), st.st_mode & 07777);
  int err = 0;
  if (!exchange(path_, real, err)) {
    if (err != EINVAL && err != ENOSYS && err != ENOTSUP && err != EOPNOTSUPP)
      throw error(fmt::format("cannot swap {} into {}: {}", path_.string(), real.string(), std::strerror(err)));
    // No exchange on this file system: set the old aside under a name the next writer recognizes, then rename.
    const fs::path aside = path_.string() + ".old";
    must_rename(real, aside);
    if (std::rename(path_.c_str(), real.c_str()) != 0) {
      const int e = errno;
      (void)std::rename(aside.c_str(), real.c_str());
      throw error(fmt::format("cannot move {} to {}: {}", path_.string(), real.string(), std::strerror(e)));
    }
    fs::remove_all(aside, ec);
    return;
  }
  fs::remove_all(path_, ec);  // now the old report
}

}  // namespace fusedga
