#include "config/yaml_helpers.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <sstream>

#include "fusedga/core/error.hpp"
#include "text/closest_name.hpp"

namespace fusedga::detail {

namespace {

constexpr std::size_t max_shown_chars = 60;  // longer scalars are shortened in "got ..."

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t skip_digits(const std::string& s, std::size_t i) {
  while (i < s.size() && is_digit(s[i])) ++i;
  return i;
}

/// True when `s` matches the YAML 1.2 core-schema float/int grammar (without inf/nan).
bool is_decimal_number(const std::string& s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const std::size_t int_begin = i;
  i = skip_digits(s, i);
  bool digits = i > int_begin;
  if (i < s.size() && s[i] == '.') {
    const std::size_t frac_begin = ++i;
    i = skip_digits(s, i);
    digits = digits || i > frac_begin;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exp_begin = i;
    i = skip_digits(s, i);
    if (i == exp_begin) return false;
  }
  return i == s.size();
}

/// A plain scalar: neither quoted nor explicitly tagged as a string.
bool is_plain_scalar(const YAML::Node& n) { return n.IsScalar() && n.Tag() == "?"; }

std::string trim(const std::string& s) {
  const std::size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

}  // namespace

// ---------------------------------------------------------------- config_source

const std::string* config_source::override_for(const std::string& path) const {
  const std::string* override_text = nullptr;
  std::size_t longest = 0;
  for (const auto& [prefix, text] : overrides_) {
    const bool covers = path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                                           (path[prefix.size()] == '.' || path[prefix.size()] == '['));
    if (covers && prefix.size() >= longest) {
      longest = prefix.size();
      override_text = &text;
    }
  }
  return override_text;
}

std::string config_source::where(const std::string& path, const YAML::Mark& mark) const {
  if (const std::string* override_text = override_for(path)) return "--set " + *override_text + ": ";
  if (mark.is_null()) return file_ + ": ";
  return fmt::format("{}:{}:{}: ", file_, mark.line + 1, mark.column + 1);
}

void config_source::fail(const std::string& path, const YAML::Mark& mark, const std::string& message) const {
  throw config_error(where(path, mark) + (path.empty() ? "" : path + ": ") + message);
}

// ---------------------------------------------------------------- text helpers

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Scalar:
      break;
  }
  std::string text = node.Scalar();
  if (text.size() > max_shown_chars) text = text.substr(0, max_shown_chars) + "...";
  return is_plain_scalar(node) ? text : "\"" + text + "\"";
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string did_you_mean(const std::string& given, const std::vector<std::string>& choices) {
  const std::string* best = text::closest_name(given, choices);
  return best ? "; did you mean " + *best + "?" : "";
}

std::string number_text(double v) {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

// ---------------------------------------------------------------- located, yaml_map

bool located::is_word(const char* word) const { return node_.IsScalar() && node_.Scalar() == word; }

namespace {
/// Where 0-based line `line` of `text` begins, or npos past its last line.
std::size_t line_begin(const std::string& text, int line) {
  std::size_t pos = 0;
  for (int l = 0; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return pos;
    ++pos;
  }
  return pos;
}

/// True when the plain scalar `key` is not followed by ':' in `text` (a bare word yaml-cpp took as a null-valued key).
bool bare_key(const YAML::Node& key, const std::string& text) {
  if (text.empty() || key.Mark().is_null() || key.Tag() != "?") return false;
  std::size_t pos = line_begin(text, key.Mark().line);
  if (pos == std::string::npos) return false;
  pos += static_cast<std::size_t>(key.Mark().column);
  if (text.compare(pos, key.Scalar().size(), key.Scalar()) != 0) return false;  // not where we expect: don't guess
  pos += key.Scalar().size();
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  return pos >= text.size() || text[pos] != ':';
}
}  // namespace

yaml_map::yaml_map(const located& node, const std::vector<std::string>& allowed_hint) : self_(node) {
  if (node.is_null()) return;
  if (!node.node().IsMap()) node.expected("a map (keys: " + join(allowed_hint) + ")");
  for (auto it = node.node().begin(); it != node.node().end(); ++it) {
    const YAML::Node key = it->first;  // copies: the iterator dereferences to a temporary
    const YAML::Node value = it->second;
    if (!key.IsScalar())
      located(key, node.path(), key.Mark(), node.source()).expected("a key name (one of: " + join(allowed_hint) + ")");
    const std::string name = key.Scalar();
    const std::string path = node.child_path(name);
    if (const entry* first = find(name)) {
      // Both keys are in the file: blame the file, even when a --set override also gives this key.
      const std::string at = key.Mark().is_null() ? node.source().file() + ": "
                                                  : fmt::format("{}:{}:{}: ", node.source().file(), key.Mark().line + 1,
                                                                key.Mark().column + 1);
      throw config_error(at + path + ": " +
                         (first->key_mark.is_null() ? std::string("duplicate key")
                                                    : fmt::format("duplicate key (first at line {}, column {})",
                                                                  first->key_mark.line + 1, first->key_mark.column + 1)));
    }
    if (value.IsNull() && bare_key(key, node.source().text()))
      node.source().fail(path, key.Mark(), "a bare word without ':'; expected '" + name + ": VALUE'");
    // A null value ("population:" with nothing after it) is reported at its key.
    const YAML::Mark mark = value.IsNull() ? key.Mark() : value.Mark();
    entries_.push_back(entry{name, key.Mark(), located(value, path, mark, node.source())});
  }
}

const yaml_map::entry* yaml_map::find(const std::string& key) const {
  for (const auto& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

std::optional<located> yaml_map::get(const std::string& key) const {
  if (const entry* e = find(key)) return e->value;
  return std::nullopt;
}

std::vector<std::string> yaml_map::keys() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.key);
  return out;
}

void yaml_map::check_keys(const std::vector<std::string>& allowed, const std::string& noun) const {
  for (const auto& e : entries_)
    if (std::find(allowed.begin(), allowed.end(), e.key) == allowed.end())
      fail_at_key(e.key,
                  "unknown " + noun + ", expected one of (" + join(allowed) + ")" + did_you_mean(e.key, allowed));
}

void yaml_map::fail_at_key(const std::string& key, const std::string& message) const {
  const entry* e = find(key);
  self_.source().fail(self_.child_path(key), e ? e->key_mark : self_.mark(), message);
}

// ---------------------------------------------------------------- numbers

std::string number_range::text() const {
  const char* noun = integer ? "an integer" : "a number";
  const bool has_lo = std::isfinite(lo);
  const bool has_hi = std::isfinite(hi) && !hi_implicit;
  if (has_lo && has_hi)
    return fmt::format("{} in {}{}, {}]", noun, lo_open ? "(" : "[", number_text(lo), number_text(hi));
  if (has_lo) return fmt::format("{} {} {}", noun, lo_open ? ">" : ">=", number_text(lo));
  if (has_hi) return fmt::format("{} <= {}", noun, number_text(hi));
  return integer ? "an integer" : "a finite number";
}

bool number_range::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (integer && std::floor(v) != v) return false;
  return (lo_open ? v > lo : v >= lo) && v <= hi;
}

number_range integer_in(double lo, double hi) { return {lo, hi, true, false, false}; }
number_range integer_at_least(double lo) { return {lo, double(INT_MAX), true, false, true}; }
number_range number_in(double lo, double hi) { return {lo, hi, false, false, false}; }
number_range number_at_least(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false, false}; }
number_range number_above(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, true, false}; }
number_range any_number() { return {}; }

std::optional<double> parse_number(const located& v) {
  if (!is_plain_scalar(v.node())) return std::nullopt;
  const std::string& s = v.node().Scalar();
  const bool negative = !s.empty() && s[0] == '-';
  const std::string unsigned_part = !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(1) : s;
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF")
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return std::numeric_limits<double>::quiet_NaN();
  if (!is_decimal_number(s)) return std::nullopt;
  const char* begin = s.data() + (s[0] == '+' ? 1 : 0);  // from_chars takes '-' but not '+'
  double value = 0;
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
  // Beyond the range of double (1e999, 1e-999): not a usable number, reported as such.
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

double read_number(const located& v, const number_range& range, const std::string& expect) {
  const std::optional<double> value = parse_number(v);
  if (value && range.contains(*value)) return *value;
  std::string wording = expect.empty() ? range.text() : expect;
  if (value && range.hi_implicit && *value > range.hi) wording += " (at most " + number_text(range.hi) + ")";
  v.expected(wording);
}

long long read_int(const located& v, const number_range& range, const std::string& expect) {
  return static_cast<long long>(read_number(v, range, expect));
}

std::uint64_t read_uint64(const located& v) {
  const char* expect = "an integer in [0, 18446744073709551615]";
  if (!is_plain_scalar(v.node())) v.expected(expect);
  const std::string& s = v.node().Scalar();
  const char* begin = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
  if (begin == s.data() + s.size() || ec != std::errc() || end != s.data() + s.size()) v.expected(expect);
  return value;
}

std::string read_string(const located& v, const std::string& expect) {
  if (!v.node().IsScalar() || v.node().Scalar().empty()) v.expected(expect);
  return v.node().Scalar();
}

// ---------------------------------------------------------------- documents and overrides

namespace {

/// A YAML event handler that keeps only where its document starts: its root node, else its first token
/// (load_document counts documents with it).
struct document_start : YAML::EventHandler {
  YAML::Mark mark = YAML::Mark::null_mark();
  bool root_seen = false;
  void node(const YAML::Mark& m) {
    if (!root_seen) mark = m;
    root_seen = true;
  }
  void OnDocumentStart(const YAML::Mark& m) override { mark = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}
};

YAML::Mark mark_at(std::size_t pos, int line, int column) {
  YAML::Mark m;
  m.pos = static_cast<int>(pos);
  m.line = line;
  m.column = column;
  return m;
}

/// Text yaml-cpp 0.7 must not see: a NUL byte (binary data), and a ',' as the first token of a document, on which
/// `YAML::LoadAll` loops forever, allocating (its parser returns a document without consuming the token).
void reject_unparsable(const std::string& text, const config_source& source) {
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
    const std::size_t line_start = text.rfind('\n', nul) == std::string::npos ? 0 : text.rfind('\n', nul) + 1;
    source.fail("", mark_at(nul, line, static_cast<int>(nul - line_start)),
                "binary data (a NUL byte); expected a YAML text file");
  }
  bool document_start = true;  // until the first token of the current document
  int line = 0;
  for (std::size_t begin = 0; begin < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::size_t col = begin;
    const bool marker =
        end - begin >= 3 && (text.compare(begin, 3, "---") == 0 || text.compare(begin, 3, "...") == 0) &&
        (end - begin == 3 || text[begin + 3] == ' ' || text[begin + 3] == '\t' || text[begin + 3] == '\r');
    if (marker) {
      document_start = true;
      col = begin + 3;
    }
    if (document_start && !(col < end && text[col] == '%')) {  // directives come before a document's content
      while (col < end && (text[col] == ' ' || text[col] == '\t' || text[col] == '\r')) ++col;
      if (col < end && text[col] != '#') {
        if (text[col] == ',')
          source.fail("", mark_at(col, line, static_cast<int>(col - begin)),
                      "invalid YAML: ',' outside a flow collection ([...] or {...})");
        document_start = false;
      }
    }
    begin = end + 1;
  }
}

}  // namespace

YAML::Node load_document(const std::string& text, const config_source& source) {
  reject_unparsable(text, source);
  try {
    YAML::Node root = YAML::Load(text);  // the first document only
    // Then whether a second one starts, parsing at most two: yaml-cpp 0.7's LoadAll loops forever, allocating,
    // on a ',' it cannot consume after a document ("|\n-\n, y" from the config fuzzer), as on one that starts it.
    std::istringstream in(text);
    YAML::Parser parser(in);
    document_start first, second;
    if (parser.HandleNextDocument(first) && parser.HandleNextDocument(second))
      source.fail("", second.mark, "invalid YAML: expected a single document, got a second one");
    return root;
  } catch (const YAML::Exception& e) {
    // yaml-cpp names a tab in the indentation as something else ("illegal map value"): say what it is.
    std::string hint;
    const std::size_t begin = e.mark.is_null() ? std::string::npos : line_begin(text, e.mark.line);
    if (begin != std::string::npos) {
      const std::size_t indent = text.find_first_not_of(" \t", begin);
      if (text.find('\t', begin) < std::min(indent, text.size()))
        hint = " (line " + std::to_string(e.mark.line + 1) + " is indented with a tab; YAML indents with spaces only)";
    }
    source.fail("", e.mark, "invalid YAML: " + e.msg + hint);
  }
}

void apply_override(YAML::Node& root, const std::string& text, config_source& source) {
  const auto malformed = [&] { throw config_error("--set '" + text + "': expected key.path=value"); };
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) malformed();
  const std::string path = trim(text.substr(0, eq));
  std::vector<std::string> keys;
  for (std::size_t begin = 0;;) {
    const std::size_t dot = path.find('.', begin);
    keys.push_back(path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin));
    if (keys.back().empty()) malformed();
    if (const std::size_t bracket = keys.back().find('['); bracket != std::string::npos) {
      const std::string list = path.substr(0, begin + bracket);
      throw config_error("--set '" + text + "': " + list + ": --set replaces a list whole, not one entry: give " +
                         list + "=[...] with every entry");
    }
    if (dot == std::string::npos) break;
    begin = dot + 1;
  }

  YAML::Node value;
  try {
    value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    source.mark_overridden(path, text);
    source.fail(path, YAML::Mark::null_mark(),
                "expected a YAML value, got " + text.substr(eq + 1) + " (" + e.msg + ")");
  }

  // Walk with reset(): assigning one Node to another would overwrite the target's content (yaml-cpp semantics).
  YAML::Node current;
  current.reset(root);
  std::string walked;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    walked += (i ? "." : "") + keys[i];
    YAML::Node next = current[keys[i]];
    if (!next.IsDefined() || next.IsNull()) {
      current[keys[i]] = YAML::Node(YAML::NodeType::Map);
      next.reset(current[keys[i]]);
      source.mark_overridden(walked, text);
    } else if (!next.IsMap()) {
      source.mark_overridden(walked, text);
      source.fail(walked, YAML::Mark::null_mark(), "expected a map, got " + describe(next));
    }
    current.reset(next);
  }
  current[keys.back()] = value;
  source.mark_overridden(path, text);
}

}  // namespace fusedga::detail
