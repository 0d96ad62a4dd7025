// libFuzzer target for the expression parser (fusedga/expr/parse.hpp).
// The input's first line is the objective and each further line a
// constraint, over fixed declarations: x (scalar in [0, 1]), v (vector of 5
// in [0, 1]), the constant c = 2 and the table constant T = [1, 2, 3]. Every input must either parse or throw
// expression_error; on success the printer must handle the program and its
// output must parse back to the same text.
//
// Built by CMake with clang (tests/expr/fuzz/CMakeLists.txt: target parse_fuzzer);
// by hand: clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address -Iinclude -Isrc
//   tests/expr/fuzz/parse_fuzzer.cpp src/expr/{lexer,diagnostics,check,parse,print}.cpp -lfmt -o parse_fuzzer
// then: ./parse_fuzzer -max_total_time=60 tests/expr/fuzz/corpus

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/expr/parse.hpp"

namespace {

using namespace fusedga::expr;

problem_source declarations() {
  problem_source s;
  s.file = "fuzz.yaml";
  variable_decl x;
  x.name = "x";
  x.lower = {0};
  x.upper = {1};
  x.key_path = "problem.variables.x";
  x.where = {2, 3};
  variable_decl v;
  v.name = "v";
  v.size = 5;
  v.vector = true;
  v.lower.assign(5, 0);
  v.upper.assign(5, 1);
  v.key_path = "problem.variables.v";
  v.where = {3, 3};
  s.variables = {x, v};
  s.constants = {{"c", 2, "problem.constants.c", {4, 3}}, {"T", 0, "problem.constants.T", {5, 3}, std::vector<double>{1, 2, 3}}};
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  problem_source s = declarations();
  std::size_t line_start = 0;
  for (int line = 1;; ++line) {
    const std::size_t end = input.find('\n', line_start);
    const std::string text = input.substr(line_start, end == std::string::npos ? std::string::npos : end - line_start);
    if (line == 1)
      s.objective = {text, "problem.objective", {line, 12}};
    else
      s.constraints.push_back({text, "problem.constraints[" + std::to_string(line - 2) + "]", {line, 5}});
    if (end == std::string::npos) break;
    line_start = end + 1;
  }
  try {
    const program p = parse_program(s);
    (void)describe(p);
    // The printed form is the canonical one: it must parse back to itself.
    problem_source again = declarations();
    again.objective = {to_string(p, p.objective), "problem.objective", {1, 1}};
    try {
      const program q = parse_program(again);
      if (to_string(q, q.objective) != again.objective.text) std::abort();
    } catch (const fusedga::expression_error& e) {
      // Printed parentheses (pow(a, b + c) -> a^(b + c)) can cost a nesting
      // level the original did not use; any other rejection is a bug.
      if (std::string(e.what()).find("nested too deeply") == std::string::npos) std::abort();
    }
  } catch (const fusedga::expression_error&) {
    // Rejected with a located message: the expected outcome for most inputs.
  }
  return 0;
}
