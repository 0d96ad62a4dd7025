#include "expr/lexer.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <system_error>

namespace fusedga::expr::parsing {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

/// Length of the longest prefix of `s` that is a number, `digits[.digits][(e|E)[+|-]digits]`
/// or `.digits[...]` with a digit in the mantissa (0 if none). Linear, so long garbage is cheap.
std::size_t number_prefix(std::string_view s) {
  std::size_t k = 0, mantissa_digits = 0;
  while (k < s.size() && is_digit(s[k])) ++k, ++mantissa_digits;
  if (k < s.size() && s[k] == '.') {
    ++k;
    while (k < s.size() && is_digit(s[k])) ++k, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return 0;
  if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
    std::size_t e = k + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    const std::size_t exponent_start = e;
    while (e < s.size() && is_digit(s[e])) ++e;
    if (e > exponent_start) k = e;
  }
  return k;
}

bool is_number_syntax(std::string_view s) { return !s.empty() && number_prefix(s) == s.size(); }

/// The code point of the UTF-8 sequence at `s[k]` as "U+XXXX", or the raw byte when it is not valid UTF-8.
std::string non_ascii_name(std::string_view s, std::size_t k) {
  const auto b0 = static_cast<unsigned char>(s[k]);
  const int length = (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : (b0 & 0xF8) == 0xF0 ? 4 : 0;
  if (length == 0 || k + static_cast<std::size_t>(length) > s.size()) return fmt::format("byte 0x{:02X}", b0);
  unsigned code = b0 & (0x7Fu >> length);
  for (int j = 1; j < length; ++j) {
    const auto b = static_cast<unsigned char>(s[k + static_cast<std::size_t>(j)]);
    if ((b & 0xC0) != 0x80) return fmt::format("byte 0x{:02X}", b0);
    code = (code << 6) | (b & 0x3Fu);
  }
  return fmt::format("U+{:04X}", code);
}

class lexer {
 public:
  lexer(std::string_view text, location start, const std::vector<location>* positions, const origin& from)
      : text_(text),
        from_(from),
        positions_(positions && positions->size() == text.size() + 1 ? positions : nullptr),
        line_(start.line > 0 ? start.line : 1),
        column_(start.line > 0 ? start.column : 1) {}

  std::vector<token> run() {
    std::vector<token> out;
    for (;;) {
      skip_space();
      token t;
      t.where = positions_ ? (*positions_)[pos_] : location{line_, column_};
      if (pos_ == text_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = text_[pos_];
      if (is_digit(c) || c == '.')
        t = number(t.where);
      else if (is_name_start(c))
        t = word(token_kind::name, span_while(is_name_char), t.where);
      else
        t = punctuation(t.where);
      out.push_back(t);
    }
  }

 private:
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++column_;
      } else {
        return;
      }
      ++pos_;
    }
  }

  template <class Pred>
  std::size_t span_while(Pred pred) const {
    std::size_t n = 0;
    while (pos_ + n < text_.size() && pred(text_[pos_ + n])) ++n;
    return n;
  }

  token word(token_kind kind, std::size_t length, location where) {
    token t;
    t.kind = kind;
    t.text = text_.substr(pos_, length);
    t.where = where;
    pos_ += length;
    column_ += static_cast<int>(length);
    return t;
  }

  /// A number, read as the longest run that could belong to one (letters,
  /// digits, dots, a sign right after an exponent letter), so that `1.2.3`,
  /// `1e`, `0x1F` and `2x` are one malformed token rather than a confusing
  /// sequence of valid ones.
  token number(location where) {
    std::size_t n = 0;
    while (pos_ + n < text_.size()) {
      const char c = text_[pos_ + n];
      const bool sign_of_exponent = (c == '+' || c == '-') && n > 0 && (text_[pos_ + n - 1] == 'e' || text_[pos_ + n - 1] == 'E') &&
                                    pos_ + n + 1 < text_.size() && is_digit(text_[pos_ + n + 1]) &&
                                    number_prefix(text_.substr(pos_, n + 2)) == n + 2;
      if (!(is_name_char(c) || c == '.' || sign_of_exponent)) break;
      ++n;
    }
    const std::string_view s = text_.substr(pos_, n);
    if (s == ".") fail(from_, where, "unexpected '.'; expected a number such as 0.5");
    if (!is_number_syntax(s)) {
      std::string hint;
      const std::size_t valid = number_prefix(s);  // to suggest `2*x` for `2x`
      if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        hint = " (hexadecimal numbers are not supported)";
      else if (valid > 0 && valid < s.size() && is_name_start(s[valid]) && s[valid] != 'e' && s[valid] != 'E')
        hint = fmt::format(" (write {}*{} for a product)", s.substr(0, valid), s.substr(valid, 16));
      fail(from_, where,
           "malformed number " + quoted(s) + "; expected digits with an optional fraction and exponent, such as 2.5 or 1e-3" +
               hint);
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value))
      fail(from_, where, "number " + quoted(s) + " is outside the range of a double");
    token t = word(token_kind::number, n, where);
    t.value = value;
    return t;
  }

  token punctuation(location where) {
    const char c = text_[pos_];
    const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    switch (c) {
      case '+': return word(token_kind::plus, 1, where);
      case '-': return word(token_kind::minus, 1, where);
      case '*': return next == '*' ? word(token_kind::caret, 2, where) : word(token_kind::star, 1, where);
      case '/': return word(token_kind::slash, 1, where);
      case '^': return word(token_kind::caret, 1, where);
      case '(': return word(token_kind::lparen, 1, where);
      case ')': return word(token_kind::rparen, 1, where);
      case '[': return word(token_kind::lbracket, 1, where);
      case ']': return word(token_kind::rbracket, 1, where);
      case ',': return word(token_kind::comma, 1, where);
      case ':': return word(token_kind::colon, 1, where);
      case '<': return word(token_kind::less, next == '=' ? 2 : 1, where);
      case '>': return word(token_kind::greater, next == '=' ? 2 : 1, where);
      case '=': return next == '=' ? word(token_kind::equal, 2, where) : word(token_kind::assign, 1, where);
      case '!':
        if (next == '=') fail(from_, where, "'!=' is not supported; a constraint uses '<=', '>=' or '=='");
        break;
      default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) fail(from_, where, "unexpected non-ASCII character " + non_ascii_name(text_, pos_) + "; expressions are plain ASCII");
    if (u < 0x20 || u == 0x7f) fail(from_, where, fmt::format("unexpected control character 0x{:02X}", u));
    fail(from_, where, fmt::format("unexpected character '{}'; expected a number, a name, an operator (+ - * / ^) or a parenthesis", c));
  }

  std::string_view text_;
  const origin& from_;
  const std::vector<location>* positions_;  ///< null: count lines and columns from the start
  std::size_t pos_ = 0;
  int line_, column_;
};

}  // namespace

std::string describe(const token& t) {
  switch (t.kind) {
    case token_kind::number: return "number " + quoted(t.text);
    case token_kind::name: return "name " + quoted(t.text);
    case token_kind::end: return "end of text";
    default: return quoted(t.text);
  }
}

std::vector<token> lex(std::string_view text, location start, const origin& from) {
  return lexer(text, start, nullptr, from).run();
}

std::vector<token> lex(std::string_view text, location start, const std::vector<location>& positions,
                       const origin& from) {
  return lexer(text, start, &positions, from).run();
}

}  // namespace fusedga::expr::parsing
