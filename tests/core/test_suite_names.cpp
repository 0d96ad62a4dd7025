// Guards on the test suite's names, for two traps of Catch2 v2 with CTest:
// - Catch2's console reporter indents a failing test's wrapped name to just
//   after its first ": ", and when that column reaches the console width (80)
//   it loops forever, printing the name again and again (one such failure
//   wrote 77 GB before it was stopped): the first ": " must come early.
// - catch_discover_tests passes the names through a CMake list, where an
//   unbalanced '[' or ']' stops the splitting at ';': the next test's name was
//   glued to it and neither ran (CTest reported a pass; tests/CMakeLists.txt
//   now adds --warn NoTests so that cannot pass again).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

TEST_CASE("test suite: every test name has its first colon early and balanced brackets, for Catch2 and CTest",
          "[core]") {
  const std::regex test_case(R"re(TEST_CASE\(\s*"((?:[^"\\]|\\.)*)")re");
  int names = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(FUSEDGA_SOURCE_DIR) + "/tests")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".cu") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator m(source.begin(), source.end(), test_case), end; m != end; ++m) {
      const std::string name = (*m)[1];
      ++names;
      const std::size_t colon = name.find(": ");
      INFO(entry.path().filename().string() << ": \"" << name << "\"");
      CHECK((colon == std::string::npos || colon + 2 <= 60));
      int depth = 0;
      bool balanced = name.find(';') == std::string::npos;
      for (const char c : name) {
        depth += c == '[' ? 1 : c == ']' ? -1 : 0;
        balanced = balanced && depth >= 0;
      }
      CHECK((balanced && depth == 0));
    }
  }
  CHECK(names > 100);
}
