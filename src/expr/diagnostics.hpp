#pragma once
/// @file diagnostics.hpp
/// Located error messages of the expression parser (internal to src/expr).
/// Every error is `file:line:col: key.path: message`, thrown as
/// `fusedga::expression_error`; user text appears only as the offending token,
/// quoted, shortened and with anything unprintable escaped.

#include <string>
#include <string_view>
#include <vector>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr::parsing {

/// Where a text comes from: the config file and the key of the text.
struct origin {
  std::string file;      ///< empty: shown as "<input>"; or the command-line argument that gave the text
  std::string key_path;  ///< e.g. "problem.constraints[1]"; empty: left out
  bool within_text = false;  ///< positions count from the text's first character, not a file's (`--set`)
};

/// A position for a message: `line:col`, or within the text `column C` (`line L, column C` past its first line).
std::string position(const origin& from, location at);

/// Throws expression_error `file:line:col: key.path: message`, or with `within_text`
/// `file: key.path: column C: message` (the position is left out when `at` is unknown, line 0).
[[noreturn]] void fail(const origin& from, location at, const std::string& message);

/// `'text'` for a message: at most 40 characters (then "..."), non-printable
/// bytes as \xNN, so no user text reaches a terminal unescaped.
std::string quoted(std::string_view text);

/// " (did you mean 'x'?)" for text::closest_name's candidate, else "".
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

/// "'a', 'b', ..., 'h' and 3 more, pi and e": the names an expression may use (at most 8 of `names` shown, quoted),
/// for an unknown name with no close match.
std::string name_list(const std::vector<std::string>& names);

}  // namespace fusedga::expr::parsing
