#pragma once
/// @file jit_abi.hpp
/// What the CPU JIT's generated translation units include (jit.hpp,
/// codegen.hpp): the batch loop that evaluates a tile of individuals with a
/// problem type, the element helpers the generated code calls, and
/// FUSEDGA_JIT_EXPORT, which defines the module's C entry points.
///
/// The C ABI of a JIT module (version FUSEDGA_JIT_ABI_VERSION; a module is
/// loaded only when both its version and its key match):
///
///     void fusedga_jit_evaluate(const G* genes, ptrdiff_t lane_stride, ptrdiff_t gene_stride,
///                               int count, G eps, G* objective, G* violation);
///     int fusedga_jit_abi_version(void);
///     const char* fusedga_jit_key(void);   // FUSEDGA_JIT_KEY, given with -D at compile time
///
/// with G the problem's gene type (float or double; the key, which covers the
/// generated source, fixes it). fusedga_jit_evaluate has the contract of
/// evaluator::evaluate (evaluator.hpp).
///
/// Includes are kept to the few core headers the generated code needs: this
/// header's parse time is most of a JIT compile.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/constraint_sink.hpp"
#include "fusedga/core/gene_view.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/core/simd_math.hpp"  // libmvec declarations: the lane loops call vectorized sin/cos/exp/log/pow
#include "fusedga/expr/jit_elements.hpp"  // jit_min, jit_max, jit_index

/// Version of the C ABI above and of the helpers below; bump on any change.
#define FUSEDGA_JIT_ABI_VERSION 2

/// The module's cache key (64 hex digits), passed by jit_compile as
/// -DFUSEDGA_JIT_KEY="..."; empty when the source is compiled by hand.
#ifndef FUSEDGA_JIT_KEY
#define FUSEDGA_JIT_KEY ""
#endif

#if defined(__GNUC__)
#define FUSEDGA_JIT_VISIBLE __attribute__((visibility("default")))
#else
#define FUSEDGA_JIT_VISIBLE
#endif

namespace fusedga::expr {

/// One individual's genes with a runtime stride: `x[j]` at `data[j * stride]`
/// (an SoA tile, stride = tile width). Trivially copyable; valid while the storage lives.
template <class Gene>
struct strided_gene_view {
  const Gene* data;
  std::ptrdiff_t stride;
  FUSEDGA_HD Gene operator[](int j) const { return data[j * stride]; }
};

/// Appends `n` genes with bounds [lo, hi] (generated bounds() functions, run-length encoded).
template <class G>
void jit_append_bounds(Bounds<G>& b, int n, G lo, G hi) {
  b.lower.insert(b.lower.end(), static_cast<std::size_t>(n), lo);
  b.upper.insert(b.upper.end(), static_cast<std::size_t>(n), hi);
}

/// Marks genes [first, first + n) as integer variables (Bounds::integer) in a generated bounds() function, after
/// every gene's bounds were appended.
template <class G>
void jit_mark_integer(Bounds<G>& b, int first, int n) {
  b.integer.resize(b.lower.size(), 0);
  std::fill_n(b.integer.begin() + first, n, std::uint8_t{1});
}

namespace jit_detail {

/// Objective and violation of one individual, exactly as the engine's
/// evaluate_one (engine/evaluate.hpp) forms them: inequalities, then equalities.
template <class Problem, class X, class G>
FUSEDGA_INLINE void evaluate_lane(const Problem& problem, const X& x, G eps, G& objective, G& violation) {
  const G obj = static_cast<G>(problem.objective(x));
  G v = G(0);
  if constexpr (::fusedga::detail::has_inequalities<Problem>::value) {
    auto g = inequality_sink(&v);
    problem.inequalities(x, g);
  }
  if constexpr (::fusedga::detail::has_equalities<Problem>::value) {
    auto h = equality_sink(&v, eps);
    problem.equalities(x, h);
  }
  objective = obj;
  violation = v;
}

}  // namespace jit_detail

/// Individuals per block of jit_evaluate_batch: a multiple of every SIMD
/// width (4–16 lanes), so each block is whole vectors with no epilogue, which
/// GCC's -O2 cost model ("very cheap") requires before it vectorizes a loop.
inline constexpr int jit_block = 16;

namespace jit_detail {

/// Whether `Problem` evaluates whole blocks (generated for programs with reductions: codegen.cpp's block form).
template <class Problem, class = void>
struct has_block_evaluation : std::false_type {};
template <class Problem>
struct has_block_evaluation<Problem, std::enable_if_t<Problem::block_evaluation>> : std::true_type {};

/// Gene j of lane k of the block that starts at individual `first`: xb(k, j).
template <class View>
struct block_view {
  View view;
  int first;
  FUSEDGA_INLINE auto operator()(int k, int j) const { return view(first + k)[j]; }
};

/// Lanes [0, count) in blocks of jit_block (vectorized across individuals), then the rest one by one.
template <class Problem, class View, class G>
FUSEDGA_INLINE void evaluate_lanes(const Problem& problem, View view, int count, G eps, G* FUSEDGA_RESTRICT objective,
                                   G* FUSEDGA_RESTRICT violation) {
  int l = 0;
  for (; l + jit_block <= count; l += jit_block) {
    if constexpr (has_block_evaluation<Problem>::value)
      problem.evaluate_block(block_view<View>{view, l}, eps, objective + l, violation + l);
    else
      for (int k = 0; k < jit_block; ++k) evaluate_lane(problem, view(l + k), eps, objective[l + k], violation[l + k]);
  }
  for (; l < count; ++l) evaluate_lane(problem, view(l), eps, objective[l], violation[l]);
}

}  // namespace jit_detail

/**
 * Evaluates `count` individuals (count <= 0: nothing) of the stateless,
 * default-constructible `Problem`: gene j of individual l at
 * genes[l·lane_stride + j·gene_stride]; writes objective[l] and violation[l]
 * (Σ max(0, g) + Σ max(0, |h| − eps)). The outputs must not overlap the
 * genes. One loop per layout so that GCC vectorizes across individuals:
 * SoA tiles (lane_stride = 1), rows (gene_stride = 1), anything else; lanes
 * past the last whole block of jit_block run scalar code (libm instead of
 * libmvec: results within a few ulp, and always the same for the same
 * position in a call). Thread-safe (no state).
 */
template <class Problem>
void jit_evaluate_batch(const gene_t<Problem>* FUSEDGA_RESTRICT genes, std::ptrdiff_t lane_stride,
                        std::ptrdiff_t gene_stride, int count, gene_t<Problem> eps,
                        gene_t<Problem>* FUSEDGA_RESTRICT objective, gene_t<Problem>* FUSEDGA_RESTRICT violation) {
  using G = gene_t<Problem>;
  const Problem problem{};
  if (lane_stride == 1) {
    const auto soa = [=](int l) { return strided_gene_view<G>{genes + l, gene_stride}; };
    jit_detail::evaluate_lanes(problem, soa, count, eps, objective, violation);
  } else if (gene_stride == 1) {
    const auto rows = [=](int l) { return gene_view<G, 1>{genes + l * lane_stride}; };
    jit_detail::evaluate_lanes(problem, rows, count, eps, objective, violation);
  } else {
    const auto strided = [=](int l) { return strided_gene_view<G>{genes + l * lane_stride, gene_stride}; };
    jit_detail::evaluate_lanes(problem, strided, count, eps, objective, violation);
  }
}

}  // namespace fusedga::expr

/// Defines the module's C entry points (see the file comment) for `ProblemType`,
/// a stateless problem type; use once per translation unit, at global scope.
#define FUSEDGA_JIT_EXPORT(ProblemType)                                                                              \
  extern "C" FUSEDGA_JIT_VISIBLE void fusedga_jit_evaluate(                                                          \
      const ::fusedga::gene_t<ProblemType>* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, \
      ::fusedga::gene_t<ProblemType> eps, ::fusedga::gene_t<ProblemType>* objective,                                 \
      ::fusedga::gene_t<ProblemType>* violation) {                                                                   \
    ::fusedga::expr::jit_evaluate_batch<ProblemType>(genes, lane_stride, gene_stride, count, eps, objective,         \
                                                     violation);                                                     \
  }                                                                                                                  \
  extern "C" FUSEDGA_JIT_VISIBLE int fusedga_jit_abi_version() { return FUSEDGA_JIT_ABI_VERSION; }                   \
  extern "C" FUSEDGA_JIT_VISIBLE const char* fusedga_jit_key() { return FUSEDGA_JIT_KEY; }
