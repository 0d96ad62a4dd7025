#pragma once
/// @file scalar_positions.hpp
/// Where each byte of a YAML scalar's value sits in the config file. yaml-cpp
/// keeps only the position of a scalar's first token; folded (`>`), literal
/// (`|`), multi-line plain and multi-line quoted scalars drop indentation,
/// fold line breaks and decode escapes, so counting from that position puts
/// every later line's errors in the wrong place (issue 16, item 6).
/// Internal to fusedga_runtime.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "fusedga/expr/ast.hpp"

namespace fusedga::detail {

/**
 * The 1-based file line/column of every byte of `value`, plus one entry for
 * the end of the value (value.size() + 1 entries), found by walking the raw
 * scalar in `file_text` from `mark` (yaml-cpp's mark of the scalar node: its
 * quote, its `|`/`>` indicator, or its first character) alongside `value`.
 * Folded line breaks and indentation are skipped; a double-quoted escape maps
 * to its backslash, a single-quoted `''` to its first quote. Whitespace of the
 * value maps to the next raw position (messages point at tokens, not spaces).
 *
 * O(length of the raw scalar). Never throws.
 * @return the positions, or empty when they cannot be found (null mark, no
 *         file text, or the raw text does not match `value`): callers then
 *         count from the scalar's start as before.
 */
std::vector<expr::location> scalar_positions(const std::string& file_text, const YAML::Mark& mark,
                                             const std::string& value);

}  // namespace fusedga::detail
