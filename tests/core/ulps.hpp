#pragma once
// Distance in units in the last place, for the accuracy tests of core/float_math.hpp and core/double_math.hpp.
#include <cstdint>
#include <fusedga/core/bit_cast.hpp>
#include <limits>
#include <type_traits>

namespace core_test {

/// Ulps between two finite values of the same sign (0 when equal; the int64 maximum when the signs differ).
template <class Real>
std::int64_t ulps(Real a, Real b) {
  using Bits = std::conditional_t<sizeof(Real) == 4, std::int32_t, std::int64_t>;
  if (a == b) return 0;
  const Bits x = fusedga::bit_cast<Bits>(a), y = fusedga::bit_cast<Bits>(b);
  if ((x < 0) != (y < 0)) return std::numeric_limits<std::int64_t>::max();
  return x > y ? std::int64_t(x) - std::int64_t(y) : std::int64_t(y) - std::int64_t(x);
}

}  // namespace core_test
