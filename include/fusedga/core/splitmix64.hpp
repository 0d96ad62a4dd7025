#pragma once
/// @file splitmix64.hpp
/// SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators", OOPSLA): derives
/// well-spread 64-bit seeds (restarts', islands', test fills') from a seed and an index.

#include <cstdint>

#include "fusedga/core/macros.hpp"

namespace fusedga::detail {

/// SplitMix64's output function of state `z` (the state advances by 0x9E3779B97F4A7C15 per draw).
/// Pure; any input. Thread-safe.
FUSEDGA_HD constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// SplitMix64's golden-ratio increment.
inline constexpr std::uint64_t splitmix64_gamma = 0x9E3779B97F4A7C15ull;

}  // namespace fusedga::detail
