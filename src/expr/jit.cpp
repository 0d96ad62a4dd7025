// The CPU JIT (jit.hpp): generate, key, look up the cache, compile on a miss,
// dlopen, and check the module's ABI version and key before calling it.
#include "fusedga/expr/jit.hpp"

#include <dlfcn.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <type_traits>

#include "expr/jit_cache.hpp"
#include "expr/jit_module.hpp"
#include "expr/subprocess.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/expr/codegen.hpp"
#include "fusedga/expr/jit_abi.hpp"  // FUSEDGA_JIT_ABI_VERSION, the entry points' signature

namespace fusedga::expr {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<std::string> include_dirs(const jit_options& options) {
  return options.include_dirs.empty() ? detail::default_include_dirs() : options.include_dirs;
}

/// The compiler's `--version` output, once per compiler path and process (it is part of every key); errors
/// begin with `what` ("JIT", "Jacobian JIT").
std::string compiler_identity(const std::string& compiler, const std::string& what) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = known.find(compiler); it != known.end()) return it->second;
  const detail::process_result r = detail::run_process({compiler, "--version"});
  if (r.term_signal == SIGINT) throw interrupted(what + ": interrupted while asking " + compiler + " for its version");
  if (r.exit_code != 0) throw error(what + ": " + compiler + " --version failed:\n" + r.output);
  return known[compiler] = r.output;
}

/// CPU model and feature flags: objects built with -march=native must not be
/// loaded on another CPU sharing the cache (a home directory on NFS).
std::string cpu_identity() {
  static const std::string identity = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string out;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("model name", 0) == 0 || line.rfind("flags", 0) == 0) out += line + "\n";
      if (line.empty() && !out.empty()) break;  // the first processor is enough
    }
    return out;
  }();
  return identity;
}

using detail::module_ptr;

/// The module of `bytes` (already checked against the cache's digest, or just compiled): loaded from a memfd,
/// then its ABI version and key checked; null with the reason in `why` on any mismatch.
module_ptr load_module(const std::string& bytes, const std::string& key, std::string* why) {
  module_ptr module = detail::dlopen_bytes(bytes, why);
  if (!module) return nullptr;
  const auto version = reinterpret_cast<int (*)()>(::dlsym(module.get(), "fusedga_jit_abi_version"));
  const auto recorded = reinterpret_cast<const char* (*)()>(::dlsym(module.get(), "fusedga_jit_key"));
  if (!version || !recorded || version() != FUSEDGA_JIT_ABI_VERSION || key != recorded()) {
    if (why) *why = "its ABI version or key does not match";
    return nullptr;
  }
  return module;
}

template <class Real>
using entry_point = void (*)(const Real*, std::ptrdiff_t, std::ptrdiff_t, int, Real, Real*, Real*);

/// The evaluator of a loaded module.
template <class Real>
class jit_evaluator final : public evaluator<Real> {
 public:
  jit_evaluator(module_ptr module, entry_point<Real> entry) : module_(std::move(module)), entry_(entry) {}
  void evaluate(const Real* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, Real eps,
                Real* objective, Real* violation) const override {
    if (count > 0) entry_(genes, lane_stride, gene_stride, count, eps, objective, violation);
  }

 private:
  module_ptr module_;
  entry_point<Real> entry_;
};

}  // namespace

std::size_t jit_size(const program& p) { return p.nodes.size(); }

std::string find_compiler(const jit_options& options, std::string* why) {
  std::string name = options.compiler;
  if (name.empty()) {
    const char* cxx = std::getenv("CXX");
    name = cxx && *cxx ? cxx : "c++";
  }
  const std::string path = detail::resolve_executable(name);
  if (path.empty()) {
    if (why) *why = "C++ compiler '" + name + "' not found (set $CXX or install g++)";
    return "";
  }
  if (include_dirs(options).empty()) {
    if (why)
      *why = std::string("FusedGA headers not found in ") + FUSEDGA_JIT_SOURCE_INCLUDE_DIR + " or " +
             FUSEDGA_JIT_INSTALL_INCLUDE_DIR;
    return "";
  }
  return path;
}

namespace {

/**
 * The modules this process has loaded, by everything that chose them (jit_module's inputs, and $CXX, $PATH,
 * $XDG_CACHE_HOME and $HOME, which choose the compiler and the cache). A later jit_module call for the same
 * module returns it without finding the compiler, listing the cache directory, hashing the object or running
 * dlopen: together 270 us a call, in a run of 290 us on a 4-gene problem, and a freshly mapped module's first
 * calls paid its page faults in every run (docs/expressions.md, "Caching and its security checks"). A module
 * is reused only while the cache entry still holds the very bytes it was loaded from: the object and its
 * digest sidecar are read again as the cache reads them (read_cache_entry: no link followed, owned by this
 * user, writable by nobody else) and compared byte for byte, and the directory must still be private; else
 * the call goes through the cache's checks as if nothing were loaded. At most kLoadedModules are kept (the
 * oldest is let go: unloaded once no evaluator holds it). Thread-safe.
 */
class loaded_modules {
 public:
  static loaded_modules& instance() {
    static loaded_modules* const table = new loaded_modules;  // never destroyed: evaluators may outlive statics
    return *table;
  }

  module_ptr find(const std::string& key, jit_stats& stats) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const entry& e : entries_) {
      if (e.key != key) continue;
      const detail::cache_entry object = detail::read_cache_entry(e.object);
      if (!object.present || !object.refused.empty() || object.bytes != e.bytes) return nullptr;
      const detail::cache_entry sidecar = detail::read_cache_entry(e.sidecar);
      if (!sidecar.present || !sidecar.refused.empty() || sidecar.bytes != e.digest ||
          !detail::private_directory_problem(e.dir).empty())
        return nullptr;
      stats.cache_hit = true;
      stats.already_loaded = true;
      stats.object_path = e.object;
      return e.module;
    }
    return nullptr;
  }

  /// After `module` was loaded from `bytes`, verified or just compiled into `object` (digest in `sidecar`).
  void remember(const std::string& key, const std::string& dir, const std::string& object, const std::string& sidecar,
                const std::string& bytes, const module_ptr& module) {
    entry e{key, dir, object, sidecar, bytes, detail::sha256_hex(bytes) + "\n", module};
    const std::lock_guard<std::mutex> lock(mutex_);
    for (entry& old : entries_)
      if (old.key == key) {
        old = std::move(e);
        return;
      }
    if (entries_.size() >= kLoadedModules) entries_.erase(entries_.begin());
    entries_.push_back(std::move(e));
  }

 private:
  static constexpr std::size_t kLoadedModules = 64;
  struct entry {
    std::string key, dir, object, sidecar, bytes, digest;
    module_ptr module;
  };
  std::mutex mutex_;
  std::vector<entry> entries_;
};

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

namespace detail {
module_ptr jit_module(const std::string& what, const std::string& kind, const std::string& tag,
                      const jit_options& options, const std::vector<std::string>& includes, const std::string& source,
                      const std::vector<std::string>& libraries, const module_loader& load, jit_stats& stats) {
  const char nul = '\0';
  std::string reuse_key = tag + nul + kind + nul + options.compiler + nul + environment("CXX") + nul +
                          environment("PATH") + nul + options.flags + nul + options.cache_dir + nul +
                          environment("XDG_CACHE_HOME") + nul + environment("HOME") + nul;
  for (const std::string& dir : includes) reuse_key += dir + nul;
  for (const std::string& library : libraries) reuse_key += library + nul;
  reuse_key += source;
  if (module_ptr module = loaded_modules::instance().find(reuse_key, stats)) return module;

  std::string why;
  const std::string compiler = find_compiler(options, &why);
  if (compiler.empty()) throw error(what + ": " + why);
  std::string material = tag + " version " + FUSEDGA_VERSION_STRING + "\ncompiler " + compiler + "\n" +
                         compiler_identity(compiler, what) + "flags " + options.flags + "\n" + cpu_identity();
  for (const std::string& dir : includes) material += "include " + dir + "\n";
  const std::string key = sha256_hex(material + "source\n" + source);

  const std::string dir = cache_directory(options.cache_dir);
  ensure_private_directory(dir);
  const std::string object = dir + "/" + key + ".so";
  stats.object_path = object;
  const notice_function notice = [&](const std::string& line) {
    stats.notices.push_back(line);
    if (options.on_notice) options.on_notice(line);
  };
  const std::string sidecar = dir + "/" + key + ".sha256";
  std::string load_failure;
  if (const auto cached = verified_entry(object, sidecar, key, what, notice)) {
    if (module_ptr module = load(*cached, key, &load_failure)) {
      stats.cache_hit = true;
      loaded_modules::instance().remember(reuse_key, dir, object, sidecar, *cached, module);
      return module;
    }
  }
  const auto tc = clock_type::now();
  std::vector<std::string> args = split_words(options.flags);
  for (const std::string& include : includes) args.push_back("-I" + include);
  args.push_back("-DFUSEDGA_JIT_KEY=\"" + key + "\"");  // an argv element: no shell quoting involved
  const std::string bytes =
      compile_object(what, kind, compiler, args, libraries, source, object, options.interrupt, notice);
  stats.compile_seconds = seconds_since(tc);
  module_ptr module = load(bytes, key, &load_failure);
  if (!module) throw error(what + ": cannot load the compiled object " + object + ": " + load_failure);
  loaded_modules::instance().remember(reuse_key, dir, object, sidecar, bytes, module);
  return module;
}
}  // namespace detail

template <class Real>
std::unique_ptr<evaluator<Real>> jit_compile(const program& p, const jit_options& options, jit_stats* stats) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>, "Real must be float or double");
  const auto t0 = clock_type::now();
  const std::string source = generate_source(p, std::is_same_v<Real, float> ? "float" : "double");
  jit_stats s;
  const module_ptr module =
      detail::jit_module("JIT", "problem", "fusedga-jit abi " + std::to_string(FUSEDGA_JIT_ABI_VERSION), options,
                         include_dirs(options), source, {"-lmvec", "-lm"}, load_module, s);
  const auto entry = reinterpret_cast<entry_point<Real>>(::dlsym(module.get(), "fusedga_jit_evaluate"));
  if (!entry) throw error("JIT: " + s.object_path + " has no fusedga_jit_evaluate");
  s.load_seconds = seconds_since(t0) - s.compile_seconds;
  if (stats) *stats = s;
  return std::make_unique<jit_evaluator<Real>>(module, entry);
}

template std::unique_ptr<evaluator<float>> jit_compile<float>(const program&, const jit_options&, jit_stats*);
template std::unique_ptr<evaluator<double>> jit_compile<double>(const program&, const jit_options&, jit_stats*);

}  // namespace fusedga::expr
