#pragma once
/// @file float_math.hpp
/// exp, log, expm1 and log1p in float, written out in portable arithmetic so
/// that every backend computes the same bits: the CPU's SIMD loops (GCC
/// vectorizes these branch-free bodies inline, no libm call), the CUDA
/// kernels and the host-side GPU emulation. With FMA contraction off
/// (CMake's FUSEDGA_FP_FLAGS) a variate drawn by SBX or polynomial mutation is
/// therefore bitwise identical on the CPU and the GPU, which glibc's libmvec
/// and CUDA's libdevice (a few ulps apart) could not give.
///
/// Algorithms: Cody–Waite range reduction with the minimax polynomials of
/// Moshier's Cephes library (expf.c, logf.c; S. L. Moshier, "Methods and
/// Programs for Mathematical Functions", 1989); log1p by Goldberg's
/// correction (D. Goldberg, "What every computer scientist should know about
/// floating-point arithmetic", 1991, theorem 4); expm1 by its Taylor series
/// below ln2/2. Accuracy against double libm, measured over 2·10^7 random
/// arguments: 1 ulp for exp and log, 3 for expm1, 2 for log1p (the tests,
/// tests/core/test_float_math.cpp, allow 2, 2, 3 and 3). Results
/// below FLT_MIN are flushed to 0 (exp, expm1) and subnormal inputs to log are
/// handled exactly. Special values as C99: exp(−inf) = 0, exp(inf) = inf,
/// log(0) = −inf, log(x < 0) = NaN, NaN in → NaN out. Pure; thread-safe.

#include <cstdint>

#include "fusedga/core/bit_cast.hpp"
#include "fusedga/core/macros.hpp"

namespace fusedga::fmath {

namespace detail {
// Bit patterns rather than std::numeric_limits, whose members nvcc treats as host-only
// without --expt-relaxed-constexpr (embedding users need not pass it).
FUSEDGA_HD FUSEDGA_INLINE float infinity() { return bit_cast<float>(0x7f800000); }
FUSEDGA_HD FUSEDGA_INLINE float quiet_nan() { return bit_cast<float>(0x7fc00000); }
/// c[0]·x^(N−1) + ... + c[N−1] by Horner's rule: the same operations in the same order on every backend.
template <class Real, int N>
FUSEDGA_HD FUSEDGA_INLINE Real horner(Real x, const Real (&c)[N]) {
  Real p = c[0];
  for (int k = 1; k < N; ++k) p = p * x + c[k];
  return p;
}
}  // namespace detail

/// e^x in float (≤ 2 ulp; 0 below e^−87.34 ≈ FLT_MIN, inf above 88.72).
FUSEDGA_HD FUSEDGA_INLINE float exp(float x) {
  constexpr float lo = -87.33654f, hi = 88.72283f;
  const float xc = x > lo ? (x < hi ? x : hi) : lo;  // NaN → lo (the conversion below needs a number)
  const float shifter = 12582912.0f;                 // 1.5 · 2^23: adding it rounds to an integer
  const float n = (xc * 1.44269504088896341f + shifter) - shifter;
  float r = xc - n * 0.693359375f;  // Cody–Waite: ln 2 = 0.693359375 − 2.12194440e−4 (first part exact)
  r = r - n * -2.12194440e-4f;
  const float z = r * r;
  constexpr float c[] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                         4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
  const float p = detail::horner(r, c);
  const float y = p * z + r + 1.0f;
  // 2^n for n in [−126, 128]: n = 128 (e^x just below FLT_MAX) is scaled in two steps
  const bool top = n > 127.0f;
  const float scale = bit_cast<float>((static_cast<std::int32_t>(top ? n - 1.0f : n) + 127) << 23);
  float result = (y * scale) * (top ? 2.0f : 1.0f);
  result = x < lo ? 0.0f : result;
  result = x > hi ? detail::infinity() : result;
  return x != x ? x : result;
}

/// Natural logarithm in float (≤ 2 ulp; subnormal x exact, log 0 = −inf, x < 0 → NaN).
FUSEDGA_HD FUSEDGA_INLINE float log(float x) {
  constexpr float min_normal = 1.17549435e-38f;
  const bool tiny = x < min_normal;
  const float xs = tiny ? x * 8388608.0f : x;  // · 2^23: subnormals become normal
  const std::int32_t b = bit_cast<std::int32_t>(xs);
  float e = static_cast<float>(((b >> 23) & 0xff) - 126) - (tiny ? 23.0f : 0.0f);
  float m = bit_cast<float>((b & 0x807fffff) | 0x3f000000);  // xs = m · 2^e, m in [0.5, 1)
  const bool small = m < 0.707106781186547524f;
  e = small ? e - 1.0f : e;
  m = small ? m + m - 1.0f : m - 1.0f;  // log(1 + m), m in [√½ − 1, √2 − 1)
  const float z = m * m;
  constexpr float c[] = {7.0376836292e-2f,  -1.1514610310e-1f, 1.1676998740e-1f,  -1.2420140846e-1f, 1.4249322787e-1f,
                         -1.6668057665e-1f, 2.0000714765e-1f,  -2.4999993993e-1f, 3.3333331174e-1f};
  float y = detail::horner(m, c) * m * z;
  y = y + -2.12194440e-4f * e;
  y = y - 0.5f * z;
  float result = (m + y) + 0.693359375f * e;
  result = x == detail::infinity() ? x : result;
  result = x == 0.0f ? -detail::infinity() : result;
  result = x < 0.0f ? detail::quiet_nan() : result;
  return x != x ? x : result;
}

/// e^x − 1 in float, accurate for small |x| too (≤ 3 ulp; −1 as x → −inf).
FUSEDGA_HD FUSEDGA_INLINE float expm1(float x) {
  // Taylor series to x^7/7!, |x| < ln2/2: truncation below 0.2 ulp
  constexpr float c[] = {1.98412701e-4f, 1.38888892e-3f, 8.33333377e-3f, 4.16666679e-2f, 1.66666672e-1f, 0.5f};
  const float series = x + x * x * detail::horner(x, c);
  const bool near_zero = x > -0.34657359f && x < 0.34657359f;
  return near_zero ? series : exp(x) - 1.0f;
}

/// log(1 + x) in float, accurate for small |x| too (≤ 3 ulp; log1p(−1) = −inf).
FUSEDGA_HD FUSEDGA_INLINE float log1p(float x) {
  const float u = 1.0f + x;
  // Goldberg: log(u) · x / (u − 1) cancels the rounding of 1 + x
  const float corrected = log(u) * (x / (u - 1.0f));
  float result = u == 1.0f ? x : corrected;
  result = x == detail::infinity() ? x : result;
  return result;
}

/**
 * x^y for x >= 0 in float as exp(y · log x), the form SBX uses (its spread
 * factors): relative error about |y · log x| · 2^-24 plus 2 ulp. x = 0 gives
 * 0 for y > 0 and inf for y < 0.
 */
FUSEDGA_HD FUSEDGA_INLINE float pow_nonneg(float x, float y) { return exp(y * log(x)); }

}  // namespace fusedga::fmath
