#include "expr/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>

#include "fusedga/core/error.hpp"
#include "text/closest_name.hpp"

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
  const std::string* best = text::closest_name(name, candidates);
  return best ? " (did you mean '" + *best + "'?)" : "";
}

std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t max_shown = 8;
  std::string out;
  for (std::size_t k = 0; k < names.size() && k < max_shown; ++k) out += (k ? ", " : "") + quoted(names[k]);
  if (names.size() > max_shown) out += fmt::format(" and {} more", names.size() - max_shown);
  if (!names.empty()) out += ", ";
  return out + "pi and e";
}

}  // namespace fusedga::expr::parsing
