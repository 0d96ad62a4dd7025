#include "expr/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>

#include "fusedga/core/error.hpp"
#include "text/edit_distance.hpp"

namespace fusedga::expr::parsing {

std::string position(const origin& from, location at) {
  if (!from.within_text) return fmt::format("{}:{}", at.line, at.column);
  return at.line == 1 ? fmt::format("column {}", at.column) : fmt::format("line {}, column {}", at.line, at.column);
}

void fail(const origin& from, location at, const std::string& message) {
  std::string out = from.file.empty() ? "<input>" : from.file;
  if (at.line > 0 && !from.within_text) out += ":" + position(from, at);
  out += ": ";
  if (!from.key_path.empty()) out += from.key_path + ": ";
  if (at.line > 0 && from.within_text) out += position(from, at) + ": ";
  throw expression_error(out + message);
}

std::string quoted(std::string_view text) {
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  for (std::size_t k = 0; k < text.size() && k < max_shown; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02X}", c);
  }
  if (text.size() > max_shown) out += "...";
  return out + "'";
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  // Names are short; a long garbage token is not a typo of anything.
  if (name.size() > 64) return "";
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  };
  for (const std::string& c : candidates)
    if (lower(c) == lower(name)) return " (did you mean '" + c + "'?)";
  // Any one-letter name is one edit from any other: only longer names get a
  // suggestion, one edit away for short names and two for longer ones.
  const std::size_t allowed = name.size() <= 1 ? 0 : name.size() <= 4 ? 1 : 2;
  const std::string* best = nullptr;
  std::size_t best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = text::edit_distance(name, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

}  // namespace fusedga::expr::parsing
