#include "config/scalar_positions.hpp"

#include <cstddef>

namespace fusedga::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_break(char c) { return c == '\r' || c == '\n'; }

/// A cursor over the raw file text that keeps its 1-based line and column.
struct cursor {
  const std::string& text;
  std::size_t i = 0;
  expr::location at;

  bool done() const { return i >= text.size(); }
  char peek(std::size_t ahead = 0) const { return i + ahead < text.size() ? text[i + ahead] : '\0'; }
  void advance(std::size_t n = 1) {
    for (; n > 0 && i < text.size(); --n, ++i) {
      if (text[i] == '\n') {
        ++at.line;
        at.column = 1;
      } else {
        ++at.column;
      }
    }
  }
};

/// Length of a double-quoted escape starting at the backslash: `\x41` is 4, `\u00e9` is 6, `\n` is 2.
std::size_t escape_length(char kind) { return kind == 'x' ? 4 : kind == 'u' ? 6 : kind == 'U' ? 10 : 2; }

}  // namespace

std::vector<expr::location> scalar_positions(const std::string& file_text, const YAML::Mark& mark,
                                             const std::string& value) {
  if (mark.is_null() || mark.line < 0 || mark.column < 0 || file_text.empty()) return {};
  // The mark's line and column (0-based) locate the scalar; its byte offset is found by counting lines.
  cursor raw{file_text, 0, {1, 1}};
  while (!raw.done() && raw.at.line < mark.line + 1) raw.advance();
  if (raw.at.line != mark.line + 1) return {};
  for (int c = 0; c < mark.column; ++c) {
    if (raw.done() || raw.peek() == '\n') return {};
    raw.advance();
  }
  const char style = raw.peek();
  const bool double_quoted = style == '"';
  const bool single_quoted = style == '\'';
  if (double_quoted || single_quoted) {
    raw.advance();
  } else if (style == '|' || style == '>') {  // the header line (indicators, a comment) holds no value text
    while (!raw.done() && raw.peek() != '\n') raw.advance();
    raw.advance();
  }

  std::vector<expr::location> out(value.size() + 1);
  for (std::size_t k = 0; k < value.size(); ++k) {
    const char v = value[k];
    if (is_blank(v)) {  // kept or folded whitespace: consume the raw one when it is the same
      out[k] = raw.at;
      if (raw.peek() == v)
        raw.advance();
      else if (double_quoted && raw.peek() == '\\' && !is_break(raw.peek(1)))
        raw.advance(escape_length(raw.peek(1)));
      continue;
    }
    if ((static_cast<unsigned char>(v) & 0xC0) == 0x80 && k > 0 && out[k - 1].line > 0) {
      out[k] = out[k - 1];  // a UTF-8 continuation byte: where its sequence starts (an escape may have made it)
      if (raw.peek() == v) raw.advance();
      continue;
    }
    // Skip what folding removed: line breaks, indentation, and a double-quoted escaped line break.
    for (;;) {
      if (is_blank(raw.peek()))
        raw.advance();
      else if (double_quoted && raw.peek() == '\\' && is_break(raw.peek(1)))
        raw.advance(2);
      else
        break;
    }
    if (raw.done()) return {};
    out[k] = raw.at;
    if (raw.peek() == v) {
      raw.advance(single_quoted && v == '\'' && raw.peek(1) == '\'' ? 2 : 1);
    } else if (double_quoted && raw.peek() == '\\') {
      raw.advance(escape_length(raw.peek(1)));
    } else {
      return {};  // not the text yaml-cpp read from here: no positions rather than wrong ones
    }
  }
  // The end of the text is just past its last non-blank byte (not on the line after a block scalar's break).
  out[value.size()] = raw.at;
  for (std::size_t k = value.size(); k-- > 0;)
    if (!is_blank(value[k])) {
      out[value.size()] = {out[k].line, out[k].column + 1};
      break;
    }
  return out;
}

}  // namespace fusedga::detail
