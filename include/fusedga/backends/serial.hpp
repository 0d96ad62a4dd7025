#pragma once
/// @file serial.hpp
/// The serial backend: the reference every other backend must reproduce bitwise.

#include <cstddef>

namespace fusedga {
namespace backend {
/// Runs every pass on the calling thread. Trivially copyable tag.
struct serial {};
}  // namespace backend

namespace detail {

/// Executes `f(i)` for i in [0, n) on the calling thread, in order.
class serial_executor {
 public:
  explicit serial_executor(const backend::serial&) {}
  template <class F>
  void for_each_index(std::size_t n, F&& f) {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  int concurrency() const { return 1; }
};

inline serial_executor make_executor(const backend::serial& b) { return serial_executor(b); }

}  // namespace detail
}  // namespace fusedga
