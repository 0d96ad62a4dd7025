#pragma once
// Command-line checks shared by ga-run and ga-bench, with messages that say what was expected: CLI11's
// PositiveNumber says "Value 0 not in range 0.000000 to 1797...(309 digits)" for 0.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>

namespace fusedga::apps {

/// A path option's value: an empty one would read as "not given" (a default, no output written), so refused.
inline CLI::Validator file_path() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("expected a file path, got an empty one") : std::string(); },
      "PATH");
}

namespace detail {
/// A number-checking validator: `ok(v)` on the whole text read as a number, else "expected a number <what>, got s".
template <class Ok>
CLI::Validator number_check(const char* what, Ok ok) {
  return CLI::Validator(
      [what, ok](std::string& s) {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (!s.empty() && end == s.c_str() + s.size() && ok(v)) return std::string();
        return std::string("expected a number ") + what + ", got " + (s.empty() ? std::string("nothing") : s);
      },
      what);
}
}  // namespace detail

/// A count or a duration that must be above 0.
inline CLI::Validator positive_number() {
  return detail::number_check("> 0", [](double v) { return v > 0; });
}

/// A duration that may be 0.
inline CLI::Validator non_negative_number() {
  return detail::number_check(">= 0", [](double v) { return v >= 0; });
}

}  // namespace fusedga::apps
