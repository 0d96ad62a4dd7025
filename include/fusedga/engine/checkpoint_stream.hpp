#pragma once
/// @file checkpoint_stream.hpp
/// The checkpoint file format's framing: a magic line, then named records
/// (name, element size, count, bytes), then a checksum of everything before
/// it. Each record names what it holds, so a reader that meets another record
/// than it expects says which one; the engine and solve (checkpoint.hpp)
/// decide which records a checkpoint holds.
///
/// Layout (little-endian hosts only; the first record says so):
///   "FUSEDGA-CHECKPOINT\n"
///   repeated: u16 name length, name, u16 element size, u64 count, count·size bytes
///   "END\n", u64 FNV-1a 64 of every byte before "END\n"
/// Not thread-safe (one writer or reader per stream).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <istream>
#include <iterator>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"

namespace fusedga::detail {

inline constexpr std::string_view checkpoint_magic = "FUSEDGA-CHECKPOINT\n";
inline constexpr std::string_view checkpoint_end = "END\n";

/// FNV-1a, 64 bits (Fowler, Noll & Vo): detects corruption, not tampering.
struct fnv1a64 {
  std::uint64_t value = 0xcbf29ce484222325ull;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) value = (value ^ p[i]) * 0x100000001b3ull;
  }
};

/// Writes named records to a stream, hashing every byte; `finish()` appends the checksum.
class checkpoint_writer {
 public:
  explicit checkpoint_writer(std::ostream& out) : out_(out) { raw(checkpoint_magic.data(), checkpoint_magic.size()); }

  /// `n` trivially copyable values of type T from `p`.
  template <class T>
  void array(std::string_view name, const T* p, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    record(name, sizeof(T), n);
    raw(p, n * sizeof(T));
  }
  template <class T>
  void value(std::string_view name, const T& v) {
    array(name, &v, 1);
  }
  template <class T>
  void vector(std::string_view name, const std::vector<T>& v) {
    array(name, v.data(), v.size());
  }
  void text(std::string_view name, std::string_view s) { array(name, s.data(), s.size()); }

  /// Appends "END\n" and the checksum, and flushes. @throws checkpoint_error when the stream failed.
  void finish() {
    const std::uint64_t sum = hash_.value;
    out_.write(checkpoint_end.data(), static_cast<std::streamsize>(checkpoint_end.size()));
    out_.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    out_.flush();
    if (!out_) throw checkpoint_error("checkpoint: writing the checkpoint stream failed");
  }

 private:
  void record(std::string_view name, std::size_t size, std::size_t n) {
    const auto len = static_cast<std::uint16_t>(name.size());
    const auto sz = static_cast<std::uint16_t>(size);
    const auto count = static_cast<std::uint64_t>(n);
    raw(&len, sizeof len);
    raw(name.data(), name.size());
    raw(&sz, sizeof sz);
    raw(&count, sizeof count);
  }
  void raw(const void* p, std::size_t n) {
    hash_.add(p, n);
    out_.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
  }

  std::ostream& out_;
  fnv1a64 hash_;
};

/**
 * Reads a whole checkpoint into memory and verifies magic and checksum before
 * anything is parsed, so a corrupt file is rejected before any state changes.
 * Then hands out records in order, each checked for its name, element size and count.
 * @throws checkpoint_error naming `source` and what is wrong.
 */
class checkpoint_reader {
 public:
  checkpoint_reader(std::istream& in, std::string source) : source_(std::move(source)) {
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const std::size_t trailer = checkpoint_end.size() + sizeof(std::uint64_t);
    if (bytes_.size() < checkpoint_magic.size() ||
        std::string_view(bytes_.data(), checkpoint_magic.size()) != checkpoint_magic)
      fail("not a FusedGA checkpoint (no \"FUSEDGA-CHECKPOINT\" magic)");
    if (bytes_.size() < checkpoint_magic.size() + trailer ||
        std::string_view(bytes_.data() + bytes_.size() - trailer, checkpoint_end.size()) != checkpoint_end)
      fail("truncated (no end record): the file was cut short");
    std::uint64_t stored = 0;
    std::memcpy(&stored, bytes_.data() + bytes_.size() - sizeof stored, sizeof stored);
    fnv1a64 h;
    h.add(bytes_.data(), bytes_.size() - trailer);
    if (h.value != stored) fail("corrupt: its checksum does not match its contents");
    end_ = bytes_.size() - trailer;
    pos_ = checkpoint_magic.size();
  }

  const std::string& source() const { return source_; }

  /// Reads record `name` of exactly `n` values into `p`.
  template <class T>
  void array(std::string_view name, T* p, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t count = record(name, sizeof(T));
    if (count != n)
      fail("record '" + std::string(name) + "' holds " + std::to_string(count) + " values where " +
           std::to_string(n) + " were expected");
    take(p, n * sizeof(T));
  }
  template <class T>
  T value(std::string_view name) {
    T v{};
    array(name, &v, 1);
    return v;
  }
  /// Reads record `name` whatever its count (at most `max_count` values).
  template <class T>
  std::vector<T> vector(std::string_view name, std::size_t max_count = std::size_t(-1)) {
    const std::size_t count = record(name, sizeof(T));
    if (count > max_count || count > (end_ - pos_) / sizeof(T))
      fail("record '" + std::string(name) + "' is too long (" + std::to_string(count) + " values)");
    std::vector<T> v(count);
    take(v.data(), count * sizeof(T));
    return v;
  }
  std::string text(std::string_view name) {
    const std::vector<char> v = vector<char>(name);
    return std::string(v.begin(), v.end());
  }
  /// Whether every record was read.
  bool at_end() const { return pos_ == end_; }

  [[noreturn]] void fail(const std::string& what) const { throw checkpoint_error(source_ + ": checkpoint " + what); }

 private:
  std::size_t record(std::string_view name, std::size_t size) {
    std::uint16_t len = 0, sz = 0;
    std::uint64_t count = 0;
    take(&len, sizeof len);
    if (len > end_ - pos_) fail("corrupt: a record name runs past the end");
    const std::string_view found(bytes_.data() + pos_, len);
    pos_ += len;
    if (found != name)
      fail("has record '" + std::string(found) + "' where '" + std::string(name) +
           "' was expected (another format version?)");
    take(&sz, sizeof sz);
    take(&count, sizeof count);
    if (sz != size)
      fail("record '" + std::string(name) + "' has " + std::to_string(sz) + "-byte values where " +
           std::to_string(size) + " were expected");
    if (count > (end_ - pos_) / (size ? size : 1)) fail("corrupt: record '" + std::string(name) + "' runs past the end");
    return static_cast<std::size_t>(count);
  }
  void take(void* p, std::size_t n) {
    if (n > end_ - pos_) fail("corrupt: it ends inside a record");
    if (n) std::memcpy(p, bytes_.data() + pos_, n);
    pos_ += n;
  }

  std::string source_;
  std::vector<char> bytes_;
  std::size_t pos_ = 0, end_ = 0;
};

}  // namespace fusedga::detail
