#pragma once
/// @file constraint_sink.hpp
/// The `G` that a problem's `inequalities(x, g)` / `equalities(x, h)` write into.
/// Includes only macros.hpp: the GPU JIT compiles it with NVRTC (no standard library).

#include "fusedga/core/macros.hpp"

namespace fusedga {

/**
 * Write-only constraint output that folds each value straight into the total
 * violation, so evaluation needs no per-constraint temporaries (DESIGN.md:
 * "objective, every constraint and the total violation in one pass").
 *
 * `g[j] = value` adds `max(0, value)` for an inequality sink
 * (`g_j(x) <= 0` is satisfied) and `max(0, |value| - eps)` for an equality
 * sink. Each constraint must be assigned exactly once; reading `g[j]` back is
 * not supported. Trivially copyable; one per individual per pass.
 */
template <class Real>
struct violation_sink {
  Real* total;    ///< accumulated violation, >= 0
  Real eps;       ///< equality tolerance; negative marks an inequality sink

  struct slot {
    Real* total;
    Real eps;
    FUSEDGA_HD void operator=(Real v) const {
      const Real excess = eps < Real(0) ? v : (v < Real(0) ? -v : v) - eps;
      *total += excess <= Real(0) ? Real(0) : excess;  // NaN propagates: ranked worst, never feasible
    }
  };
  FUSEDGA_HD slot operator[](int) const { return slot{total, eps}; }
};

/// Sink for inequalities g(x) <= 0.
template <class Real>
FUSEDGA_HD inline violation_sink<Real> inequality_sink(Real* total) { return {total, Real(-1)}; }
/// Sink for equalities |h(x)| <= eps.
template <class Real>
FUSEDGA_HD inline violation_sink<Real> equality_sink(Real* total, Real eps) { return {total, eps}; }

/// Sink that records the raw constraint values: `count` entries at `values`. A write outside them (a problem
/// that writes more constraints than it declares, at a point check_constraint_counts did not try) lands in
/// `*spill` instead of past the buffer. One per call (`spill` is scratch).
template <class Real>
struct recording_sink {
  Real* values;
  int count;
  Real* spill;
  FUSEDGA_HD Real& operator[](int j) const { return j >= 0 && j < count ? values[j] : *spill; }
};

}  // namespace fusedga
