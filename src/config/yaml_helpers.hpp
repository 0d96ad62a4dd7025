#pragma once
/// @file yaml_helpers.hpp
/// Building blocks for reading YAML configs with located errors (DESIGN.md,
/// "YAML config"): every value carries its key path and where it came from
/// (a file position or a `--set` override), and every reader throws
/// `config_error` as `file:line:col: key.path: expected ..., got ...`.
/// Internal to fusedga_runtime; yaml-cpp never appears in public headers.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fusedga::detail {

/// Where config values come from: the file name, and the key paths that `--set` overrides replaced or created.
class config_source {
 public:
  /// @param text  the config's text, when known: lets readers look at what yaml-cpp does not keep (a key's ':')
  explicit config_source(std::string file, std::string text = "") : file_(std::move(file)), text_(std::move(text)) {}

  const std::string& file() const { return file_; }
  const std::string& text() const { return text_; }

  /// Records that the value at `path`, and everything under it, came from the override `text` (`a.b=value`).
  void mark_overridden(const std::string& path, const std::string& text) { overrides_[path] = text; }

  /**
   * The message prefix for a value at `path`: `--set TEXT: ` when an override
   * produced it (the longest overridden prefix of `path` wins), else
   * `file:line:col: ` from `mark` (1-based), or `file: ` when `mark` is null.
   */
  std::string where(const std::string& path, const YAML::Mark& mark) const;

  /// Whether the value at `path` came from a `--set` override (then its marks are not file positions).
  bool overridden(const std::string& path) const { return override_for(path) != nullptr; }

  /// The text of the override that set `path` (the longest overridden prefix wins), or null.
  const std::string* override_for(const std::string& path) const;

  /// @throws config_error `where(path, mark) + "path: " + message` (no `path: ` when `path` is empty).
  [[noreturn]] void fail(const std::string& path, const YAML::Mark& mark, const std::string& message) const;

 private:
  std::string file_;
  std::string text_;
  std::map<std::string, std::string> overrides_;  ///< key path -> the override text that set it
};

/// What a node is, for "got ...": the scalar text (quoted when the YAML quoted it), `null`, `a list` or `a map`.
std::string describe(const YAML::Node& node);

/// `a, b, c`.
std::string join(const std::vector<std::string>& items, const char* separator = ", ");

/// `; did you mean X?` for text::closest_name's choice, or "".
std::string did_you_mean(const std::string& given, const std::vector<std::string>& choices);

/// Formats a number without a trailing `.0` or exponent where it is an integer: 2, 0.5, 1e+20.
std::string number_text(double v);

/**
 * A YAML node together with its key path (`ga.crossover.rate`) and location.
 * All config errors go through `fail`/`expected`, so they all carry the
 * location. A view: the `config_source` must outlive it.
 */
class located {
 public:
  located(YAML::Node node, std::string path, YAML::Mark mark, const config_source& source)
      : node_(std::move(node)), path_(std::move(path)), mark_(mark), source_(&source) {}

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const YAML::Mark& mark() const { return mark_; }
  const config_source& source() const { return *source_; }

  bool is_null() const { return node_.IsNull(); }
  /// True for a scalar (plain or quoted) equal to `word`, e.g. `auto`.
  bool is_word(const char* word) const;

  /// @throws config_error `where: path: message`.
  [[noreturn]] void fail(const std::string& message) const { source_->fail(path_, mark_, message); }
  /// @throws config_error `where: path: expected WHAT, got DESCRIBE(node)SUFFIX`.
  [[noreturn]] void expected(const std::string& what, const std::string& suffix = "") const {
    fail("expected " + what + ", got " + describe(node_) + suffix);
  }

  /// The path of a child key: `path.key` (or `key` at the top level).
  std::string child_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

 private:
  YAML::Node node_;
  std::string path_;
  YAML::Mark mark_;
  const config_source* source_;
};

/**
 * A map node read key by key. Construction checks that the node is a map
 * (null counts as an empty map: `stop:` with nothing under it), that keys are
 * scalars, that none repeats (located in the file even when `--set` also gives
 * that key), and that no key is a bare word without ':' (yaml-cpp reads a lone
 * `stop` at the end of a block as the key `stop` with a null value).
 */
class yaml_map {
 public:
  /// @param allowed_hint  keys named in the "expected a map (keys: ...)" message when the node is not a map
  /// @throws config_error when the node is not a map, a key is not a scalar, or a key repeats
  yaml_map(const located& node, const std::vector<std::string>& allowed_hint);

  const located& self() const { return self_; }

  /// The value under `key`, or nullopt when absent.
  std::optional<located> get(const std::string& key) const;

  /// Every key present, in file order.
  std::vector<std::string> keys() const;

  /**
   * @throws config_error `path.key: unknown NOUN, expected one of (a, b, c)[; did you mean x?]`
   *         at the first key not in `allowed` (`NOUN` is e.g. "key", "parameter of seed/gene-sum").
   */
  void check_keys(const std::vector<std::string>& allowed, const std::string& noun = "key") const;

  /// @throws config_error at the key itself: `path.key: MESSAGE`.
  [[noreturn]] void fail_at_key(const std::string& key, const std::string& message) const;

 private:
  struct entry {
    std::string key;
    YAML::Mark key_mark;
    located value;
  };
  const entry* find(const std::string& key) const;

  located self_;
  std::vector<entry> entries_;
};

/// The accepted range of a number, and its wording in messages ("an integer >= 2", "a number in [0, 1]").
struct number_range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool integer = false;
  bool lo_open = false;      ///< true: x > lo; false: x >= lo
  bool hi_implicit = false;  ///< hi is a storage limit, named only when a value exceeds it
  std::string text() const;
  bool contains(double v) const;
};

/// Integer in [lo, hi].
number_range integer_in(double lo, double hi);
/// Integer >= lo (and <= INT_MAX, mentioned only when exceeded).
number_range integer_at_least(double lo);
/// Finite number in [lo, hi].
number_range number_in(double lo, double hi);
/// Finite number >= lo.
number_range number_at_least(double lo);
/// Finite number > lo.
number_range number_above(double lo);
/// Any finite number.
number_range any_number();

/**
 * Parses a plain YAML 1.2 core-schema number: `[-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?`,
 * `[-+].inf`, `.nan`. Quoted scalars are strings, not numbers; so are
 * values beyond the range of double (`1e999`).
 */
std::optional<double> parse_number(const located& v);

/**
 * Reads a number within `range`.
 * @param expect  the "expected ..." wording; defaults to `range.text()`
 * @throws config_error `path: expected EXPECT, got VALUE` for a non-number, a non-integer where one is
 *         needed, or a value outside `range`
 */
double read_number(const located& v, const number_range& range, const std::string& expect = "");

/// `read_number` for integer ranges, converted. @pre `range` lies within the range of long long.
long long read_int(const located& v, const number_range& range, const std::string& expect = "");

/// Reads an unsigned 64-bit integer written as plain decimal digits (a seed).
std::uint64_t read_uint64(const located& v);

/// Reads a non-empty scalar string (plain or quoted). @param expect e.g. "a file path"
std::string read_string(const located& v, const std::string& expect);

/// Named choices of an enumeration, in the order listed in messages.
template <class E>
using choice_list = std::vector<std::pair<std::string, E>>;

/**
 * Reads one of the named `choices` (plain or quoted).
 * @throws config_error `path: expected one of (a, b, c), got x[; did you mean a?]`
 */
template <class E>
E read_enum(const located& v, const choice_list<E>& choices) {
  std::vector<std::string> names;
  for (const auto& c : choices) names.push_back(c.first);
  if (v.node().IsScalar())
    for (const auto& c : choices)
      if (v.node().Scalar() == c.first) return c.second;
  v.expected("one of (" + join(names) + ")", did_you_mean(v.node().IsScalar() ? v.node().Scalar() : "", names));
}

/**
 * Parses `text` as one YAML document.
 * @return the root node; null when the document is empty
 * @throws config_error `file:line:col: invalid YAML: ...` for a syntax error or a second document
 */
YAML::Node load_document(const std::string& text, const config_source& source);

/**
 * Applies one `--set a.b.c=value` override to `root` (a map): walks `a.b`
 * (spaces around the key path are ignored),
 * creating maps where keys are absent or null, and sets `c` to `value` parsed
 * as YAML. Records the replaced and created paths in `source`.
 * @throws config_error `--set 'TEXT': expected key.path=value` when malformed;
 *         `--set TEXT: a.b: expected a map, got ...` when an intermediate value is not a map;
 *         `--set TEXT: a.b.c: expected a YAML value, got ...` when `value` does not parse
 */
void apply_override(YAML::Node& root, const std::string& text, config_source& source);

}  // namespace fusedga::detail
