#pragma once
/// @file aligned_buffer.hpp
/// Owning, 64-byte aligned, uninitialized host array: the storage behind populations.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace fusedga::detail {

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/**
 * A fixed-size array of trivially copyable `T`, aligned to a cache line,
 * allocated once. Elements are not initialized. Not copyable; movable.
 * @throws std::bad_alloc when the allocation fails.
 */
template <class T>
class aligned_buffer {
 public:
  aligned_buffer() = default;
  explicit aligned_buffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, bytes);
    if (!p) throw std::bad_alloc();
    data_.reset(static_cast<T*>(p));
  }
  T* data() noexcept { return data_.get(); }
  const T* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return data_.get()[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_.get()[i]; }

 private:
  std::unique_ptr<T, free_deleter> data_;
  std::size_t size_ = 0;
};

}  // namespace fusedga::detail
