#pragma once
/// @file lexer.hpp
/// Tokens of the expression grammar with their file locations (internal to src/expr).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "expr/diagnostics.hpp"
#include "fusedga/expr/ast.hpp"

namespace fusedga::expr::parsing {

enum class token_kind : std::uint8_t {
  number,    ///< decimal or scientific literal, `value` set
  name,      ///< [A-Za-z_][A-Za-z0-9_]*
  plus,      ///< +
  minus,     ///< -
  star,      ///< *
  slash,     ///< /
  caret,     ///< ^ or **
  lparen,    ///< (
  rparen,    ///< )
  lbracket,  ///< [
  rbracket,  ///< ]
  comma,     ///< ,
  colon,     ///< :
  assign,    ///< = (only in reductions: sum(i=0:4, ...))
  less,      ///< <= or <
  greater,   ///< >= or >
  equal,     ///< ==
  end,       ///< end of the text
};

struct token {
  token_kind kind = token_kind::end;
  std::string_view text;  ///< as written (points into the source text)
  location where;
  double value = 0;  ///< number
};

/// Whether `t` is one of <=, <, >=, >, ==.
inline bool is_comparison(const token& t) {
  return t.kind == token_kind::less || t.kind == token_kind::greater || t.kind == token_kind::equal;
}

/// "'('", "number '2.5'", "name 'foo'" or "end of text", for messages.
std::string describe(const token& t);

/**
 * Splits `text` into tokens ending with one `end` token. `start` is where the
 * text's first character is in the file (line 0: unknown, then positions count
 * from 1:1 within the text); a newline in the text advances the line and
 * restarts columns at 1, as in a YAML multi-line scalar.
 *
 * Numbers are `digits[.digits][(e|E)[+|-]digits]` or `.digits[...]`, finite in
 * double. Whitespace is space, tab, CR and LF.
 * @throws expression_error at the first malformed number (`1e`, `1.2.3`,
 *   `0x1F`, `2x`, out of double's range), `!=`, a character outside the
 *   grammar, a control character or a non-ASCII character.
 */
std::vector<token> lex(std::string_view text, location start, const origin& from);

/// `lex` with the file position of every byte of `text` given (`positions`:
/// text.size() + 1 entries, the last for the end of the text), as for YAML
/// folded and block scalars; other sizes fall back to counting from `start`.
std::vector<token> lex(std::string_view text, location start, const std::vector<location>& positions,
                       const origin& from);

}  // namespace fusedga::expr::parsing
