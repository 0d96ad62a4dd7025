#pragma once
/// @file double_math.hpp
/// tan(πx), cos(πx) and log in double, written out in portable arithmetic so
/// that every backend computes the same bits — the double-precision sibling
/// of float_math.hpp, for the random variates of SHADE's F (Cauchy: tan) and
/// CR (Box–Muller: log, cos). The CPU's DE pass evaluates them for a whole
/// tile in loops GCC vectorizes inline (glibc's scalar tan, log and cos were
/// a quarter of a DE generation), the CUDA kernels and the host-side GPU
/// emulation run the same operations, so with FMA contraction off (CMake's
/// FUSEDGA_FP_FLAGS, nvcc --fmad=false) a SHADE trial is bitwise the same on
/// the CPU and the GPU, which glibc and CUDA's libdevice could not give.
///
/// Algorithms: sin(πr) for |r| <= ½ by its Taylor series to the (πr)^21
/// term (truncation < 2·10⁻¹⁸ relative); tan(πx) = sin(πa)/sin(π(½ − a)),
/// a = |x − rint(x)|, cos(πx) = sin(π(½ − |x − 2 rint(x/2)|)) (the
/// reductions are exact); log x = e ln 2 + 2 atanh((m − 1)/(m + 1)) with
/// m in [√½, √2) and atanh by its series to s^23 (Cody–Waite split of ln 2).
/// Accuracy against long-double libm, measured over 2·10⁶ random arguments
/// (tests/core/test_double_math.cpp): ≤ 4 ulp for tanpi, ≤ 3 for cospi and
/// ≤ 2 for log. Special values: tanpi(±½) = ±inf; cospi and tanpi of ±inf or NaN
/// are NaN; log as C99 (log 0 = −inf, log(x < 0) = NaN, log inf = inf, NaN
/// in → NaN out; subnormal x handled). Pure; thread-safe.

#include <cmath>
#include <cstdint>

#include "fusedga/core/bit_cast.hpp"
#include "fusedga/core/float_math.hpp"
#include "fusedga/core/macros.hpp"

namespace fusedga::fmath {

namespace detail {
/// sin(πr) for |r| <= ½: r · P(r²), P the Taylor series of sin(πr)/r to r^20 (detail::horner, float_math.hpp's).
FUSEDGA_HD FUSEDGA_INLINE double sinpi_reduced(double r) {
  constexpr double c[] = {5.392664662608129e-10,   -2.2948428997269873e-08, 7.952054001475513e-07,
                          -2.1915353447830217e-05, 0.00046630280576761255,  -0.0073704309457143504,
                          0.08214588661112823,     -0.5992645293207921,     2.5501640398773455,
                          -5.16771278004997,       3.141592653589793};
  return r * horner(r * r, c);
}
}  // namespace detail

/// tan(πx) for any x (period 1; ±inf at x = ±½ + k; ≤ 4 ulp). The Cauchy quantile is tanpi(u − ½).
FUSEDGA_HD FUSEDGA_INLINE double tanpi(double x) {
  const double y = x - std::rint(x);  // in [−½, ½], exact
  const double a = y < 0 ? -y : y;
  const double t = detail::sinpi_reduced(a) / detail::sinpi_reduced(0.5 - a);
  return y < 0 ? -t : t;
}

/// cos(πx) for any finite x (period 2; ≤ 3 ulp). Box–Muller's cos(2πu) is cospi(2u).
FUSEDGA_HD FUSEDGA_INLINE double cospi(double x) {
  const double y = x - 2.0 * std::rint(0.5 * x);  // in [−1, 1], exact
  const double a = y < 0 ? -y : y;
  return detail::sinpi_reduced(0.5 - a);  // cos(πa) = sin(π(½ − a)), ½ − a in [−½, ½]
}

/// Natural logarithm in double (≤ 2 ulp; subnormal x handled, log 0 = −inf, x < 0 → NaN).
FUSEDGA_HD FUSEDGA_INLINE double log(double x) {
  constexpr double min_normal = 2.2250738585072014e-308;
  const bool tiny = x < min_normal;
  const double xs = tiny ? x * 18014398509481984.0 : x;  // · 2^54: subnormals become normal
  const std::uint64_t b = bit_cast<std::uint64_t>(xs);
  // The biased exponent k as the double 2^52 + k minus 2^52 (exact): AVX2 has no vector int64 → double
  // conversion, so static_cast<double>(k) kept the whole loop over a DE tile's CR draws scalar.
  const double k = bit_cast<double>(((b >> 52) & 0x7ff) | 0x4330000000000000ULL) - 4503599627370496.0;
  double e = (k - 1023.0) - (tiny ? 54.0 : 0.0);
  double m = bit_cast<double>((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);  // xs = m · 2^e, m in [1, 2)
  const bool big = m > 1.4142135623730951;
  e = big ? e + 1.0 : e;
  m = big ? 0.5 * m : m;                   // m in [√½, √2]
  const double s = (m - 1.0) / (m + 1.0);  // m − 1 exact (Sterbenz); log m = 2 atanh s, |s| <= 0.1716
  const double z = s * s;
  constexpr double c[] = {
      0.043478260869565216, 0.047619047619047616, 0.05263157894736842, 0.058823529411764705, 0.06666666666666667,
      0.07692307692307693,  0.09090909090909091,  0.1111111111111111,  0.14285714285714285,  0.2,
      0.3333333333333333};  // 1/23 … 1/3
  const double p = detail::horner(z, c);
  const double log_m = 2.0 * s + 2.0 * s * (z * p);
  // ln 2 = 0.6931471675634384 (26 bits: e · it is exact) + 1.2996506893889889e-08
  double result = e * 0.6931471675634384 + (e * 1.2996506893889889e-08 + log_m);
  const double inf = bit_cast<double>(0x7ff0000000000000LL);
  result = x == inf ? x : result;
  result = x == 0.0 ? -inf : result;
  result = x < 0.0 ? bit_cast<double>(0x7ff8000000000000LL) : result;
  return x != x ? x : result;
}

}  // namespace fusedga::fmath
