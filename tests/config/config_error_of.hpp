#pragma once
// The error message of parsing a YAML config, for the config suites' tests of located errors.
#include <fusedga/config/run_config.hpp>
#include <fusedga/core/error.hpp>
#include <string>
#include <vector>

namespace config_test {

/// The message of the config_error or expression_error from parsing `yaml` as "run.yaml" with `overrides`
/// (--set texts), or "(no error)" when it parses.
inline std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    fusedga::parse_config(yaml, "run.yaml", overrides);
  } catch (const fusedga::config_error& e) {
    return e.what();
  } catch (const fusedga::expression_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace config_test
