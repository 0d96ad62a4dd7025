#include "bench/roofline_peak.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <type_traits>

#if defined(__AVX512F__) || (defined(__AVX__) && defined(__FMA__))
#include <immintrin.h>
#endif

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {

// Enough independent accumulators to cover FMA latency × FMA ports (4-5 cycles × 2 on
// current x86), few enough to stay in the 16 (32 with AVX-512) vector registers.
constexpr int chains = 12;

/// One FMA register type: `reg`, its `lanes`, set1, fma (a·b + c, one rounding) and an aligned store.
#if defined(__AVX512F__)
struct simd_float {
  using reg = __m512;
  static constexpr int lanes = 16;
  static reg set1(float x) { return _mm512_set1_ps(x); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static void store(float* p, reg v) { _mm512_store_ps(p, v); }
};
struct simd_double {
  using reg = __m512d;
  static constexpr int lanes = 8;
  static reg set1(double x) { return _mm512_set1_pd(x); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
  static void store(double* p, reg v) { _mm512_store_pd(p, v); }
};
const char* kernel_name() { return "AVX-512 FMA"; }
#elif defined(__AVX__) && defined(__FMA__)
struct simd_float {
  using reg = __m256;
  static constexpr int lanes = 8;
  static reg set1(float x) { return _mm256_set1_ps(x); }
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
  static void store(float* p, reg v) { _mm256_store_ps(p, v); }
};
struct simd_double {
  using reg = __m256d;
  static constexpr int lanes = 4;
  static reg set1(double x) { return _mm256_set1_pd(x); }
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_pd(a, b, c); }
  static void store(double* p, reg v) { _mm256_store_pd(p, v); }
};
const char* kernel_name() { return "AVX2 FMA"; }
#else
template <class Real>
struct simd_scalar {
  using reg = Real;
  static constexpr int lanes = 1;
  static reg set1(Real x) { return x; }
  static reg fma(reg a, reg b, reg c) { return std::fma(a, b, c); }
  static void store(Real* p, reg v) { *p = v; }
};
using simd_float = simd_scalar<float>;
using simd_double = simd_scalar<double>;
const char* kernel_name() { return "scalar FMA"; }
#endif

template <bool Single>
using simd = std::conditional_t<Single, simd_float, simd_double>;

/// Lanes per FMA instruction of the kernel below.
template <bool Single>
int lanes() {
  return simd<Single>::lanes;
}

/// Runs `iterations` × `chains` FMAs per lane; returns a value that depends on all of them.
/// acc ← acc·a + b converges to b / (1 − a) = 0.1: no overflow, no subnormals.
template <bool Single>
double fma_kernel(long iterations) {
  using S = simd<Single>;
  using Real = std::conditional_t<Single, float, double>;
  typename S::reg acc[chains];
  for (int k = 0; k < chains; ++k) acc[k] = S::set1(Real(1) + Real(0.01) * Real(k));
  const typename S::reg a = S::set1(Real(0.999)), b = S::set1(Real(1e-4));
  for (long i = 0; i < iterations; ++i)
    for (int k = 0; k < chains; ++k) acc[k] = S::fma(acc[k], a, b);
  // Stored and summed by hand: GCC 12's _mm512_reduce_add_* trips -Wuninitialized in its own header.
  alignas(64) Real out[S::lanes];
  double s = 0;
  for (int k = 0; k < chains; ++k) {
    S::store(out, acc[k]);
    for (const Real v : out) s += v;
  }
  return s;
}

template <bool Single>
peak_flops measure(int threads, int trials) {
  ::tbb::task_arena arena(threads);
  std::atomic<double> sink{0};
  // Times one parallel run of `iterations` per thread; returns seconds.
  const auto run = [&](long iterations) {
    const auto t0 = std::chrono::steady_clock::now();
    arena.execute([&] {
      ::tbb::parallel_for(
          ::tbb::blocked_range<int>(0, threads, 1),
          [&](const ::tbb::blocked_range<int>& r) {
            double s = 0;
            for (int t = r.begin(); t != r.end(); ++t) s += fma_kernel<Single>(iterations);
            sink.store(s, std::memory_order_relaxed);  // keeps the loop observable
          },
          ::tbb::static_partitioner{});
    });
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // Calibrate to about 10 ms per trial (a trial is short so the whole probe stays well under 0.2 s);
  // the first call starts the arena's threads and is not used.
  long iterations = 1 << 14;
  run(iterations);
  double s = run(iterations);
  while (s < 2e-3 && iterations < (1L << 34)) {
    iterations *= 4;
    s = run(iterations);
  }
  iterations = std::max(1L, static_cast<long>(static_cast<double>(iterations) * 1e-2 / std::max(s, 1e-9)));
  peak_flops p;
  p.threads = threads;
  p.single_precision = Single;
  p.kernel = kernel_name();
  for (int t = 0; t < trials;) {
    const double seconds = run(iterations);
    if (seconds < 5e-3 && iterations < (1L << 34)) {  // calibration was disturbed: lengthen, do not count
      iterations *= 2;
      continue;
    }
    const double flops = 2.0 * chains * lanes<Single>() * static_cast<double>(iterations) * threads;
    p.gflop_per_s = std::max(p.gflop_per_s, flops / seconds / 1e9);
    ++t;
  }
  if (!(sink.load() > 0)) throw error("measure_peak_flops: kernel check failed");
  return p;
}

}  // namespace

peak_flops measure_peak_flops(int threads, bool single_precision, int trials) {
  if (threads < 1) throw error("measure_peak_flops: threads must be >= 1, got " + std::to_string(threads));
  if (trials < 1) throw error("measure_peak_flops: trials must be >= 1, got " + std::to_string(trials));
  return single_precision ? measure<true>(threads, trials) : measure<false>(threads, trials);
}

}  // namespace fusedga
