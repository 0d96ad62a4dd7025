#pragma once
// The GPU JIT (issue 4): generated CUDA source (codegen.hpp:
// generate_device_source) → NVRTC → LTO-IR; linked by nvJitLink with the
// prebuilt LTO-IR of the engine's kernels (src/cuda/lto/) into one cubin, so
// the problem is inlined into the fused offspring kernel exactly as a
// built-in is by nvcc. Needs no GPU: loading the image does
// (expr_device_problem.hpp: cuda_expr_module). Private to the runtime.
//
// Cache: the CPU JIT's directory ($XDG_CACHE_HOME/fusedga, mode 0700),
// `<key>.cubin` with a `.cubin.sha256` sidecar, read and checked by the CPU
// JIT's rules (expr/jit_cache.hpp: cached_or_build): a linked, foreign-owned or
// group-writable entry or a directory in its place is refused, removed and
// rebuilt; the digest is that of the very bytes then loaded. The key covers
// the generated source, the NVRTC and nvJitLink versions, the options, the
// target architecture, the prebuilt kernels' digest and the library version.

#include <functional>
#include <string>
#include <vector>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

struct device_jit_options {
  std::string cache_dir;                  ///< empty: $XDG_CACHE_HOME/fusedga (as the CPU JIT)
  std::vector<std::string> include_dirs;  ///< empty: the FusedGA headers this library was built or installed with
  bool genetic_algorithm = true;          ///< link the GA's offspring kernel (an island with ga.algorithm: ga)
  bool differential_evolution = false;    ///< link the DE kernel (an island with ga.algorithm: de)
  bool jacobian = false;                  ///< generate the constraints' Jacobian (the run's gradient repair reads it)
  std::function<void(const std::string&)> on_notice = nullptr;  ///< the cache's one-line notices (a refused entry, ...)
};

/// What a device_jit_image call did.
struct device_jit_stats {
  bool cache_hit = false;
  double compile_seconds = 0;  ///< NVRTC (0 on a cache hit)
  double link_seconds = 0;     ///< nvJitLink (0 on a cache hit)
  std::string image_path;      ///< the cached cubin
  std::vector<std::string> notices;  ///< the cache's notices (also given to device_jit_options::on_notice)
};

/// "NVRTC x.y, nvJitLink x.y, kernels LTO-IR for compute_N" (for --explain and reports).
std::string device_jit_identity();

/// The compute capability the prebuilt kernels' LTO-IR was compiled for (e.g. 90); images link for this or newer.
int device_jit_lto_arch();

/**
 * A cubin for compute capability `sm` (e.g. 90 for H100, ≥ device_jit_lto_arch())
 * holding the kernels a run of `p` launches (expr_module.hpp:
 * expr_kernels_used(p, options.genetic_algorithm, options.differential_evolution)), with `p`'s objective and
 * constraints in Real (float or double) inlined. Thread-safe (distinct temp files; rename is atomic).
 * @throws fusedga::error when the headers are missing, when NVRTC or
 *   nvJitLink fails (with its log), or when the cache directory cannot be
 *   created or is not private.
 */
template <class Real>
std::vector<char> device_jit_image(const program& p, int sm, const device_jit_options& options = {},
                                   device_jit_stats* stats = nullptr);

}  // namespace fusedga::expr
