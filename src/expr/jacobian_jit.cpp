// The CPU JIT of constraint Jacobians (jacobian_evaluator.hpp): the tape's
// generated C++ compiled into the JIT cache by the problem JIT's own key scheme,
// lookup, compile and after-load key check (jit_module.hpp).
#include <dlfcn.h>

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>

#include "expr/jit_cache.hpp"
#include "expr/jit_module.hpp"
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
module_ptr load(const std::string& bytes, const std::string& key, std::string* why) {
  module_ptr module = detail::dlopen_bytes(bytes, why);
  if (!module) return nullptr;
  const auto recorded = reinterpret_cast<const char* (*)()>(::dlsym(module.get(), kKeyEntry));
  if (!recorded || key != recorded()) {
    if (why) *why = "its key does not match";
    return nullptr;
  }
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
  const std::string source =
      generate_jacobian_source(tape, std::is_same_v<Real, float> ? "float" : "double", "host", kEntry) +
      "extern \"C\" const char* " + kKeyEntry + "() { return FUSEDGA_JIT_KEY; }\n";
  jit_stats s;
  const module_ptr module =
      detail::jit_module("Jacobian JIT", "Jacobian", "fusedga-jacobian-jit", options, {}, source, {"-lm"}, load, s);
  const auto entry = reinterpret_cast<entry_point<Real>>(::dlsym(module.get(), kEntry));
  if (!entry) throw error("Jacobian JIT: " + s.object_path + " has no " + kEntry);
  s.load_seconds = std::chrono::duration<double>(clock_type::now() - t0).count() - s.compile_seconds;
  if (stats) *stats = s;
  return std::make_unique<jit_jacobian<Real>>(module, entry, tape.dimension, tape.constraint_count());
}

template std::unique_ptr<jacobian_evaluator<float>> jacobian_jit_compile<float>(const jacobian_tape&,
                                                                                const jit_options&, jit_stats*);
template std::unique_ptr<jacobian_evaluator<double>> jacobian_jit_compile<double>(const jacobian_tape&,
                                                                                  const jit_options&, jit_stats*);

}  // namespace fusedga::expr
