#pragma once
/// @file roofline_peak.hpp
/// This machine's peak arithmetic rate, measured in-process: the flat roof
/// of the roofline chart (Williams, Waterman, Patterson, "Roofline: an
/// insightful visual performance model for multicore architectures", CACM 2009),
/// next to the copy bandwidth of stream_copy.hpp.

namespace fusedga {

/// Result of a peak-FLOP/s measurement.
struct peak_flops {
  double gflop_per_s = 0;     ///< best trial, 10^9 floating-point operations/s (an FMA counts 2)
  int threads = 1;            ///< TBB threads that ran the loop
  bool single_precision = false;  ///< float lanes instead of double
  const char* kernel = "";    ///< "AVX-512 FMA", "AVX2 FMA" or "scalar FMA": the widest the build targets
};

/**
 * Runs independent chains of fused multiply-adds in registers (no memory
 * traffic) on `threads` TBB threads, `trials` times, and returns the best
 * trial's rate. Each trial runs about 10 ms, so the whole call takes about
 * `trials` × 10 ms plus a short calibration. Uses the widest SIMD FMA the
 * build targets (compile-time macros), so it is the peak *this build* can reach.
 *
 * @param threads  >= 1
 * @param trials   >= 1
 * @throws error for invalid arguments.
 */
peak_flops measure_peak_flops(int threads, bool single_precision, int trials = 5);

}  // namespace fusedga
