// fmath (float_math.hpp): accuracy in ulps against double libm over the
// ranges SBX and polynomial mutation use and beyond, the special values, and
// that the SIMD loops the CPU passes vectorize give the same bits as scalar calls.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <fusedga/core/float_math.hpp>

#include "core/ulps.hpp"

namespace {

using core_test::ulps;

template <class F, class R>
std::int64_t worst_ulps(F f, R reference, float lo, float hi, int samples, bool log_spaced = false) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::int64_t worst = 0;
  for (int i = 0; i < samples; ++i) {
    const double t = u(rng);
    const float x = log_spaced
                        ? float(std::exp(std::log(double(lo)) + t * (std::log(double(hi)) - std::log(double(lo)))))
                        : float(lo + t * (double(hi) - lo));
    const float want = float(reference(double(x)));
    const std::int64_t e = ulps(f(x), want);
    if (e > worst) {
      worst = e;
      INFO("x = " << x << ": " << f(x) << " vs " << want);
      CHECK(e <= 3);
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("fmath exp and log are within 2 ulp of double libm", "[core]") {
  const auto exp_ = [](float x) { return fusedga::fmath::exp(x); };
  const auto log_ = [](float x) { return fusedga::fmath::log(x); };
  const auto dexp = [](double x) { return std::exp(x); };
  const auto dlog = [](double x) { return std::log(x); };
  CHECK(worst_ulps(exp_, dexp, -87.0f, 88.7f, 400000) <= 2);
  CHECK(worst_ulps(exp_, dexp, -1.0f, 1.0f, 200000) <= 2);
  CHECK(worst_ulps(log_, dlog, 1e-37f, 3e38f, 400000, true) <= 2);
  CHECK(worst_ulps(log_, dlog, 0.5f, 2.0f, 200000) <= 2);
  CHECK(worst_ulps(log_, dlog, 1e-44f, 1e-38f, 20000, true) <= 2);  // subnormal inputs
}

TEST_CASE("fmath expm1 and log1p are within 3 ulp of double libm, also near 0", "[core]") {
  const auto expm1_ = [](float x) { return fusedga::fmath::expm1(x); };
  const auto log1p_ = [](float x) { return fusedga::fmath::log1p(x); };
  const auto dexpm1 = [](double x) { return std::expm1(x); };
  const auto dlog1p = [](double x) { return std::log1p(x); };
  CHECK(worst_ulps(expm1_, dexpm1, -80.0f, 80.0f, 400000) <= 3);
  CHECK(worst_ulps(expm1_, dexpm1, -0.5f, 0.5f, 400000) <= 3);
  CHECK(worst_ulps(expm1_, dexpm1, 1e-30f, 0.4f, 100000, true) <= 3);
  CHECK(worst_ulps([&](float x) { return expm1_(-x); }, [&](double x) { return dexpm1(-x); }, 1e-30f, 0.4f, 100000,
                   true) <= 3);
  CHECK(worst_ulps(log1p_, dlog1p, -0.999999f, 1e6f, 400000) <= 3);
  CHECK(worst_ulps(log1p_, dlog1p, 1e-30f, 0.5f, 100000, true) <= 3);
  CHECK(worst_ulps([&](float x) { return log1p_(-x); }, [&](double x) { return dlog1p(-x); }, 1e-30f, 0.999f, 100000,
                   true) <= 3);
}

TEST_CASE("fmath special values follow C99", "[core]") {
  using fusedga::fmath::exp;
  using fusedga::fmath::expm1;
  using fusedga::fmath::log;
  using fusedga::fmath::log1p;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(exp(0.0f) == 1.0f);
  CHECK(exp(-inf) == 0.0f);
  CHECK(exp(-100.0f) == 0.0f);  // below FLT_MIN: flushed
  CHECK(exp(inf) == inf);
  CHECK(exp(89.0f) == inf);
  CHECK(std::isfinite(exp(88.72f)));
  CHECK(std::isnan(exp(nan)));
  CHECK(log(1.0f) == 0.0f);
  CHECK(log(0.0f) == -inf);
  CHECK(log(inf) == inf);
  CHECK(std::isnan(log(-1.0f)));
  CHECK(std::isnan(log(nan)));
  CHECK(expm1(0.0f) == 0.0f);
  CHECK(expm1(-inf) == -1.0f);
  CHECK(expm1(1e-20f) == 1e-20f);
  CHECK(log1p(0.0f) == 0.0f);
  CHECK(log1p(-1.0f) == -inf);
  CHECK(log1p(1e-20f) == 1e-20f);
  CHECK(log1p(inf) == inf);
}

TEST_CASE("fmath gives the same bits in a vectorized loop as in scalar calls", "[core]") {
  // The CPU passes call fmath inside SIMD loops, the GPU thread by thread: both must agree bitwise.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-20.0f, 20.0f);
  std::vector<float> x(4096), e(4096), l(4096), em(4096), lp(4096);
  for (auto& v : x) v = u(rng);
  for (std::size_t i = 0; i < x.size(); ++i) {
    e[i] = fusedga::fmath::exp(x[i]);
    l[i] = fusedga::fmath::log(std::fabs(x[i]));
    em[i] = fusedga::fmath::expm1(x[i] * 0.05f);
    lp[i] = fusedga::fmath::log1p(std::fabs(x[i]) * 0.04f - 0.9f);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    volatile float xi = x[i];  // a scalar call the compiler cannot fold into the loop above
    const float s = xi;
    REQUIRE(fusedga::fmath::exp(s) == e[i]);
    REQUIRE((fusedga::fmath::log(std::fabs(s)) == l[i]));
    REQUIRE(fusedga::fmath::expm1(s * 0.05f) == em[i]);
    REQUIRE(fusedga::fmath::log1p(std::fabs(s) * 0.04f - 0.9f) == lp[i]);
  }
}
