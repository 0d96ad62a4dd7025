// A guard on the test suite itself: Catch2 v2's console reporter indents a
// failing test's wrapped name to just after its first ": ", and when that
// column reaches the console width (80) it loops forever, printing the name
// again and again (one such failure wrote 77 GB before it was stopped). So
// every TEST_CASE name must have its first ": " early, or none at all.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

TEST_CASE("test suite: every test name has its first colon early enough for Catch2's report", "[core]") {
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
    }
  }
  CHECK(names > 100);
}
