// Expression problems in YAML configs: the `problem:` section without
// `builtin:` (DESIGN.md, "YAML config"), read into a checked program, with
// located errors from the YAML layer and from the expression parser.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/expression_problem.hpp"
#include "fusedga/expr/interpreter.hpp"
#include "fusedga/expr/parse.hpp"
#include "config_error_of.hpp"

using namespace fusedga;

namespace {

using config_test::error_of;

const std::string quadratic = R"(problem:
  sense: maximize
  variables: {x: [1, 25], y: [3, 7], z: [-25, 0]}
  objective: "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z"
  constraints: ["x + y + z >= 3", "x^2 + z^2 <= 10"]
)";

}  // namespace

TEST_CASE("an expression problem is parsed into a program", "[config][expression]") {
  const run_config cfg = parse_config(quadratic + "ga: {population: 100}\n", "cq.yaml");
  REQUIRE(cfg.problem.expression);
  const expr::program& p = *cfg.problem.expression;
  CHECK(cfg.problem.builtin == "cq");  // the file's stem when no name: is given
  CHECK(cfg.problem.engine == expression_engine::automatic);
  CHECK(p.sense == Sense::maximize);
  CHECK(p.dimension() == 3);
  CHECK(p.inequality_count() == 2);
  CHECK(p.equality_count() == 0);
  CHECK(p.gene_names() == std::vector<std::string>{"x", "y", "z"});
  CHECK(p.variables[1].lower == std::vector<double>{3});
  CHECK(p.variables[1].upper == std::vector<double>{7});
  CHECK(cfg.ga.population == 100);
  // the GA defaults of real-gene problems apply
  CHECK(cfg.ga.crossover.kind == crossover_kind::sbx);
  CHECK(cfg.ga.mutation.kind == mutation_kind::polynomial);
}

TEST_CASE("expression problem: vectors, constants, name and engine", "[config][expression]") {
  const run_config cfg = parse_config(R"(problem:
  name: my/problem
  engine: interpreter
  variables:
    w: {size: 3, bounds: [[0, 1], [0, 2], [-1, 3]]}
    v: {size: 4, bounds: [-5, 5]}
  constants: {c: 2.5}
  objective: "c * sum(i=0:3, v[i]^2) + w[0]"
  constraints: ["w[1] + w[2] == 1"]
)",
                                      "run.yaml");
  REQUIRE(cfg.problem.expression);
  const expr::program& p = *cfg.problem.expression;
  CHECK(cfg.problem.builtin == "my/problem");
  CHECK(cfg.problem.engine == expression_engine::interpreter);
  CHECK(p.dimension() == 7);
  CHECK(p.equality_count() == 1);
  CHECK(p.variables[0].upper == std::vector<double>{1, 2, 3});
  CHECK(p.variables[1].first_gene == 3);
  CHECK(p.variables[1].lower == std::vector<double>(4, -5.0));
  CHECK(p.gene_names()[4] == "v[1]");
}

TEST_CASE("expression problem: integer variables", "[config][expression][integer]") {
  const run_config cfg = parse_config(R"(problem:
  variables:
    n: {bounds: [0.51, 70.49], integer: true}
    x: {size: 3, bounds: [[6.51, 76.49], [-2.5, 2.5], [3, 3]], integer: true}
    w: {size: 2, bounds: [0, 1], integer: false}
    r: [0.5, 1.5]
    m: {size: 4, bounds: [[0, 1.5], [-0.51, 1.49], [-3, 3], [2.2, 3.8]], integer: [false, true, false, true]}
  objective: "n + x[0] + w[1] + r + m[1]"
)",
                                      "run.yaml");
  const expr::program& p = *cfg.problem.expression;
  REQUIRE(p.variables.size() == 5);
  CHECK(p.variables[0].integer == std::vector<std::uint8_t>{1});
  CHECK_FALSE(p.variables[0].vector);                     // the long form of a scalar
  CHECK(p.variables[0].lower == std::vector<double>{1});  // the integers in the declared bounds
  CHECK(p.variables[0].upper == std::vector<double>{70});
  CHECK(p.variables[1].integer == std::vector<std::uint8_t>{1, 1, 1});
  CHECK(p.variables[1].lower == std::vector<double>{7, -2, 3});
  CHECK(p.variables[1].upper == std::vector<double>{76, 2, 3});
  CHECK(p.variables[2].integer.empty());  // all false: none
  CHECK(p.variables[2].upper == std::vector<double>{1, 1});
  CHECK(p.variables[3].integer.empty());
  CHECK(p.variables[3].lower == std::vector<double>{0.5});
  // single elements: only the marked ones become the integers in their bounds
  CHECK(p.variables[4].integer == std::vector<std::uint8_t>{0, 1, 0, 1});
  CHECK(p.variables[4].lower == std::vector<double>{0, 0, -3, 3});
  CHECK_FALSE(std::signbit(p.variables[4].lower[1]));  // ceil(-0.51) is -0: printed as 0
  CHECK(p.variables[4].upper == std::vector<double>{1.5, 1, 3, 3});
  const expr::expression_problem<double, Sense::minimize> problem{&p, nullptr};
  const Bounds<double> b = problem.bounds();
  CHECK(b.integer == std::vector<std::uint8_t>{1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1});
  CHECK_NOTHROW(b.validate(11));
  CHECK(expr::describe(p).find("n in [1, 70] (integer); x[0..2] in [7, 76], [-2, 2], [3, 3] (per element) (integer); "
                               "w[0..1] in [0, 1]; r in [0.5, 1.5]; m[0..3] in [0, 1.5], [0, 1], [-3, 3], ... (per "
                               "element) (integer: 1, 3)") != std::string::npos);
  // without an integer variable the bounds carry no marks (the kernels skip the rounding)
  const run_config plain = parse_config(quadratic, "run.yaml");
  CHECK(
      expr::expression_problem<double, Sense::maximize>{&*plain.problem.expression, nullptr}.bounds().integer.empty());
}

TEST_CASE("expression problem: integer variable errors are located", "[config][expression][integer][errors]") {
  CHECK(error_of("problem:\n  variables: {n: {bounds: [0.2, 0.8], integer: true}}\n  objective: n\n") ==
        "run.yaml:2:18: problem.variables.n: integer variable 'n' has bounds [0.2, 0.8], which hold no integer; "
        "expected bounds around at least one integer");
  CHECK(error_of("problem:\n  variables: {n: {bounds: [0, 5], integer: yes}}\n  objective: n\n")
            .rfind("run.yaml:2:44: problem.variables.n.integer: expected one of (true, false), got yes", 0) == 0);
  CHECK(error_of("problem:\n  variables: {v: {size: 2, bounds: [0, 1], integer: [true]}}\n  objective: v[0]\n")
            .rfind("run.yaml:2:53: problem.variables.v.integer: expected true, false, or a list of 2 of them (one per "
                   "element)",
                   0) == 0);
  CHECK(error_of("problem:\n  variables: {v: {size: 2, bounds: [0, 1], integer: [true, 1]}}\n  objective: v[0]\n")
            .rfind("run.yaml:2:60: problem.variables.v.integer[1]: expected one of (true, false), got 1", 0) == 0);
  CHECK(error_of("problem:\n  variables: {v: {size: 2, bounds: [[0, 1], [0.2, 0.8]], integer: [false, true]}}\n"
                 "  objective: v[0]\n") ==
        "run.yaml:2:18: problem.variables.v: integer variable 'v[1]' has bounds [0.2, 0.8], which hold no integer; "
        "expected bounds around at least one integer");
  CHECK(error_of("problem:\n  variables: {n: {bounds: [0, 5], integer: [true]}}\n  objective: n\n")
            .rfind("run.yaml:2:44: problem.variables.n.integer: expected one of (true, false)", 0) == 0);
  // float precision: its own limit, named at the variable (the engine's check would only name gene 1)
  const std::string wide_float = "problem:\n  variables: {x: [0, 1], v: {size: 2, bounds: [0, 1e8], integer: [false, true]}}\n"
                                 "  objective: x + v[1]\nprecision: float\n";
  CHECK(error_of(wide_float) == "run.yaml:2:29: problem.variables.v: integer variable 'v[1]' has bounds [0, 100000000]; "
                                "expected bounds within +-2^22 with precision: float, where rounding half up is exact "
                                "(+-2^51 with precision: double)");
  CHECK_NOTHROW(parse_config(wide_float.substr(0, wide_float.find("precision")), "run.yaml"));  // double: fine
  CHECK(error_of("problem:\n  variables: {n: {integer: true}}\n  objective: n\n") ==
        "run.yaml:2:18: problem.variables.n: expected a variable {bounds: [lower, upper]} (a vector: {size: n, "
        "bounds: [lower, upper]}), got a map");
}

TEST_CASE("expression problem: table constants", "[config][expression][table]") {
  const run_config cfg = parse_config(R"(problem:
  constants: {P: [3.175, 5.715, 8.255, 12.7], g: 9.81}
  variables: {x: {size: 2, bounds: [[0.51, 4.49], [1, 2]]}}
  objective: "P[x[0] - 1] * x[1] * g"
)",
                                      "run.yaml");
  const expr::program& p = *cfg.problem.expression;
  REQUIRE(p.tables.size() == 1);
  CHECK(p.tables[0].name == "P");
  CHECK(p.tables[0].values == std::vector<double>{3.175, 5.715, 8.255, 12.7});
  CHECK(p.tables[0].where.line == 2);
  const std::vector<double> x = {2.6, 1.5};  // P[1.6] = P[2]
  CHECK(expr::reference_objective(p, x.data()) == 8.255 * 1.5 * 9.81);
  // --set replaces a table like any value
  const run_config set = parse_config("problem:\n  constants: {P: [1]}\n  variables: {x: [0, 1]}\n  objective: P[x]\n",
                                      "run.yaml", {"problem.constants.P=[2, 4]"});
  CHECK(set.problem.expression->tables[0].values == std::vector<double>{2, 4});
}

TEST_CASE("expression problem: table constant errors are located at the table or its entry", "[config][expression][table][errors]") {
  const auto with = [](const std::string& constants) {
    return error_of("problem:\n  variables: {x: [0, 1]}\n  constants: " + constants + "\n  objective: x\n");
  };
  CHECK(with("{P: [1, abc, 3]}") == "run.yaml:3:22: problem.constants.P[1]: expected a finite number (table entry 1), got abc");
  CHECK(with("{P: [1, 2, .inf]}") == "run.yaml:3:25: problem.constants.P[2]: expected a finite number (table entry 2), got .inf");
  CHECK(with("{P: [1, [2]]}") == "run.yaml:3:22: problem.constants.P[1]: expected a finite number (table entry 1), got a list");
  CHECK(with("{P: []}") == "run.yaml:3:18: problem.constants.P: table constant 'P' is empty; expected a list of at least one number");
  CHECK(with("{P: {a: 1}}") ==
        "run.yaml:3:18: problem.constants.P: expected a finite number or a list of finite numbers (a table), got a map");
  std::string long_list = "{P: [0";
  for (int k = 0; k < 65536; ++k) long_list += ", 1";
  CHECK(with(long_list + "]}") == "run.yaml:3:18: problem.constants.P: table constant 'P' has 65537 entries; at most 65536 are allowed");
  CHECK(error_of("problem:\n  variables: {x: [0, 1]}\n  constants: {P: [1, 2]}\n  objective: x + P\n") ==
        "run.yaml:4:18: problem.objective: table constant 'P' must be indexed: P[k]");
}

TEST_CASE("expression problem: YAML-level errors are located", "[config][expression][errors]") {
  CHECK(error_of("problem:\n  variables: {x: [2, 1]}\n  objective: x\n") ==
        "run.yaml:2:18: problem.variables.x: expected bounds [lower, upper] with finite lower <= upper, got lower 2 > "
        "upper 1");
  CHECK(error_of("problem:\n  variables: {x: [0, 1]}\n  objective: x\n  engine: jitt\n") ==
        "run.yaml:4:11: problem.engine: expected one of (auto, jit, interpreter), got jitt; did you mean jit?");
  CHECK(error_of("problem:\n  variables: {x: [0, 1]}\n  objective: x\n  sense: maximise\n") ==
        "run.yaml:4:10: problem.sense: expected one of (minimize, maximize), got maximise; did you mean maximize?");
  CHECK(error_of("problem:\n  variables: {x: {size: 2, bound: [0, 1]}}\n  objective: x[0]\n")
            .rfind("run.yaml:2:28: problem.variables.x.bound: unknown key, expected one of (size, bounds, integer); "
                   "did you mean bounds?",
                   0) == 0);
  CHECK(error_of("problem:\n  variables: {x: {size: 2, bounds: [[0, 1]]}}\n  objective: x[0]\n") ==
        "run.yaml:2:36: problem.variables.x.bounds: expected a list of 2 [lower, upper] pairs (one per element), got a "
        "list");
  CHECK(error_of("problem:\n  variables: {x: [0, 1]}\n  objective: x\n  params: {}\n")
            .rfind("run.yaml:4:3: problem.params: unknown key, expected one of (name, sense", 0) == 0);
  CHECK(error_of("problem:\n  variables: {x: [0, 1]}\n  objective: x\n  constraints: x <= 1\n") ==
        "run.yaml:4:16: problem.constraints: expected a list of constraints such as \"x + y <= 3\", got x <= 1");
}

TEST_CASE("expression problem: parser errors carry the file, line and column of the token", "[config][expression][errors]") {
  // quoted: the text starts one column after the quote
  const std::string quoted = error_of("problem:\n  variables: {x: [0, 1], y: [0, 1]}\n  objective: \"x + q\"\n");
  CHECK(quoted.rfind("run.yaml:3:19: problem.objective: ", 0) == 0);
  CHECK(quoted.find("'q'") != std::string::npos);
  // plain scalar, in a constraint list
  const std::string plain =
      error_of("problem:\n  variables: {x: [0, 1]}\n  objective: x\n  constraints:\n    - x <= 1\n    - sin(x, x) >= 0\n");
  CHECK(plain.rfind("run.yaml:6:", 0) == 0);
  CHECK(plain.find(": problem.constraints[1]: ") != std::string::npos);
}

TEST_CASE("expression problem: errors inside multi-line scalars are located in the file", "[config][expression][errors]") {
  const std::string head = "problem:\n  variables: {x: [0, 1], y: [0, 1]}\n";
  // folded (>-): the second line is indented further, and its text is folded onto the first
  CHECK_THAT(error_of(head + "  objective: >-\n    x + y\n      * (x + $ y)\n"),
             Catch::StartsWith("run.yaml:5:14: problem.objective: unexpected character '$'"));
  // literal (|): lines kept, indentation dropped
  CHECK_THAT(error_of(head + "  objective: x\n  constraints:\n    - |\n      x + y\n       <= 1 +  y ]\n"),
             Catch::StartsWith("run.yaml:7:18: problem.constraints[0]: unexpected ']'"));
  // double-quoted over two lines, with an escape before the error
  CHECK_THAT(error_of(head + "  objective: x\n  constraints: [\"x\\x2By\n      + y <= @\"]\n"),
             Catch::StartsWith("run.yaml:5:14: problem.constraints[0]: unexpected character '@'"));
  // single-quoted over a blank line (folded to a newline)
  CHECK_THAT(error_of(head + "  objective: 'x +\n\n     y y'\n"),
             Catch::StartsWith("run.yaml:5:8: problem.objective: unexpected name 'y'"));
  // plain scalar over two lines
  CHECK_THAT(error_of(head + "  objective: x +\n     y y\n"),
             Catch::StartsWith("run.yaml:4:8: problem.objective: unexpected name 'y'"));
  // the end of a block scalar is just past its last character, not on the line after
  CHECK_THAT(error_of(head + "  objective: >\n    x +\n    y *\n"),
             Catch::StartsWith("run.yaml:5:8: problem.objective: unexpected end of text"));
  // a --set override has no file position: the error names the argument, and the column within its text
  const auto via_set = [&](const std::string& override_text) {
    try {
      parse_config(head + "  objective: x\n", "run.yaml", {override_text});
    } catch (const expression_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK_THAT(via_set("problem.objective=x + $"),
             Catch::StartsWith("--set problem.objective=x + $: problem.objective: column 5: unexpected character '$'"));
  CHECK(via_set("problem.objective=(x + 1") ==
        "--set problem.objective=(x + 1: problem.objective: column 7: unexpected end of text; expected ')' to close "
        "the '(' at column 1");
  CHECK_THAT(via_set("problem.constraints=[x <= 1, y >= z]"),
             Catch::StartsWith("--set problem.constraints=[x <= 1, y >= z]: problem.constraints[1]: column 6: "
                               "unknown name 'z'"));
  CHECK_THAT(via_set("problem.objective=\"x +\\n  y $\""),
             Catch::StartsWith("--set problem.objective=\"x +\\n  y $\": problem.objective: line 2, column 5: "
                               "unexpected character '$'"));
}
