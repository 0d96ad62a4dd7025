#pragma once
/// @file bit_cast.hpp
/// C++17's stand-in for C++20's std::bit_cast, usable in device code: the
/// object representation of `x` read as a `To` (same size, trivially
/// copyable). Pure; thread-safe.

#include <cstring>
#include <type_traits>

#include "fusedga/core/macros.hpp"

namespace fusedga {

template <class To, class From>
FUSEDGA_HD FUSEDGA_INLINE To bit_cast(const From& x) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: the two types differ in size");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                "bit_cast: both types must be trivially copyable");
  To y;
  std::memcpy(&y, &x, sizeof y);
  return y;
}

}  // namespace fusedga
