// SHA-256 by OpenSSL's EVP interface; the cache directory's checks (jit_cache.hpp).
#include "expr/jit_cache.hpp"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "fusedga/core/error.hpp"
#include "expr/subprocess.hpp"
#include "io/atomic_file.hpp"

namespace fusedga::expr::detail {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool digest_recorded(const std::string& sidecar, const std::string& digest) {
  return !digest.empty() && read_file(sidecar) == digest + "\n";
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
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.bad() ? "" : sha256_hex(bytes);
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
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) throw error("JIT cache: cannot stat " + dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw error("JIT cache: " + dir + " is not a directory");
  if (st.st_uid != ::geteuid()) throw error("JIT cache: " + dir + " is owned by another user; it must be private");
  if ((st.st_mode & 077) != 0)
  {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(st.st_mode & 0777));
    throw error("JIT cache: " + dir + " has mode " + mode + "; it must be private (chmod 700)");
  }
}

void compile_object(const std::string& what, const std::string& subject, const std::string& compiler,
                    const std::vector<std::string>& args, const std::vector<std::string>& libraries,
                    const std::string& source, const std::string& object) {
  static std::atomic<unsigned> counter{0};
  const std::string stem = object.substr(0, object.size() - 3) + ".tmp-" + std::to_string(::getpid()) + "-" +
                           std::to_string(counter++);
  const std::string source_path = stem + ".cpp", temp_object = stem + ".so";
  {
    std::ofstream out(source_path, std::ios::binary | std::ios::trunc);
    out << source;
    if (!out.flush()) throw error(what + ": cannot write " + source_path);
  }
  std::vector<std::string> argv{compiler};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const std::string& a : {std::string("-o"), temp_object, source_path}) argv.push_back(a);
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  process_result r;
  try {
    r = run_process(argv);
  } catch (...) {
    std::remove(source_path.c_str());
    throw;
  }
  std::remove(source_path.c_str());
  if (r.exit_code != 0) {
    std::remove(temp_object.c_str());
    std::string output = r.output.size() > 8000 ? r.output.substr(0, 8000) + "\n[...]" : r.output;
    throw error(what + ": compiling the generated " + subject + " failed (" + compiler + ", exit " +
                std::to_string(r.exit_code) + "):\n" + output);
  }
  const std::string digest = sha256_file(temp_object);
  if (digest.empty() || std::rename(temp_object.c_str(), object.c_str()) != 0) {
    std::remove(temp_object.c_str());
    throw error(what + ": cannot move the compiled object into " + object);
  }
  record_digest(object.substr(0, object.size() - 3) + ".sha256", digest);
}

}  // namespace fusedga::expr::detail
