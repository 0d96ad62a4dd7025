#pragma once
/// @file utf8.hpp
/// Whether text is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). Names that
/// end up in JSON output are checked with it where they are read, so a run never fails writing its result.

#include <cstddef>
#include <string_view>

namespace fusedga::detail {

inline bool valid_utf8(std::string_view s) {
  for (std::size_t k = 0; k < s.size();) {
    const auto c = static_cast<unsigned char>(s[k]);
    std::size_t n = 0;
    unsigned cp = 0, min = 0;
    if (c < 0x80) {
      ++k;
      continue;
    }
    if ((c & 0xE0) == 0xC0)
      n = 1, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
      n = 2, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
      n = 3, cp = c & 0x07, min = 0x10000;
    else
      return false;
    for (std::size_t j = 1; j <= n; ++j) {
      if (k + j >= s.size()) return false;
      const auto b = static_cast<unsigned char>(s[k + j]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    k += n + 1;
  }
  return true;
}

}  // namespace fusedga::detail
