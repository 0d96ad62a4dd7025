#pragma once
/// @file aligned_buffer.hpp
/// Owning, 64-byte aligned, uninitialized host array: the storage behind populations.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace fusedga::detail {

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/**
 * A fixed-size array of trivially copyable `T`, aligned to a cache line,
 * allocated once; whole cache lines: its bytes rounded up to a multiple of 64
 * are addressable. Elements are not initialized. Not copyable; movable.
 * @throws std::bad_alloc when the allocation fails.
 *
 * Plain malloc, aligned by hand, rather than aligned_alloc: glibc 2.36's
 * memalign walks its free bins for an aligned chunk, and after a config parse
 * had freed many small nodes the eight population buffers' aligned_alloc cost
 * 0.65 us of an engine's set-up at N = 50 (docs/performance.md, 2026-12-06).
 */
template <class T>
class aligned_buffer {
 public:
  aligned_buffer() = default;
  explicit aligned_buffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    raw_.reset(std::malloc(bytes + 63));
    if (!raw_) throw std::bad_alloc();
    data_ = reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(raw_.get()) + 63) & ~std::uintptr_t(63));
  }
  aligned_buffer(aligned_buffer&& o) noexcept
      : raw_(std::move(o.raw_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  aligned_buffer& operator=(aligned_buffer&& o) noexcept {
    raw_ = std::move(o.raw_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    return *this;
  }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  std::unique_ptr<void, free_deleter> raw_;  // what malloc returned; data_ is its first 64-byte boundary
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fusedga::detail
