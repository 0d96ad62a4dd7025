#pragma once
/// @file serial.hpp
/// The serial backend: the reference every other backend must reproduce bitwise.

#include <cstddef>
#include <type_traits>

#include "fusedga/backends/cpu_executor.hpp"
#include "fusedga/engine/executor.hpp"

namespace fusedga {
namespace backend {
/// Runs every pass on the calling thread. Trivially copyable tag.
struct serial {};
}  // namespace backend

namespace detail {

/// Runs `f(i)` (or `f(i, slot)`, the worker slot: always 0 here) for i in [0, n) on the calling thread, in order.
class serial_loop {
 public:
  explicit serial_loop(const backend::serial&) {}
  template <class F>
  void for_each_index(std::size_t n, F&& f) {
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_invocable_v<F&, std::size_t, int>)
        f(i, 0);
      else
        f(i);
    }
  }
  int concurrency() const { return 1; }
};

}  // namespace detail

template <class Problem>
struct executor_for<Problem, backend::serial> {
  using type = detail::cpu_executor<Problem, detail::serial_loop>;
};

}  // namespace fusedga
