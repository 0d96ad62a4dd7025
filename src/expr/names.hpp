#pragma once
/// @file names.hpp
/// The built-in names of the expression grammar: functions, reductions and
/// the constants pi and e (internal to src/expr). All are reserved: no
/// variable, constant or index variable may use them.

#include <array>
#include <optional>
#include <string_view>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr::parsing {

/// A callable name: a `function`, or `pow` (parsed into node_kind::power).
struct function_info {
  std::string_view name;
  function fn;
  int arity;
  bool is_pow = false;
};

inline constexpr std::array<function_info, 17> functions = {{
    {"sin", function::sin, 1},     {"cos", function::cos, 1},   {"tan", function::tan, 1},     {"asin", function::asin, 1},
    {"acos", function::acos, 1},   {"atan", function::atan, 1}, {"exp", function::exp, 1},     {"log", function::log, 1},
    {"log10", function::log10, 1}, {"sqrt", function::sqrt, 1}, {"abs", function::abs, 1},     {"floor", function::floor, 1},
    {"ceil", function::ceil, 1},   {"min", function::min, 2},   {"max", function::max, 2},     {"atan2", function::atan2, 2},
    {"pow", function::sin, 2, true},
}};

struct reduction_info {
  std::string_view name;
  reduction red;
};

inline constexpr std::array<reduction_info, 4> reductions = {{
    {"sum", reduction::sum}, {"prod", reduction::prod}, {"min", reduction::min}, {"max", reduction::max}}};

inline const function_info* find_function(std::string_view name) {
  for (const function_info& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

inline std::optional<reduction> find_reduction(std::string_view name) {
  for (const reduction_info& r : reductions)
    if (r.name == name) return r.red;
  return std::nullopt;
}

inline std::string_view name_of(function fn) {
  for (const function_info& f : functions)
    if (!f.is_pow && f.fn == fn) return f.name;
  return "?";
}

inline std::string_view name_of(reduction red) {
  for (const reduction_info& r : reductions)
    if (r.red == red) return r.name;
  return "?";
}

/// Why `name` cannot be declared ("a function", "a reduction", "a built-in
/// constant"), or nullptr when it is free.
inline const char* reserved_as(std::string_view name) {
  if (find_reduction(name)) return "a reduction";  // before functions: min and max are both
  if (find_function(name)) return "a function";
  if (name == "pi" || name == "e") return "a built-in constant";
  return nullptr;
}

/// Whether `name` matches [A-Za-z_][A-Za-z0-9_]*.
inline bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t k = 0; k < name.size(); ++k) {
    const char c = name[k];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!(letter || (k > 0 && c >= '0' && c <= '9'))) return false;
  }
  return true;
}

}  // namespace fusedga::expr::parsing
