#pragma once
/// @file thread_buffer.hpp
/// A per-thread scratch buffer for the CPU passes, so their steady state allocates nothing.

#include <cstddef>
#include <vector>

namespace fusedga::detail {

/**
 * A buffer of at least `n` elements of T owned by the calling thread for the use named by the tag type `Use`:
 * it grows once per thread to the largest n asked, then is reused (no allocation in the steady state). Buffers
 * of different `Use` (or T) never alias, so a caller may hold one use's buffer while it asks for another's. The
 * pointer is valid until the same thread's next call with the same Use and T; the contents are unspecified.
 * Thread-safe (each thread has its own buffers). Host only. Throws std::bad_alloc when it cannot grow.
 */
template <class Use, class T>
inline T* thread_buffer(std::size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

}  // namespace fusedga::detail
