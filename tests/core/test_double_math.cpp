// fmath in double (double_math.hpp): accuracy in ulps against long-double libm, evaluated where its own
// argument is exact (so the reference is not the one in error near tan's poles and cos's zeros), the special
// values, and that the SIMD loops of the DE pass give the same bits as scalar calls.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fusedga/core/double_math.hpp>
#include <fusedga/operators/differential_evolution.hpp>
#include <limits>
#include <random>
#include <vector>

#include "core/ulps.hpp"

namespace {

using core_test::ulps;

constexpr long double kPi = 3.141592653589793238462643383279502884L;

/// tan(πx) in long double, from the exactly reduced argument (cot near the poles).
double tan_pi_reference(double x) {
  const long double y = static_cast<long double>(x) - std::rint(static_cast<long double>(x));
  const long double a = std::fabs(y);
  const long double t = a <= 0.25L ? std::tan(kPi * a) : 1.0L / std::tan(kPi * (0.5L - a));
  return static_cast<double>(y < 0 ? -t : t);
}

/// cos(πx) in long double as sin(π(½ − |x mod 2|)).
double cos_pi_reference(double x) {
  const long double y = static_cast<long double>(x) - 2.0L * std::rint(0.5L * static_cast<long double>(x));
  return static_cast<double>(std::sin(kPi * (0.5L - std::fabs(y))));
}

template <class F, class R, class Arg>
std::int64_t worst_ulps(F f, R reference, Arg argument, int samples) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::int64_t worst = 0;
  for (int i = 0; i < samples; ++i) {
    const double x = argument(u(rng));
    const std::int64_t e = ulps(f(x), reference(x));
    if (e > worst) {
      worst = e;
      INFO("x = " << x << ": " << f(x) << " vs " << reference(x));
      CHECK(e <= 4);
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("fmath tanpi, cospi and log in double are within 4, 3 and 2 ulp of long-double libm", "[core]") {
  using namespace fusedga;
  const auto tanpi = [](double x) { return fmath::tanpi(x); };
  const auto cospi = [](double x) { return fmath::cospi(x); };
  const auto log = [](double x) { return fmath::log(x); };
  const auto logl = [](double x) { return static_cast<double>(std::log(static_cast<long double>(x))); };
  CHECK(worst_ulps(
            tanpi, tan_pi_reference, [](double t) { return t - 0.5; }, 1000000) <= 4);
  CHECK(worst_ulps(
            tanpi, tan_pi_reference, [](double t) { return 0.5 - std::ldexp(t, -30); }, 100000) <= 4);  // pole
  CHECK(worst_ulps(
            tanpi, tan_pi_reference, [](double t) { return 40.0 * t - 20.0; }, 100000) <= 4);
  CHECK(worst_ulps(
            cospi, cos_pi_reference, [](double t) { return 2.0 * t; }, 1000000) <= 3);  // Box–Muller's
  CHECK(worst_ulps(
            cospi, cos_pi_reference, [](double t) { return 200.0 * t - 100.0; }, 100000) <= 3);
  CHECK(worst_ulps(
            log, logl, [](double t) { return std::exp(1400.0 * (t - 0.5)); }, 1000000) <= 2);
  CHECK(worst_ulps(
            log, logl, [](double t) { return 1.0 + (t - 0.5) * 1e-3; }, 200000) <= 2);  // near 1
  CHECK(worst_ulps(
            log, logl, [](double t) { return std::ldexp(1.0 + t, -1060); }, 20000) <= 2);  // subnormal
  CHECK(worst_ulps(
            log, logl, [](double t) { return std::ldexp(t + 0.5, -32); }, 200000) <= 2);  // unit_double's
}

TEST_CASE("fmath in double: special values", "[core]") {
  namespace fm = fusedga::fmath;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(fm::tanpi(0.0) == 0.0);
  CHECK(fm::tanpi(0.25) == Approx(1.0).epsilon(1e-15));
  CHECK(fm::tanpi(0.5) == inf);
  CHECK(fm::tanpi(-0.5) == -inf);
  CHECK(fm::tanpi(3.0) == 0.0);
  CHECK(std::isnan(fm::tanpi(nan)));
  CHECK(std::isnan(fm::tanpi(inf)));
  CHECK(fm::cospi(0.0) == Approx(1.0).epsilon(1e-15));  // the sum at ½ is within an ulp of 1
  CHECK(fm::cospi(1.0) == Approx(-1.0).epsilon(1e-15));
  CHECK(fm::cospi(0.5) == 0.0);
  CHECK(fm::cospi(2.0) == fm::cospi(0.0));  // period 2, exactly
  CHECK(fm::cospi(-1.0) == fm::cospi(1.0));
  CHECK(std::isnan(fm::cospi(nan)));
  CHECK(fm::log(1.0) == 0.0);
  CHECK(fm::log(0.0) == -inf);
  CHECK(fm::log(inf) == inf);
  CHECK(std::isnan(fm::log(-1.0)));
  CHECK(std::isnan(fm::log(nan)));
}

TEST_CASE("SHADE's variates give the same bits in a vectorized loop as in scalar calls", "[core][de]") {
  // de_pass.hpp draws a tile's F and CR in SIMD loops, the GPU (and de_draw) target by target.
  std::mt19937 rng(7);
  std::vector<std::uint32_t> u1(4096), u2(4096);
  for (auto& v : u1) v = rng();
  for (auto& v : u2) v = rng();
  std::vector<double> cauchy(4096), normal(4096);
  for (std::size_t i = 0; i < u1.size(); ++i) {
    cauchy[i] = fusedga::cauchy_variate(u1[i], 0.5, 0.1);
    normal[i] = fusedga::normal_variate(u1[i], u2[i], 0.5, 0.1);
  }
  for (std::size_t i = 0; i < u1.size(); ++i) {
    volatile std::uint32_t a = u1[i], b = u2[i];  // scalar calls the compiler cannot fold into the loop above
    REQUIRE(fusedga::cauchy_variate(a, 0.5, 0.1) == cauchy[i]);
    REQUIRE(fusedga::normal_variate(a, b, 0.5, 0.1) == normal[i]);
  }
}
