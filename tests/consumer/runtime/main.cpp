// Solves seed example 2 given as an expression (interpreted: no compiler needed) and as the built-in problem;
// both must reach its known optimum region (objective 263.17... at x = 1.65, y = 7, z = -2.70).
#include <cstdio>
#include <fusedga/config/registry.hpp>
#include <fusedga/config/run_config.hpp>

int main() {
  const char* expression = R"(problem:
  sense: maximize
  engine: interpreter
  variables: {x: [1, 25], y: [3, 7], z: [-25, 0]}
  objective: "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z"
  constraints: ["x + y + z >= 3", "x^2 + z^2 <= 10"]
ga: {population: 2000, generations: 100, seed: 7}
backend: serial
)";
  const char* builtin = R"(problem: {builtin: seed/constrained-quadratic}
ga: {population: 2000, generations: 100, seed: 7}
backend: serial
)";
  int failures = 0;
  for (const char* text : {expression, builtin}) {
    const fusedga::Result r = fusedga::run(fusedga::parse_config(text, "consumer.yaml"));
    std::printf("best %.4f, feasible %d\n", r.objective, r.feasible);
    if (!r.feasible || r.objective < 262.0 || r.objective > 263.2) ++failures;
  }
  return failures;
}
