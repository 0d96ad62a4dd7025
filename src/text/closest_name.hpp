#pragma once
// The candidate a mistyped name most likely meant, for "did you mean" suggestions (config keys and choices,
// expression names). Private to the runtime library.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/edit_distance.hpp"

namespace fusedga::text {

/// The candidate equal to `name` but for ASCII case, else the first one fewest edits away: at most 1 edit for
/// names of 2–4 characters, 2 for longer ones, none for a single character (any one-letter name is one edit from
/// any other). nullptr when none is that close, and for names over 64 characters (not a typo of anything).
inline const std::string* closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  if (name.empty() || name.size() > 64) return nullptr;
  const auto same_but_case = [&](const std::string& c) {
    if (c.size() != name.size()) return false;
    for (std::size_t k = 0; k < c.size(); ++k) {
      const auto lower = [](char x) { return x >= 'A' && x <= 'Z' ? static_cast<char>(x - 'A' + 'a') : x; };
      if (lower(c[k]) != lower(name[k])) return false;
    }
    return true;
  };
  for (const std::string& c : candidates)
    if (same_but_case(c)) return &c;
  const std::size_t allowed = name.size() <= 1 ? 0 : name.size() <= 4 ? 1 : 2;
  const std::string* best = nullptr;
  std::size_t best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace fusedga::text
