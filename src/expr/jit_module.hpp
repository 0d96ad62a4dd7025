#pragma once
// What the CPU JITs share (the problem's, jit.cpp; the constraint Jacobian's, jacobian_jit.cpp): the cache key,
// the cache lookup, the compile on a miss and the checked load of the module. Private to src/expr/.
#include <functional>
#include <string>
#include <vector>

#include "expr/jit_cache.hpp"
#include "fusedga/expr/jit.hpp"

namespace fusedga::expr::detail {

/// Loads the module of `bytes` (verified by the cache, or just compiled) and checks that it reports `key` (and
/// whatever else the caller's module carries); null, with the reason in `why` when given, otherwise.
using module_loader = std::function<module_ptr(const std::string& bytes, const std::string& key, std::string* why)>;

/**
 * The module of generated `source`, from the JIT cache or compiled into it: the compiler found as find_compiler
 * finds it; the key the SHA-256 of `tag` (what and its format version), FusedGA's version, the compiler's path
 * and `--version` output, `options.flags`, the CPU's model and feature flags (objects built with -march=native
 * must not be loaded on another CPU sharing the cache, e.g. a home directory on NFS), `includes` and the source;
 * the source compiled with `options.flags`, `-I` each of `includes`, `-DFUSEDGA_JIT_KEY="<key>"`, then
 * `libraries`. `stats` gets cache_hit, compile_seconds, object_path and the notices (also passed to
 * `options.on_notice`); load_seconds is the caller's.
 * @throws fusedga::error "<what>: ..." when no compiler is found, the compiler fails or the compiled object
 *         cannot be loaded; fusedga::interrupted when `options.interrupt` stops the compile.
 */
module_ptr jit_module(const std::string& what, const std::string& kind, const std::string& tag,
                      const jit_options& options, const std::vector<std::string>& includes, const std::string& source,
                      const std::vector<std::string>& libraries, const module_loader& load, jit_stats& stats);

}  // namespace fusedga::expr::detail
