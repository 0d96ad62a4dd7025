#pragma once
/// @file jit.hpp
/// The CPU JIT: generated source (codegen.hpp) → host C++ compiler → shared
/// object in the user's cache → dlopen → an `evaluator`.
///
/// Cache: `$XDG_CACHE_HOME/fusedga` (else `$HOME/.cache/fusedga`), created
/// with mode 0700. The key covers the generated source, the compiler's
/// identity (`--version` output), the flags and the library version; objects
/// are written atomically (temp file + rename). After dlopen the object's
/// recorded key text is compared in full with the expected one, and a
/// mismatching object is rebuilt, never used.

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
};

/// What a jit_compile call did.
struct jit_stats {
  bool cache_hit = false;
  double compile_seconds = 0;  ///< wall time of the compiler run (0 on a cache hit)
  double load_seconds = 0;     ///< wall time of code generation, key check and dlopen
  std::string object_path;
};

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
 */
template <class Real>
std::unique_ptr<evaluator<Real>> jit_compile(const program& p, const jit_options& options = {},
                                             jit_stats* stats = nullptr);

}  // namespace fusedga::expr
