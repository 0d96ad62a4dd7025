// libFuzzer target for the YAML config reader (fusedga/config/run_config.hpp):
// the input is a config file's text; comment lines `#set KEY=VALUE` at its
// start are also applied as `--set` overrides, so the override parser is
// fuzzed too. Every input must either parse (into a validated run_config) or
// throw config_error or expression_error, with a message that names the file
// or the override; anything else (another exception, a crash, a hang or
// unbounded memory: issue 16, item 1) is a bug.
//
// Built by CMake with clang (tests/config/fuzz/CMakeLists.txt: target config_fuzzer).
// Run it on a copy of the seed corpus (scripts/fuzz.sh does):
//   ./config_fuzzer -max_total_time=60 -timeout=5 -rss_limit_mb=2048 -dict=<src>/tests/config/fuzz/config.dict corpus

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"

namespace {

/// The `#set KEY=VALUE` lines at the start of `text`, as --set arguments.
std::vector<std::string> leading_overrides(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin < text.size() && text.compare(begin, 5, "#set ") == 0 && out.size() < 8) {
    const std::size_t end = text.find('\n', begin);
    out.push_back(text.substr(begin + 5, end == std::string::npos ? std::string::npos : end - begin - 5));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return out;
}

[[noreturn]] void bug(const char* what, const std::string& message) {
  std::fprintf(stderr, "config fuzz: %s: %s\n", what, message.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> overrides = leading_overrides(text);
  try {
    const fusedga::run_config cfg = fusedga::parse_config(text, "fuzz.yaml", overrides);
    if (cfg.ga.population < 2) bug("accepted a population below 2", std::to_string(cfg.ga.population));
  } catch (const fusedga::config_error& e) {
    // Located: every message starts with the file name or the override that caused it.
    const std::string m = e.what();
    if (m.rfind("fuzz.yaml", 0) != 0 && m.rfind("--set", 0) != 0) bug("config_error not located", m);
  } catch (const fusedga::expression_error& e) {
    const std::string m = e.what();
    if (m.rfind("fuzz.yaml", 0) != 0 && m.rfind("<input>", 0) != 0) bug("expression_error not located", m);
  } catch (const std::exception& e) {
    bug("unexpected exception", e.what());
  }
  return 0;
}
