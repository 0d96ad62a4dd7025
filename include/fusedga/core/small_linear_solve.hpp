#pragma once
/// @file small_linear_solve.hpp
/// Dense solves for the small systems of a Newton step (the gradient repair's
/// pseudo-inverse, operators/gradient_repair.hpp). `FUSEDGA_HD`: the same
/// code runs in CPU tiles and GPU threads; no allocation, no exceptions.

#include "fusedga/core/macros.hpp"

namespace fusedga {

/// Swaps rows a and b (each d values) of a row-major matrix; nothing when a == b.
template <class S>
FUSEDGA_HD inline void swap_rows(S* A, int a, int b, int d) {
  if (a == b) return;
  for (int j = 0; j < d; ++j) {
    const S t = A[a * d + j];
    A[a * d + j] = A[b * d + j];
    A[b * d + j] = t;
  }
}

/**
 * Solves A·y = b in place by Gaussian elimination with partial pivoting.
 * `A` is n × n row-major and is overwritten; `b` (n) receives y. Returns
 * false (A, b then unspecified) when a pivot is zero or not finite: the
 * caller keeps its point. O(n³/3). Deterministic (no data-dependent order
 * beyond the pivot choice, which ties to the lowest row).
 */
template <class S>
FUSEDGA_HD inline bool solve_linear_in_place(S* A, S* b, int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    S best = A[k * n + k] < S(0) ? -A[k * n + k] : A[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const S v = A[i * n + k] < S(0) ? -A[i * n + k] : A[i * n + k];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (!(best > S(0)) || best - best != S(0)) return false;  // zero, NaN or infinite pivot
    if (p != k) {
      for (int j = k; j < n; ++j) {
        const S t = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = t;
      }
      const S t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    const S inv = S(1) / A[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const S f = A[i * n + k] * inv;
      if (f == S(0)) continue;
      for (int j = k + 1; j < n; ++j) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    S s = b[k];
    for (int j = k + 1; j < n; ++j) s -= A[k * n + j] * b[j];
    b[k] = s / A[k * n + k];
  }
  return true;
}

/**
 * The minimum-norm / least-squares step s = A⁺·r of an m × d row-major
 * matrix A (the Moore–Penrose pseudo-inverse, regularized by a tiny ridge
 * λ = n·ε·max(1, max diag) so rank-deficient A still gives a finite step):
 *  - m <= d: s = Aᵀ (A·Aᵀ + λI)⁻¹ r   (the minimum-norm solution of A·s = r);
 *  - m >  d: s = (Aᵀ·A + λI)⁻¹ Aᵀ r   (least squares).
 * `work` holds at least n·n + n values, n = min(m, d). Writes `s` (d values).
 * Returns false when the system is singular beyond the ridge or not finite
 * (s then unspecified). O(min(m,d)²·max(m,d) + min(m,d)³).
 */
template <class S>
FUSEDGA_HD inline bool pseudo_inverse_step(const S* A, const S* r, int m, int d, S* s, S* work) {
  const S eps = sizeof(S) == sizeof(float) ? S(1.1920929e-07) : S(2.220446049250313e-16);
  if (m == 1) {  // one violated constraint, the common case: s = a·r/(a·a + λ), the same operations as below
    S aa = S(0);
    for (int j = 0; j < d; ++j) aa += A[j] * A[j];
    const S q = aa + eps * (aa > S(1) ? aa : S(1));
    if (!(q > S(0)) || q - q != S(0)) return false;
    const S y = r[0] / q;
    bool finite = true;
    for (int j = 0; j < d; ++j) {
      s[j] = A[j] * y;
      finite = finite && s[j] - s[j] == S(0);
    }
    return finite;
  }
  const bool wide = m <= d;
  const int n = wide ? m : d;
  S* M = work;
  S* y = work + n * n;
  S diag = S(0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      S acc = S(0);
      if (wide)
        for (int j = 0; j < d; ++j) acc += A[i * d + j] * A[k * d + j];
      else
        for (int j = 0; j < m; ++j) acc += A[j * d + i] * A[j * d + k];
      M[i * n + k] = acc;
      if (i == k && acc > diag) diag = acc;
    }
  const S ridge = S(n) * eps * (diag > S(1) ? diag : S(1));
  for (int i = 0; i < n; ++i) M[i * n + i] += ridge;
  if (wide) {
    for (int i = 0; i < m; ++i) y[i] = r[i];
  } else {
    for (int i = 0; i < d; ++i) {
      S acc = S(0);
      for (int j = 0; j < m; ++j) acc += A[j * d + i] * r[j];
      y[i] = acc;
    }
  }
  if (!solve_linear_in_place(M, y, n)) return false;
  if (wide) {
    for (int j = 0; j < d; ++j) {
      S acc = S(0);
      for (int i = 0; i < m; ++i) acc += A[i * d + j] * y[i];
      s[j] = acc;
    }
  } else {
    for (int j = 0; j < d; ++j) s[j] = y[j];
  }
  for (int j = 0; j < d; ++j)
    if (s[j] - s[j] != S(0)) return false;
  return true;
}

}  // namespace fusedga
