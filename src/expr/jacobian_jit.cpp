// The CPU JIT of constraint Jacobians (jacobian_evaluator.hpp): the tape's
// generated C++ compiled into the JIT cache with the same key scheme, digest
// sidecar and after-load key check as the problem's JIT (jit.cpp).
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <type_traits>

#include "expr/jit_cache.hpp"
#include "expr/subprocess.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"

namespace fusedga::expr {
namespace {

using clock_type = std::chrono::steady_clock;
using detail::module_ptr;
template <class Real>
using entry_point = void (*)(const Real*, Real*, Real*);

constexpr const char* kEntry = "fusedga_jacobian_evaluate";
constexpr const char* kKeyEntry = "fusedga_jacobian_key";

/// The module of `bytes` (checked against the cache's digest, or just compiled), loaded from a memfd; null
/// when it cannot be loaded or reports another key.
module_ptr load(const std::string& bytes, const std::string& key) {
  module_ptr module = detail::dlopen_bytes(bytes, nullptr);
  if (!module) return nullptr;
  const auto recorded = reinterpret_cast<const char* (*)()>(::dlsym(module.get(), kKeyEntry));
  if (!recorded || key != recorded()) return nullptr;
  return module;
}

template <class Real>
class jit_jacobian final : public jacobian_evaluator<Real> {
 public:
  jit_jacobian(module_ptr module, entry_point<Real> entry, int d, int m)
      : module_(std::move(module)), entry_(entry), d_(d), m_(m) {}
  void evaluate(const Real* x, Real* c, Real* J) const override { entry_(x, c, J); }
  int dimension() const override { return d_; }
  int constraint_count() const override { return m_; }

 private:
  module_ptr module_;
  entry_point<Real> entry_;
  int d_, m_;
};

}  // namespace

template <class Real>
std::unique_ptr<jacobian_evaluator<Real>> jacobian_jit_compile(const jacobian_tape& tape, const jit_options& options,
                                                               jit_stats* stats) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>, "Real must be float or double");
  const auto t0 = clock_type::now();
  std::string why;
  const std::string compiler = find_compiler(options, &why);
  if (compiler.empty()) throw error("Jacobian JIT: " + why);
  const std::string source =
      generate_jacobian_source(tape, std::is_same_v<Real, float> ? "float" : "double", "host", kEntry) +
      "extern \"C\" const char* " + kKeyEntry + "() { return FUSEDGA_JIT_KEY; }\n";
  const detail::process_result version = detail::run_process({compiler, "--version"});
  const std::string key = detail::sha256_hex("fusedga-jacobian-jit version " + std::string(FUSEDGA_VERSION_STRING) +
                                             "\ncompiler " + compiler + "\n" + version.output + "flags " +
                                             options.flags + "\nsource\n" + source);
  const std::string dir = detail::cache_directory(options.cache_dir);
  detail::ensure_private_directory(dir);
  const std::string object = dir + "/" + key + ".so";
  jit_stats s;
  s.object_path = object;
  const detail::notice_function notice = [&](const std::string& line) {
    s.notices.push_back(line);
    if (options.on_notice) options.on_notice(line);
  };
  module_ptr module;
  if (const auto cached = detail::verified_entry(object, dir + "/" + key + ".sha256", key, "Jacobian JIT", notice))
    module = load(*cached, key);
  s.cache_hit = module != nullptr;
  if (!module) {
    const auto tc = clock_type::now();
    std::vector<std::string> args;
    std::istringstream flags(options.flags);
    for (std::string f; flags >> f;) args.push_back(f);
    args.push_back("-DFUSEDGA_JIT_KEY=\"" + key + "\"");
    const std::string bytes = detail::compile_object("Jacobian JIT", "Jacobian", compiler, args, {"-lm"}, source,
                                                     object, options.interrupt, notice);
    s.compile_seconds = std::chrono::duration<double>(clock_type::now() - tc).count();
    module = load(bytes, key);
    if (!module) throw error("Jacobian JIT: cannot load the compiled object " + object);
  }
  const auto entry = reinterpret_cast<entry_point<Real>>(::dlsym(module.get(), kEntry));
  if (!entry) throw error("Jacobian JIT: " + object + " has no " + kEntry);
  s.load_seconds = std::chrono::duration<double>(clock_type::now() - t0).count() - s.compile_seconds;
  if (stats) *stats = s;
  return std::make_unique<jit_jacobian<Real>>(std::move(module), entry, tape.dimension, tape.constraint_count());
}

template std::unique_ptr<jacobian_evaluator<float>> jacobian_jit_compile<float>(const jacobian_tape&,
                                                                                const jit_options&, jit_stats*);
template std::unique_ptr<jacobian_evaluator<double>> jacobian_jit_compile<double>(const jacobian_tape&,
                                                                                  const jit_options&, jit_stats*);

}  // namespace fusedga::expr
