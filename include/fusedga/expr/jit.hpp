#pragma once
/// @file jit.hpp
/// The CPU JIT: generated source (codegen.hpp) → host C++ compiler → shared
/// object in the user's cache → dlopen → an `evaluator`.
///
/// Cache: `$XDG_CACHE_HOME/fusedga` (else `$HOME/.cache/fusedga`), created
/// with mode 0700. The key covers the generated source, the compiler's
/// identity (`--version` output), the flags and the library version; objects
/// are compiled in a private temporary directory and published by rename,
/// then their SHA-256 beside them. A cached object is read without following
/// links (a link, a directory, a foreign or group/other-writable file is
/// removed with a notice and rebuilt), its bytes are checked against the
/// recorded SHA-256 *before* anything is loaded, and exactly those bytes are
/// loaded (memfd + dlopen); then the module's key text is compared in full.
/// Rules and reasons: docs/expressions.md, "Caching and its security checks".

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/evaluator.hpp"

namespace fusedga::expr {

struct jit_options {
  std::string compiler;                   ///< empty: $CXX, else "c++"
  std::string cache_dir;                  ///< empty: the default above
  std::vector<std::string> include_dirs;  ///< empty: the FusedGA headers this library was built or installed with
  std::string flags = "-O2 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off -std=c++17 -fPIC -shared";
  /// When it becomes true during a compile, the compiler is stopped and jit_compile throws fusedga::interrupted
  /// (ga-run passes its Ctrl-C flag). Null: not watched.
  const std::atomic<bool>* interrupt = nullptr;
  /// One-line notices about the cache (a broken entry removed, an object that could not be stored); also kept
  /// in jit_stats::notices.
  std::function<void(const std::string&)> on_notice;
};

/// What a jit_compile call did.
struct jit_stats {
  bool cache_hit = false;
  /// The module was already loaded by this process, from the same unchanged cache entry: no file was read and
  /// nothing loaded (a cache hit too).
  bool already_loaded = false;
  double compile_seconds = 0;  ///< wall time of the compiler run (0 on a cache hit)
  double load_seconds = 0;     ///< wall time of code generation, key check and dlopen
  std::string object_path;
  std::vector<std::string> notices;  ///< the cache's one-line notices (see jit_options::on_notice)
};

/**
 * The size of `p` that bounds a JIT compile: its expression nodes (`p.nodes`,
 * every operation, number and gene read of the objective and the constraints;
 * a reduction counts once, not per index). GCC compiles the evaluation as one
 * function inlined into each batch loop (jit_abi.hpp), and its time grows
 * faster than linearly in this size (measured: docs/expressions.md, "Size bound").
 */
std::size_t jit_size(const program& p);

/// Above this jit_size, `engine: auto` runs the interpreter instead of compiling (said in one line and by
/// `ga-run --explain`); `engine: jit` still compiles, with a notice. About 5 s of compile on the 2-core development machine (55 constraints such as `x[i]*x[j] + sin(x[k]) <= c`).
inline constexpr std::size_t jit_auto_size_limit = 600;

/// The compiler that jit_compile would run, or "" with the reason in `why`
/// when none is usable (then callers fall back to the interpreter).
std::string find_compiler(const jit_options& options, std::string* why = nullptr);

/**
 * Compiles (or loads from the cache) `p` in precision Real (float or double).
 * The returned evaluator keeps the shared object loaded. Thread-safe to call
 * concurrently (distinct temp files; rename is atomic).
 * @throws fusedga::error when no compiler is usable, when compilation fails
 *   (with the compiler's diagnostics), or when the cache directory cannot be
 *   created or is not private.
 * @throws fusedga::interrupted when `options.interrupt` became true (or the
 *   compiler died of SIGINT) during the compile.
 */
template <class Real>
std::unique_ptr<evaluator<Real>> jit_compile(const program& p, const jit_options& options = {},
                                             jit_stats* stats = nullptr);

}  // namespace fusedga::expr
