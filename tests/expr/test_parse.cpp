// Parser and checker of expression problems (fusedga/expr/parse.hpp): the
// AST it builds, the normalized printing, and every error class with its
// exact file:line:col and key path.

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/expr/parse.hpp"

using namespace fusedga::expr;

namespace {

// Every expression text starts at line 5, column 11 of "t.yaml": the
// character at 1-based position k of a text is reported at column 10 + k.
constexpr location text_start{5, 11};

variable_decl scalar(const std::string& name, double lower, double upper, int line) {
  variable_decl d;
  d.name = name;
  d.lower = {lower};
  d.upper = {upper};
  d.key_path = "problem.variables." + name;
  d.where = {line, 3};
  return d;
}

variable_decl vector(const std::string& name, int size, double lower, double upper, int line) {
  variable_decl d = scalar(name, lower, upper, line);
  d.size = size;
  d.vector = true;
  d.lower.assign(static_cast<std::size_t>(std::max(size, 0)), lower);
  d.upper.assign(static_cast<std::size_t>(std::max(size, 0)), upper);
  return d;
}

/// x in [1, 25], y in [3, 7], z in [-25, 0], v (5 elements) in [0, 1], w (3 elements) in [-1, 1]; constants c = 2, half = 0.5, zero = 0.
problem_source make_source(const std::string& objective, const std::vector<std::string>& constraints = {}) {
  problem_source s;
  s.file = "t.yaml";
  s.variables = {scalar("x", 1, 25, 2), scalar("y", 3, 7, 3), scalar("z", -25, 0, 4), vector("v", 5, 0, 1, 5),
                 vector("w", 3, -1, 1, 6)};
  s.constants = {{"c", 2, "problem.constants.c", {8, 3}}, {"half", 0.5, "problem.constants.half", {9, 3}},
                 {"zero", 0, "problem.constants.zero", {10, 3}}};
  s.objective = {objective, "problem.objective", text_start};
  for (std::size_t k = 0; k < constraints.size(); ++k)
    s.constraints.push_back({constraints[k], "problem.constraints[" + std::to_string(k) + "]", text_start});
  return s;
}

program parse(const std::string& objective, const std::vector<std::string>& constraints = {}) {
  return parse_program(make_source(objective, constraints));
}

std::string error_of(const problem_source& s) {
  try {
    parse_program(s);
  } catch (const fusedga::expression_error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string error_of(const std::string& objective, const std::vector<std::string>& constraints = {}) {
  return error_of(make_source(objective, constraints));
}

/// The objective printed back.
std::string printed(const std::string& objective) {
  const program p = parse(objective);
  return to_string(p, p.objective);
}

const node& at(const program& p, int id) { return p.nodes.at(static_cast<std::size_t>(id)); }
const node& root(const program& p) { return at(p, p.objective); }

/// The message starts with `prefix` ("t.yaml:5:13: problem.objective: division by zero").
#define CHECK_ERROR(message, prefix)                \
  do {                                              \
    const std::string message_ = (message);         \
    INFO("message: " << message_);                  \
    CHECK(message_.rfind((prefix), 0) == 0);        \
  } while (false)

}  // namespace

TEST_CASE("seed problems parse into the expected programs", "[parse]") {
  SECTION("constrained quadratic") {
    problem_source s = make_source("x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z", {"x + y + z >= 3", "x^2 + z^2 <= 10"});
    s.variables.resize(3);
    s.sense = fusedga::Sense::maximize;
    const program p = parse_program(s);
    CHECK(p.dimension() == 3);
    CHECK(p.sense == fusedga::Sense::maximize);
    CHECK(p.inequality_count() == 2);
    CHECK(p.equality_count() == 0);
    CHECK(p.max_reduction_depth == 0);
    CHECK(p.objective_text == "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z");
    CHECK(to_string(p, p.objective) == "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z");
    CHECK(to_string(p, p.constraints[0].root) == "3 - (x + y + z)");
    CHECK(to_string(p, p.constraints[1].root) == "x^2 + z^2 - 10");
    CHECK(p.constraints[0].text == "x + y + z >= 3");
    CHECK(describe(p) ==
          "variables (3 genes): x in [1, 25]; y in [3, 7]; z in [-25, 0]\n"
          "objective (maximize): x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z\n"
          "g1(x) = 3 - (x + y + z) <= 0  # from \"x + y + z >= 3\"\n"
          "g2(x) = x^2 + z^2 - 10 <= 0   # from \"x^2 + z^2 <= 10\"\n");
  }
  SECTION("trig") {
    problem_source s = make_source("sin(x) + x^2 - 2*cos(y) + y^2 + z^2", {"x + z >= 1", "cos(y) + z >= 0.5"});
    s.variables.resize(3);
    const program p = parse_program(s);
    CHECK(p.dimension() == 3);
    CHECK(p.inequality_count() == 2);
    CHECK(to_string(p, p.objective) == "sin(x) + x^2 - 2*cos(y) + y^2 + z^2");
    CHECK(to_string(p, p.constraints[1].root) == "0.5 - (cos(y) + z)");
    const node& sin_node = at(p, at(p, at(p, at(p, at(p, p.objective).a).a).a).a);
    CHECK(sin_node.kind == node_kind::call);
    CHECK(sin_node.fn == function::sin);
    CHECK(describe(p).find("objective (minimize): sin(x) + x^2 - 2*cos(y) + y^2 + z^2\n") != std::string::npos);
  }
}

TEST_CASE("variables are copied with genes in declaration order", "[parse]") {
  problem_source s = make_source("x + v[0] + w[2]");
  s.variables[4].lower = {-1, -2, -3};
  const program p = parse_program(s);
  REQUIRE(p.variables.size() == 5);
  CHECK(p.dimension() == 3 + 5 + 3);
  CHECK(p.variables[3].name == "v");
  CHECK(p.variables[3].first_gene == 3);
  CHECK(p.variables[3].size == 5);
  CHECK(p.variables[3].vector);
  CHECK(p.variables[4].first_gene == 8);
  CHECK(p.variables[4].lower == std::vector<double>{-1, -2, -3});
  CHECK(p.variables[0].where.line == 2);
  CHECK(p.gene_names() == std::vector<std::string>{"x", "y", "z", "v[0]", "v[1]", "v[2]", "v[3]", "v[4]", "w[0]", "w[1]", "w[2]"});
  CHECK(describe(p).rfind(
            "variables (11 genes): x in [1, 25]; y in [3, 7]; z in [-25, 0]; v[0..4] in [0, 1]; w[0..2] in [-1, 1], [-2, 1], [-3, 1] "
            "(per element)\n",
            0) == 0);
}

TEST_CASE("genes and indices are 0-based", "[parse]") {
  const program p = parse("v[0] + w[2] + y");
  const node& sum2 = root(p);
  const node& v0 = at(p, at(p, sum2.a).a);
  const node& w2 = at(p, at(p, sum2.a).b);
  const node& y = at(p, sum2.b);
  CHECK(v0.kind == node_kind::gene);
  CHECK(v0.slot == 3);
  CHECK(v0.size == 5);
  CHECK(at(p, v0.a).kind == node_kind::number);
  CHECK(at(p, v0.a).value == 0);
  CHECK(at(p, v0.a).integer);
  CHECK(w2.slot == 8);
  CHECK(at(p, w2.a).value == 2);
  CHECK(y.kind == node_kind::gene);
  CHECK(y.slot == 1);
  CHECK(y.size == 1);
  CHECK(y.a == -1);
  CHECK_NOTHROW(parse("v[4]"));
  CHECK_ERROR(error_of("v[5]"), "t.yaml:5:13: problem.objective: index 5 is out of range; 'v' has 5 elements: indices 0 to 4");
  CHECK_ERROR(error_of("v[-1]"), "t.yaml:5:13: problem.objective: index -1 is out of range");
  CHECK_ERROR(error_of("v[c + 3]"), "t.yaml:5:13: problem.objective: index 5 is out of range");
  CHECK_NOTHROW(parse("v[c*2]"));
}

TEST_CASE("reductions: bounds, index ranges, nesting and depth", "[parse]") {
  SECTION("the index range is checked against the vector") {
    CHECK_NOTHROW(parse("sum(i=0:3, v[i+1])"));
    CHECK_ERROR(error_of("sum(i=0:4, v[i+1])"),
                "t.yaml:5:24: problem.objective: index 'i + 1' ranges over 1 to 5, outside the vector; 'v' has 5 elements");
    CHECK_ERROR(error_of("sum(i=0:5, v[i])"), "t.yaml:5:24: problem.objective: index 'i' ranges over 0 to 5");
    CHECK_ERROR(error_of("sum(i=1:4, v[i-2])"), "t.yaml:5:24: problem.objective: index 'i - 2' ranges over -1 to 2");
    CHECK_NOTHROW(parse("sum(i=0:2, v[2*i])"));
    CHECK_ERROR(error_of("sum(i=0:3, v[2*i])"), "t.yaml:5:24: problem.objective: index '2*i' ranges over 0 to 6");
  }
  SECTION("structure: inclusive bounds, depth in slot, index variables scoped") {
    const program p = parse("sum(i=0:4, v[i]) + prod(i=0:1, max(j=i:2, w[j]*i))");
    CHECK(p.max_reduction_depth == 2);
    const node& first = at(p, root(p).a);
    CHECK(first.kind == node_kind::reduce);
    CHECK(first.red == reduction::sum);
    CHECK(first.slot == 0);
    CHECK(first.name == "i");
    CHECK(at(p, first.a).value == 0);
    CHECK(at(p, first.b).value == 4);
    const node& body = at(p, first.c);
    CHECK(body.kind == node_kind::gene);
    CHECK(at(p, body.a).kind == node_kind::index_var);
    CHECK(at(p, body.a).slot == 0);
    const node& outer = at(p, root(p).b);
    CHECK(outer.red == reduction::prod);
    const node& inner = at(p, outer.c);
    CHECK(inner.kind == node_kind::reduce);
    CHECK(inner.red == reduction::max);
    CHECK(inner.slot == 1);
    CHECK(at(p, inner.a).kind == node_kind::index_var);  // j = i : 2, i from the outer reduction
    CHECK(at(p, inner.a).slot == 0);
    const node& product = at(p, inner.c);
    CHECK(at(p, at(p, product.a).a).slot == 1);  // w[j]
    CHECK(at(p, product.b).slot == 0);           // i
    CHECK(to_string(p, p.objective) == "sum(i=0:4, v[i]) + prod(i=0:1, max(j=i:2, w[j]*i))");
    CHECK(parse("x").max_reduction_depth == 0);
    CHECK(parse("sum(i=0:1, x)").max_reduction_depth == 1);
  }
  SECTION("min and max: two arguments are a call, `ident =` makes a reduction") {
    const program p = parse("min(x, y) + max(i=0:4, v[i])");
    CHECK(at(p, root(p).a).kind == node_kind::call);
    CHECK(at(p, root(p).a).fn == function::min);
    CHECK(at(p, root(p).b).kind == node_kind::reduce);
    CHECK(at(p, root(p).b).red == reduction::max);
  }
  SECTION("bounds may use outer indices and integer constants") {
    CHECK_NOTHROW(parse("sum(i=0:c, sum(j=i+1:4, v[i]*v[j]))"));
    CHECK_NOTHROW(parse("sum(i=0:4, sum(j=i+1:4, v[j]))"));  // empty for i = 4: a sum of nothing is 0
    CHECK_ERROR(error_of("sum(i=0:4, sum(j=i:i+1, v[j]))"), "t.yaml:5:37: problem.objective: index 'j' ranges over 0 to 5");
    CHECK_ERROR(error_of("sum(i=0:4, i) + i"), "t.yaml:5:27: problem.objective: unknown name 'i'");
    CHECK_ERROR(error_of("sum(i=0:i, x)"), "t.yaml:5:19: problem.objective: unknown name 'i'");
  }
  SECTION("non-integer or empty ranges") {
    CHECK_ERROR(error_of("sum(i=0:2.5, v[i])"),
                "t.yaml:5:19: problem.objective: the upper bound of 'sum' must be an integer expression");
    CHECK_ERROR(error_of("sum(i=half:2, v[i])"),
                "t.yaml:5:17: problem.objective: the lower bound of 'sum' must be an integer expression (integers, integer constants "
                "and reduction indices with + - *): constant 'half' = 0.5 is not an integer");
    CHECK_ERROR(error_of("sum(i=0:x, v[i])"), "t.yaml:5:19: problem.objective: the upper bound of 'sum' must be an integer expression");
    CHECK_ERROR(error_of("sum(i=0:4/2, v[i])"), "t.yaml:5:19: problem.objective: the upper bound of 'sum' must be an integer expression");
    CHECK_ERROR(error_of("sum(i=3:1, v[i])"), "t.yaml:5:17: problem.objective: empty range 3:1 in 'sum'");
    CHECK_ERROR(error_of("sum(i=0:1, min(j=i+1:1, w[j]))"), "t.yaml:5:28: problem.objective: the range of 'min' may be empty");
    CHECK_ERROR(error_of("sum(i=0:99999999, x)"), "t.yaml:5:19: problem.objective: the upper bound of 'sum' reaches 99999999");
  }
  SECTION("index variable names") {
    CHECK_ERROR(error_of("sum(x=0:4, v[x])"),
                "t.yaml:5:15: problem.objective: index variable 'x' would shadow the variable 'x'");
    CHECK_ERROR(error_of("sum(c=0:4, v[c])"), "t.yaml:5:15: problem.objective: index variable 'c' would shadow the constant 'c'");
    CHECK_ERROR(error_of("sum(i=0:2, sum(i=0:2, w[i]))"),
                "t.yaml:5:26: problem.objective: index variable 'i' would shadow the index of an enclosing reduction");
    CHECK_ERROR(error_of("sum(sin=0:2, w[sin])"), "t.yaml:5:15: problem.objective: 'sin' is reserved (a function)");
    CHECK_ERROR(error_of("sum(e=0:2, w[e])"), "t.yaml:5:15: problem.objective: 'e' is reserved (a built-in constant)");
    CHECK_ERROR(error_of("sum(sum=0:2, w[0])"), "t.yaml:5:15: problem.objective: 'sum' is reserved (a reduction)");
    CHECK_NOTHROW(parse("sum(i=0:2, w[i]) + sum(i=0:4, v[i])"));  // scopes end with their reduction
  }
  SECTION("reduction syntax") {
    CHECK_ERROR(error_of("sum(i=0, x)"), "t.yaml:5:18: problem.objective: unexpected ','; expected ':' between the bounds of 'sum'");
    CHECK_ERROR(error_of("sum(i=0:4 v[i])"), "t.yaml:5:21: problem.objective: unexpected name 'v'; expected ',' before the body");
    CHECK_ERROR(error_of("sum(i=0:4, v[i]"), "t.yaml:5:26: problem.objective: unexpected end of text; expected ')' to close 'sum('");
    CHECK_ERROR(error_of("sum(v)"), "t.yaml:5:15: problem.objective: unexpected name 'v'; expected an index as in sum(i=0:4, x[i])");
    CHECK_ERROR(error_of("sum + 1"), "t.yaml:5:15: problem.objective: unexpected '+' after 'sum'; expected '(' as in sum(i=a:b, expr)");
  }
}

TEST_CASE("precedence and associativity", "[parse]") {
  SECTION("printed form") {
    CHECK(printed("-x^2") == "-x^2");
    CHECK(printed("(-x)^2") == "(-x)^2");
    CHECK(printed("2^3^2") == "2^3^2");
    CHECK(printed("(2^3)^2") == "(2^3)^2");
    CHECK(printed("2^-1") == "2^-1");
    CHECK(printed("2^-x^2") == "2^-x^2");
    CHECK(printed("x**2**y") == "x^2^y");
    CHECK(printed("pow(x, y + 1)") == "x^(y + 1)");
    CHECK(printed("x - y - z") == "x - y - z");
    CHECK(printed("x - (y - z)") == "x - (y - z)");
    CHECK(printed("x + (y + z)") == "x + (y + z)");  // kept: the rounding differs from x + y + z
    CHECK(printed("((x)) + ((y*z))") == "x + y*z");
    CHECK(printed("(x + y)*z") == "(x + y)*z");
    CHECK(printed("x/y/z") == "x/y/z");
    CHECK(printed("x/(y*z)") == "x/(y*z)");
    CHECK(printed("x*-y") == "x*-y");
    CHECK(printed("x - -y") == "x - -y");
    CHECK(printed("-(x + y)") == "-(x + y)");
    CHECK(printed("-x*y") == "-x*y");
    CHECK(printed("-(x*y)") == "-(x*y)");
    CHECK(printed("+x") == "x");
    CHECK(printed("(x+y)^(1/2)") == "(x + y)^(1/2)");
    CHECK(printed("atan2(y, x)") == "atan2(y, x)");
  }
  SECTION("tree structure") {
    const program neg = parse("-x^2");  // -(x^2)
    CHECK(root(neg).kind == node_kind::negate);
    CHECK(at(neg, root(neg).a).kind == node_kind::power);

    const program right = parse("2^3^2");  // 2^(3^2)
    CHECK(root(right).kind == node_kind::power);
    CHECK(at(right, root(right).a).value == 2);
    CHECK(at(right, root(right).b).kind == node_kind::power);

    const program left = parse("x - y - z");  // (x - y) - z
    CHECK(root(left).kind == node_kind::subtract);
    CHECK(at(left, root(left).a).kind == node_kind::subtract);
    CHECK(at(left, root(left).b).name == "z");

    const program mixed = parse("x + y*z^2");
    CHECK(root(mixed).kind == node_kind::add);
    CHECK(at(mixed, root(mixed).b).kind == node_kind::multiply);
    CHECK(at(mixed, at(mixed, root(mixed).b).b).kind == node_kind::power);

    const program unary_product = parse("-x*y");  // (-x)*y
    CHECK(root(unary_product).kind == node_kind::multiply);
    CHECK(at(unary_product, root(unary_product).a).kind == node_kind::negate);

    const program exponent = parse("2^-1");
    CHECK(root(exponent).kind == node_kind::power);
    CHECK(at(exponent, root(exponent).b).kind == node_kind::negate);

    for (const char* text : {"pow(x, 3)", "x**3", "x^3"}) {
      const program p = parse(text);
      CHECK(root(p).kind == node_kind::power);
      CHECK(at(p, root(p).a).name == "x");
      CHECK(at(p, root(p).b).value == 3);
    }
  }
}

TEST_CASE("printing round-trips", "[parse]") {
  for (const char* text : {"x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z", "sin(x) + x^2 - 2*cos(y) + y^2 + z^2", "-x^2 - -y + (-z)^3",
                           "x/(y/z) - (x - y) + (x + y)", "2^-x^2^-y", "sqrt(abs(x - y)) + log10(exp(z)) + floor(x)*ceil(y)",
                           "atan2(y, x) + min(x, y) - max(x, -y)", "pi*e*c/half", "sum(i=0:4, prod(j=0:i, v[j]^i))",
                           "min(i=1:c, w[i]*w[i-1])", "0.1 + 1e-05 + 3e+20 + 2.5", "x*(y*z)", "(x*y)*z", "--x",
                           "tan(x)^2 + asin(half) + acos(half) + atan(y)"}) {
    INFO(text);
    const program first = parse(text);
    const std::string once = to_string(first, first.objective);
    const program second = parse(once);
    CHECK(to_string(second, second.objective) == once);
    REQUIRE(second.nodes.size() == first.nodes.size());
    for (std::size_t k = 0; k < first.nodes.size(); ++k) {
      CHECK(second.nodes[k].kind == first.nodes[k].kind);
      CHECK(second.nodes[k].value == first.nodes[k].value);
      CHECK(second.nodes[k].a == first.nodes[k].a);
      CHECK(second.nodes[k].b == first.nodes[k].b);
      CHECK(second.nodes[k].c == first.nodes[k].c);
    }
  }
}

TEST_CASE("constants are folded, pi and e are numbers", "[parse]") {
  const program p = parse("c*x + pi + e");
  const node& c = at(p, at(p, at(p, root(p).a).a).a);
  CHECK(c.kind == node_kind::number);
  CHECK(c.value == 2);
  CHECK(c.name == "c");
  CHECK(c.integer);
  const node& pi = at(p, at(p, root(p).a).b);
  CHECK(pi.kind == node_kind::number);
  CHECK(pi.value == Approx(3.141592653589793).epsilon(1e-16));
  CHECK(pi.name == "pi");
  CHECK(!pi.integer);
  CHECK(at(p, root(p).b).value == Approx(2.718281828459045).epsilon(1e-16));
  CHECK(to_string(p, p.objective) == "c*x + pi + e");
  CHECK(root(parse("half")).value == 0.5);
}

TEST_CASE("numbers: decimal and scientific literals", "[parse]") {
  const std::vector<std::pair<const char*, double>> cases = {{"1", 1},     {"2.5", 2.5},   {".5", 0.5},  {"1e-3", 1e-3},
                                                             {"3E+2", 300}, {"1.", 1},     {"1.5e2", 150}, {"007", 7}};
  for (const auto& [text, value] : cases) {
    INFO(text);
    const program p = parse(text);
    CHECK(root(p).kind == node_kind::number);
    CHECK(root(p).value == value);
  }
  CHECK_ERROR(error_of("x + 1e"), "t.yaml:5:15: problem.objective: malformed number '1e'");
  CHECK_ERROR(error_of("1.2.3"), "t.yaml:5:11: problem.objective: malformed number '1.2.3'");
  CHECK_ERROR(error_of("0x1F"), "t.yaml:5:11: problem.objective: malformed number '0x1F'");
  CHECK(error_of("0x1F").find("hexadecimal") != std::string::npos);
  CHECK_ERROR(error_of("2x"), "t.yaml:5:11: problem.objective: malformed number '2x'");
  CHECK(error_of("2x").find("write 2*x") != std::string::npos);
  CHECK_ERROR(error_of("1e+"), "t.yaml:5:11: problem.objective: malformed number '1e'");
  CHECK_ERROR(error_of("1e999"), "t.yaml:5:11: problem.objective: number '1e999' is outside the range of a double");
  CHECK_ERROR(error_of("inf"), "t.yaml:5:11: problem.objective: unknown name 'inf' (only finite numbers are allowed)");
  CHECK_ERROR(error_of("x*NaN"), "t.yaml:5:13: problem.objective: unknown name 'NaN' (only finite numbers are allowed)");
  CHECK_ERROR(error_of("x + ."), "t.yaml:5:15: problem.objective: unexpected '.'");
}

TEST_CASE("the integer flag marks integer expressions of literals, constants and indices", "[parse]") {
  const program p = parse("sum(i=0:2, v[2*i - c + 2]*i) + 2.5 + x");
  const node& reduce = at(p, at(p, root(p).a).a);
  REQUIRE(reduce.kind == node_kind::reduce);
  const node& body = at(p, reduce.c);
  CHECK(at(p, at(p, body.a).a).integer);  // v[...]'s index
  CHECK(!at(p, body.a).integer);          // the gene v[...]
  CHECK(at(p, body.b).integer);           // i as a factor
  CHECK(!body.integer);                   // a gene times i
  CHECK(at(p, reduce.a).integer);         // bounds
  CHECK(!at(p, at(p, root(p).a).b).integer);  // 2.5
  CHECK(!root(p).integer);
}

TEST_CASE("constraints are normalized to g <= 0 and h == 0", "[parse]") {
  const program p = parse("x", {"x + y <= 3", "x >= y*2", "x - 1 == y", "x < 4", "y > 1"});
  REQUIRE(p.constraints.size() == 5);
  const auto check = [&](std::size_t k, constraint_kind kind, const std::string& normalized, const char* lhs_name) {
    const constraint& c = p.constraints[k];
    CHECK(c.kind == kind);
    CHECK(to_string(p, c.root) == normalized);
    CHECK(at(p, c.root).kind == node_kind::subtract);
    CHECK(c.where.line == 5);
    CHECK(c.where.column == 11);
    CHECK(to_string(p, at(p, c.root).a).rfind(lhs_name, 0) == 0);
  };
  check(0, constraint_kind::inequality, "x + y - 3", "x");  // lhs - rhs
  check(1, constraint_kind::inequality, "y*2 - x", "y");    // rhs - lhs
  check(2, constraint_kind::equality, "x - 1 - y", "x");    // lhs - rhs
  check(3, constraint_kind::inequality, "x - 4", "x");      // < as <=
  check(4, constraint_kind::inequality, "1 - y", "1");      // > as >=
  CHECK(p.inequality_count() == 4);
  CHECK(p.equality_count() == 1);
  CHECK(p.constraints[1].text == "x >= y*2");
  const program zero_rhs = parse("x", {"x*y - 3 <= 0", "0 >= y"});
  CHECK(to_string(zero_rhs, zero_rhs.constraints[0].root) == "x*y - 3 - 0");  // the program keeps lhs - rhs
  CHECK(describe(zero_rhs).find("g1(x) = x*y - 3 <= 0  # from \"x*y - 3 <= 0\"\ng2(x) = y <= 0") != std::string::npos);
  CHECK(describe(p) ==
        "variables (11 genes): x in [1, 25]; y in [3, 7]; z in [-25, 0]; v[0..4] in [0, 1]; w[0..2] in [-1, 1]\n"
        "objective (minimize): x\n"
        "g1(x) = x + y - 3 <= 0               # from \"x + y <= 3\"\n"
        "g2(x) = y*2 - x <= 0                 # from \"x >= y*2\"\n"
        "h1(x) = x - 1 - y == 0 (|h| <= eps)  # from \"x - 1 == y\"\n"
        "g3(x) = x - 4 <= 0                   # from \"x < 4\"\n"
        "g4(x) = 1 - y <= 0                   # from \"y > 1\"\n");
}

TEST_CASE("constraint errors: empty sides, missing or repeated comparisons", "[parse]") {
  const auto constraint_error = [](const std::string& text) { return error_of("x", {"x <= 1", text}); };
  CHECK_ERROR(constraint_error("<= 3"), "t.yaml:5:11: problem.constraints[1]: empty left-hand side before '<='");
  CHECK_ERROR(constraint_error("x + y >="), "t.yaml:5:17: problem.constraints[1]: empty right-hand side after '>='");
  CHECK_ERROR(constraint_error("x + y"),
              "t.yaml:5:16: problem.constraints[1]: expected a comparison '<=', '>=' or '==' in a constraint, got end of text");
  CHECK_ERROR(constraint_error("0 <= x <= 1"),
              "t.yaml:5:18: problem.constraints[1]: unexpected second comparison '<='; a constraint has exactly one");
  CHECK_ERROR(constraint_error("x = 1"), "t.yaml:5:13: problem.constraints[1]: unexpected '='; a constraint compares with");
  CHECK_ERROR(constraint_error("x != 1"), "t.yaml:5:13: problem.constraints[1]: '!=' is not supported");
  CHECK_ERROR(constraint_error(""), "t.yaml:5:11: problem.constraints[1]: empty constraint");
  CHECK_ERROR(constraint_error("x <= 1 2"), "t.yaml:5:18: problem.constraints[1]: unexpected number '2'; expected an operator");
  CHECK_ERROR(error_of("x <= 1"), "t.yaml:5:13: problem.objective: unexpected '<=' in the objective; comparisons belong in constraints");
}

TEST_CASE("syntax errors name the token and what was expected", "[parse]") {
  CHECK_ERROR(error_of("x + y)"), "t.yaml:5:16: problem.objective: unexpected ')'; expected an operator or the end of the expression");
  CHECK_ERROR(error_of("(x + y"), "t.yaml:5:17: problem.objective: unexpected end of text; expected ')' to close the '(' at 5:11");
  CHECK_ERROR(error_of("x + * y"), "t.yaml:5:15: problem.objective: unexpected '*'; expected a number, a name, '(' or '-'");
  CHECK_ERROR(error_of("x +"), "t.yaml:5:14: problem.objective: unexpected end of text; expected a number, a name, '(' or '-'");
  CHECK_ERROR(error_of("x y"), "t.yaml:5:13: problem.objective: unexpected name 'y'; expected an operator");
  CHECK_ERROR(error_of("()"), "t.yaml:5:12: problem.objective: unexpected ')'; expected an expression inside '()'");
  CHECK_ERROR(error_of(""), "t.yaml:5:11: problem.objective: empty expression");
  CHECK_ERROR(error_of("   "), "t.yaml:5:14: problem.objective: empty expression");
  CHECK_ERROR(error_of("sin x"), "t.yaml:5:15: problem.objective: unexpected name 'x' after 'sin'; expected '(' as in sin(...)");
  CHECK_ERROR(error_of("sin(x"), "t.yaml:5:16: problem.objective: unexpected end of text; expected ',' or ')' in the arguments of 'sin'");
  CHECK_ERROR(error_of("x % 2"), "t.yaml:5:13: problem.objective: unexpected character '%'");
  CHECK_ERROR(error_of("x ^ ^ 2"), "t.yaml:5:15: problem.objective: unexpected '^'; expected a number, a name");
  CHECK_ERROR(error_of("v[]"), "t.yaml:5:13: problem.objective: unexpected ']'; expected an index");
  CHECK_ERROR(error_of("v[1"), "t.yaml:5:14: problem.objective: unexpected end of text; expected ']' to close the '[' at 5:12");
}

TEST_CASE("unknown names suggest the closest known one", "[parse]") {
  CHECK(error_of("xx + 1") == "t.yaml:5:11: problem.objective: unknown name 'xx' (did you mean 'x'?)");
  CHECK(error_of("x + halg") == "t.yaml:5:15: problem.objective: unknown name 'halg' (did you mean 'half'?)");
  CHECK(error_of("sinn(x)") == "t.yaml:5:11: problem.objective: unknown function 'sinn' (did you mean 'sin'?)");
  CHECK(error_of("x + sqr(y)") == "t.yaml:5:15: problem.objective: unknown function 'sqr' (did you mean 'sqrt'?)");
  CHECK(error_of("summ(i=0:1, x)") == "t.yaml:5:11: problem.objective: unknown function 'summ' (did you mean 'sum'?)");
  CHECK(error_of("sum(i=0:1, x*ii)") == "t.yaml:5:24: problem.objective: unknown name 'ii' (did you mean 'i'?)");
  CHECK(error_of("X + 1") == "t.yaml:5:11: problem.objective: unknown name 'X' (did you mean 'x'?)");
  // One letter: no guess, but the names there are (index variables first, at most 8).
  CHECK(error_of("x + q") == "t.yaml:5:15: problem.objective: unknown name 'q'; the names here are 'x', 'y', 'z', "
                             "'v', 'w', 'c', 'half', 'zero', pi and e");
  CHECK(error_of("sum(i=0:1, q)") == "t.yaml:5:22: problem.objective: unknown name 'q'; the names here are 'i', 'x', "
                                     "'y', 'z', 'v', 'w', 'c', 'half' and 1 more, pi and e");
  CHECK(error_of("x + coss") == "t.yaml:5:15: problem.objective: unknown name 'coss' (did you mean 'cos'?)");
  CHECK_ERROR(error_of("x + banana"), "t.yaml:5:15: problem.objective: unknown name 'banana'; the names here are 'x'");
  CHECK(error_of("x(2)") == "t.yaml:5:11: problem.objective: 'x' is a variable, not a function (write x*(...) for a product)");
  CHECK(error_of("c(2)") == "t.yaml:5:11: problem.objective: 'c' is a constant, not a function (write c*(...) for a product)");
  CHECK(error_of("pi(2)") == "t.yaml:5:11: problem.objective: 'pi' is a built-in constant, not a function (write pi*(...) for a product)");
  CHECK(error_of("sum(i=0:1, i(2))") ==
        "t.yaml:5:22: problem.objective: 'i' is an index variable, not a function (write i*(...) for a product)");
}

TEST_CASE("wrong arity", "[parse]") {
  CHECK(error_of("sin(x, y)") == "t.yaml:5:11: problem.objective: 'sin' takes 1 argument, got 2");
  CHECK(error_of("x + atan2(x)") == "t.yaml:5:15: problem.objective: 'atan2' takes 2 arguments, got 1");
  CHECK(error_of("pow(x)") == "t.yaml:5:11: problem.objective: 'pow' takes 2 arguments, got 1");
  CHECK(error_of("exp()") == "t.yaml:5:11: problem.objective: 'exp' takes 1 argument, got 0");
  CHECK(error_of("min(x)") ==
        "t.yaml:5:11: problem.objective: 'min' takes 2 arguments (or min(i=a:b, expr) for a reduction), got 1");
  CHECK(error_of("max(x, y, z)") ==
        "t.yaml:5:11: problem.objective: 'max' takes 2 arguments (or max(i=a:b, expr) for a reduction), got 3");
}

TEST_CASE("vectors must be indexed, scalars and constants must not", "[parse]") {
  CHECK_ERROR(error_of("x + v"), "t.yaml:5:15: problem.objective: 'v' is a vector of 5 elements; expected an index such as v[0]");
  CHECK_ERROR(error_of("x[0]"), "t.yaml:5:12: problem.objective: 'x' is a scalar variable and cannot be indexed");
  CHECK_ERROR(error_of("c[0]"), "t.yaml:5:12: problem.objective: 'c' is a constant and cannot be indexed");
  CHECK_ERROR(error_of("pi[0]"), "t.yaml:5:13: problem.objective: 'pi' is a built-in constant and cannot be indexed");
  CHECK_ERROR(error_of("sum(i=0:1, i[0])"), "t.yaml:5:23: problem.objective: 'i' is an index variable and cannot be indexed");
}

TEST_CASE("indices must be integer expressions", "[parse]") {
  CHECK_ERROR(error_of("v[0.5]"),
              "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression (integers, integer constants and "
              "reduction indices with + - *): 0.5 is not an integer");
  CHECK_ERROR(error_of("v[y]"), "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression");
  CHECK(error_of("v[y]").find("'y' is a variable, not an integer") != std::string::npos);
  CHECK_ERROR(error_of("v[1 + half]"), "t.yaml:5:17: problem.objective: the index of 'v' must be an integer expression");
  CHECK_ERROR(error_of("v[4/2]"), "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression");
  CHECK_ERROR(error_of("v[2^1]"), "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression");
  CHECK_ERROR(error_of("v[abs(1)]"), "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression");
  CHECK_ERROR(error_of("sum(i=0:1, v[sum(j=0:1, j)])"), "t.yaml:5:24: problem.objective: the index of 'v' must be an integer expression");
  CHECK_NOTHROW(parse("v[-1 + 2] + v[(c)] + v[c*c - 1]"));
}

TEST_CASE("division by a literal zero", "[parse]") {
  CHECK(error_of("x/0") == "t.yaml:5:13: problem.objective: division by zero");
  CHECK(error_of("x/(0)") == "t.yaml:5:14: problem.objective: division by zero");
  CHECK(error_of("x/0.0e3") == "t.yaml:5:13: problem.objective: division by zero");
  CHECK(error_of("x/-0") == "t.yaml:5:13: problem.objective: division by zero");
  CHECK(error_of("x/zero") == "t.yaml:5:13: problem.objective: division by zero: 'zero' is 0");
  CHECK(error_of("x", {"y/0 <= 1"}) == "t.yaml:5:13: problem.constraints[0]: division by zero");
  CHECK_NOTHROW(parse("x/(c - c)"));  // only literal (or constant) zeros are caught
}

TEST_CASE("a constraint that reads no variable is an error: always satisfied or always violated", "[parse]") {
  const std::string why = "the constraint reads no variable, so it is always satisfied or always violated";
  CHECK(error_of("x", {"3 <= 2"}) ==
        "t.yaml:5:11: problem.constraints[0]: " + why + "; expected a constraint on the variables");
  CHECK_ERROR(error_of("x", {"x <= 1", "c * half >= sin(zero)"}), "t.yaml:5:11: problem.constraints[1]: " + why);
  CHECK_NOTHROW(parse("x", {"0 * x <= 1", "sum(i=0:4, v[i]) == 1"}));  // a variable read, whatever its weight
}

TEST_CASE("declaration errors are located at the declaration", "[parse]") {
  const auto with_variable = [](variable_decl d) {
    problem_source s = make_source("x");
    s.variables.push_back(std::move(d));
    return error_of(s);
  };
  CHECK(with_variable(scalar("x", 0, 1, 12)) == "t.yaml:12:3: problem.variables.x: duplicate name 'x': already declared as a variable");
  CHECK(with_variable(scalar("sin", 0, 1, 12)) ==
        "t.yaml:12:3: problem.variables.sin: 'sin' is reserved (a function) and cannot name a variable");
  CHECK(with_variable(scalar("pi", 0, 1, 12)) ==
        "t.yaml:12:3: problem.variables.pi: 'pi' is reserved (a built-in constant) and cannot name a variable");
  CHECK(with_variable(scalar("max", 0, 1, 12)) ==
        "t.yaml:12:3: problem.variables.max: 'max' is reserved (a reduction) and cannot name a variable");
  CHECK(with_variable(scalar("2x", 0, 1, 12)) ==
        "t.yaml:12:3: problem.variables.2x: invalid variable name '2x'; names match [A-Za-z_][A-Za-z0-9_]*");
  CHECK(with_variable(scalar("a-b", 0, 1, 12)).rfind("t.yaml:12:3: problem.variables.a-b: invalid variable name 'a-b'", 0) == 0);
  CHECK(with_variable(scalar("u", 2, 1, 12)) ==
        "t.yaml:12:3: problem.variables.u: bounds of 'u' have lower 2 > upper 1; expected lower <= upper");
  CHECK(with_variable(scalar("u", -INFINITY, 1, 12)) == "t.yaml:12:3: problem.variables.u: bounds of 'u' must be finite, got [-inf, 1]");
  CHECK(with_variable(scalar("u", 0, NAN, 12)) == "t.yaml:12:3: problem.variables.u: bounds of 'u' must be finite, got [0, nan]");
  CHECK(with_variable(vector("u", 0, 0, 1, 12)) == "t.yaml:12:3: problem.variables.u: variable 'u' has size 0; expected at least 1");
  variable_decl uneven = vector("u", 3, 0, 1, 12);
  uneven.upper[1] = -1;
  CHECK(with_variable(uneven) == "t.yaml:12:3: problem.variables.u: bounds of 'u[1]' have lower 0 > upper -1; expected lower <= upper");
  uneven = vector("u", 3, 0, 1, 12);
  uneven.lower.pop_back();
  CHECK(with_variable(uneven) ==
        "t.yaml:12:3: problem.variables.u: variable 'u' has 2 lower and 3 upper bounds; expected 3 of each (one per element)");

  problem_source s = make_source("x");
  s.constants.push_back({"y", 1, "problem.constants.y", {14, 3}});
  CHECK(error_of(s) == "t.yaml:14:3: problem.constants.y: duplicate name 'y': already declared as a variable");
  s.constants.back() = {"e", 1, "problem.constants.e", {14, 3}};
  CHECK(error_of(s) == "t.yaml:14:3: problem.constants.e: 'e' is reserved (a built-in constant) and cannot name a constant");
  s.constants.back() = {"k", INFINITY, "problem.constants.k", {14, 3}};
  CHECK(error_of(s) == "t.yaml:14:3: problem.constants.k: constant 'k' must be finite, got inf");
  s.constants.back() = {"c", 1, "problem.constants.c", {14, 3}};
  CHECK(error_of(s) == "t.yaml:14:3: problem.constants.c: duplicate name 'c': already declared as a constant");

  problem_source none = make_source("1");
  none.variables.clear();
  CHECK(error_of(none) == "t.yaml: problem.variables: expected at least one variable");
}

TEST_CASE("locations follow the text into the file, across lines", "[parse]") {
  problem_source s = make_source("x +\n  y +\n\tq");
  CHECK_ERROR(error_of(s), "t.yaml:7:2: problem.objective: unknown name 'q'; the names here are 'x'");
  s.objective.text = "x + y\r\n + )";
  CHECK_ERROR(error_of(s), "t.yaml:6:4: problem.objective: unexpected ')'");
  s.objective = {"x ++ )", "problem.objective", {0, 0}};  // unknown position: counted within the text
  CHECK_ERROR(error_of(s), "t.yaml:1:6: problem.objective: unexpected ')'");
  s.objective = {"x +", "", {3, 4}};
  s.file.clear();
  CHECK_ERROR(error_of(s), "<input>:3:7: unexpected end of text");
}

TEST_CASE("non-ASCII and control characters are located errors", "[parse]") {
  CHECK(error_of("x + \xC3\xA9") == "t.yaml:5:15: problem.objective: unexpected non-ASCII character U+00E9; expressions are plain ASCII");
  CHECK(error_of("x\xE2\x88\x92y") ==
        "t.yaml:5:12: problem.objective: unexpected non-ASCII character U+2212; expressions are plain ASCII");
  CHECK(error_of("x\xFF") == "t.yaml:5:12: problem.objective: unexpected non-ASCII character byte 0xFF; expressions are plain ASCII");
  CHECK(error_of(std::string("x +\x01y")) == "t.yaml:5:14: problem.objective: unexpected control character 0x01");
  CHECK(error_of(std::string("x\0", 2)) == "t.yaml:5:12: problem.objective: unexpected control character 0x00");
  CHECK(error_of("x $ y") == "t.yaml:5:13: problem.objective: unexpected character '$'; expected a number, a name, an operator "
                             "(+ - * / ^) or a parenthesis");
}

TEST_CASE("nesting depth and expression length are capped", "[parse]") {
  const auto nested = [](int levels) { return std::string(static_cast<std::size_t>(levels), '(') + "x" + std::string(static_cast<std::size_t>(levels), ')'); };
  CHECK_NOTHROW(parse(nested(200)));
  CHECK_ERROR(error_of(nested(300)), "t.yaml:5:267: problem.objective: expression nested too deeply (more than 256 levels)");
  CHECK_ERROR(error_of(nested(100000)), "t.yaml:5:267: problem.objective: expression nested too deeply");
  CHECK_ERROR(error_of(std::string(100000, '-') + "x"), "t.yaml:5:");
  CHECK(error_of(std::string(100000, '-') + "x").find("nested too deeply") != std::string::npos);
  std::string powers = "x";
  for (int k = 0; k < 1000; ++k) powers += "^x";
  CHECK(error_of(powers).find("nested too deeply") != std::string::npos);
  std::string nested_calls;
  for (int k = 0; k < 1000; ++k) nested_calls += "sin(";
  CHECK(error_of(nested_calls + "x" + std::string(1000, ')')).find("nested too deeply") != std::string::npos);

  std::string chain = "x";
  for (int k = 0; k < 1000; ++k) chain += " + x";
  CHECK_NOTHROW(parse(chain));
  for (int k = 0; k < 1000; ++k) chain += " + x";
  CHECK(error_of(chain).find("expression too long: more than 1024 nested operations") != std::string::npos);
}

TEST_CASE("messages never echo more than the offending token", "[parse]") {
  const std::string long_name(500, 'a');
  const std::string message = error_of("x + " + long_name);
  CHECK_ERROR(message, "t.yaml:5:15: problem.objective: unknown name '" + std::string(40, 'a') + "...'; the names");
  CHECK(message.find(std::string(41, 'a')) == std::string::npos);
}

TEST_CASE("reductions: work per individual is bounded at 10^7 iterations", "[parse][limits]") {
  // The case: 100001 * (1 + 100001) iterations, located at the outer sum (column 11).
  CHECK_ERROR(error_of("sum(i=0:100000, sum(j=0:100000, x))"),
              "t.yaml:5:11: problem.objective: 'sum(i=0:100000, ...)' runs 10000300002 loop iterations per individual, "
              "nested reductions included; the limit is 10000000 per individual");
  // Exactly at the limit: 1000 * (1 + 9999) = 10^7 passes; one more inner iteration does not.
  CHECK_NOTHROW(parse("sum(i=0:999, sum(j=0:9998, x))"));
  CHECK_ERROR(error_of("sum(i=0:999, sum(j=0:9999, x))"), "t.yaml:5:11: problem.objective: 'sum(i=0:999, ...)' runs 10001000");
  // The widest range the bounds reach counts (j from 0 to 4 * 2^20 for some i), and an inner reduction is
  // located where it alone exceeds the limit.
  CHECK_ERROR(error_of("x + prod(i=0:3, max(j=0:4*(i+1)*1048576, x))"),
              "t.yaml:5:27: problem.objective: 'max(j=0:16777216, ...)' runs 16777217 loop iterations");
  // Objective and constraints together: 6 * 2 * 10^6 > 10^7, located at the text that brings the total over.
  const std::string big = "sum(i=0:1999999, x)";
  CHECK_NOTHROW(parse(big, {big + " <= 1", big + " <= 1", big + " <= 1", big + " <= 1"}));
  CHECK_ERROR(error_of(big, {big + " <= 1", big + " <= 1", big + " <= 1", big + " <= 1", big + " <= 1"}),
              "t.yaml:5:11: problem.constraints[4]: the reductions of the objective and constraints so far run 12000000 "
              "loop iterations per individual (2000000 in this one); the limit is 10000000");
}

namespace {

/// make_source with the table constant wire = [0.5, 1.25, 2] declared at line 11.
problem_source with_table(const std::string& objective, std::optional<std::vector<double>> values = std::vector<double>{0.5, 1.25, 2}) {
  problem_source s = make_source(objective);
  s.constants.push_back({"wire", 0, "problem.constants.wire", {11, 3}, std::move(values)});
  return s;
}

}  // namespace

TEST_CASE("table constants: any expression indexes them, printed back as T[...]", "[parse][table]") {
  const program p = parse_program(with_table("wire[x - 1] * y + wire[v[0] + sum(i=0:1, w[i])] + wire[c]"));
  REQUIRE(p.tables.size() == 1);
  CHECK(p.tables[0].name == "wire");
  CHECK(p.tables[0].values == std::vector<double>{0.5, 1.25, 2});
  CHECK(p.tables[0].where.line == 11);
  const node& first = at(p, at(p, at(p, at(p, p.objective).a).a).a);
  CHECK(first.kind == node_kind::lookup);
  CHECK(first.slot == 0);
  CHECK(first.name == "wire");
  CHECK(first.where.column == 11);
  CHECK(at(p, first.a).kind == node_kind::subtract);
  CHECK_FALSE(first.integer);
  const node& constant_index = at(p, at(p, p.objective).b);
  CHECK(constant_index.kind == node_kind::lookup);  // a literal index stays a lookup (the evaluators fold it)
  CHECK(at(p, constant_index.a).value == 2);
  CHECK(to_string(p, p.objective) == "wire[x - 1]*y + wire[v[0] + sum(i=0:1, w[i])] + wire[c]");
  CHECK(describe(p).find("tables: wire = [0.5, 1.25, 2] (3 entries)") != std::string::npos);
  // Nested lookups, and lookups inside reductions and as function arguments.
  const program q = parse_program(with_table("sum(i=0:2, wire[i] * v[i]) + wire[wire[x]] - sin(wire[-y])"));
  CHECK(to_string(q, q.objective) == "sum(i=0:2, wire[i]*v[i]) + wire[wire[x]] - sin(wire[-y])");
}

TEST_CASE("table constants: located errors for their use", "[parse][table]") {
  const auto error = [](const std::string& objective) { return error_of(with_table(objective)); };
  CHECK(error("x + wire") == "t.yaml:5:15: problem.objective: table constant 'wire' must be indexed: wire[k]");
  CHECK(error("wire + 1") == "t.yaml:5:11: problem.objective: table constant 'wire' must be indexed: wire[k]");
  CHECK(error("wire[]") == "t.yaml:5:16: problem.objective: unexpected ']'; expected an index");
  CHECK(error("wire[x") == "t.yaml:5:17: problem.objective: unexpected end of text; expected ']' to close the '[' at 5:15");
  CHECK(error("wire(2)") ==
        "t.yaml:5:11: problem.objective: 'wire' is a table constant, not a function (write wire[k] for its entry k)");
  CHECK(error("x + wirre[0]") == "t.yaml:5:15: problem.objective: unknown name 'wirre' (did you mean 'wire'?)");
  CHECK(error("sum(wire=0:1, x)") ==
        "t.yaml:5:15: problem.objective: index variable 'wire' would shadow the constant 'wire'; choose another name");
  CHECK_ERROR(error("v[wire[0]]"),
              "t.yaml:5:13: problem.objective: the index of 'v' must be an integer expression (integers, integer constants and "
              "reduction indices with + - *): a table lookup 'wire[...]' is not allowed in an integer expression");
  CHECK_ERROR(error("sum(i=0:wire[1], x)"), "t.yaml:5:19: problem.objective: the upper bound of 'sum' must be an integer expression");
  CHECK(error("c[0]") == "t.yaml:5:12: problem.objective: 'c' is a constant and cannot be indexed");  // scalars stay scalars
}

TEST_CASE("table constants: declaration errors are located at the declaration", "[parse][table]") {
  CHECK(error_of(with_table("x", std::vector<double>{})) ==
        "t.yaml:11:3: problem.constants.wire: table constant 'wire' is empty; expected a list of at least one number");
  CHECK(error_of(with_table("x", std::vector<double>{1, 2, INFINITY})) ==
        "t.yaml:11:3: problem.constants.wire: entry 2 of table constant 'wire' must be finite, got inf");
  CHECK(error_of(with_table("x", std::vector<double>{NAN})) ==
        "t.yaml:11:3: problem.constants.wire: entry 0 of table constant 'wire' must be finite, got nan");
  CHECK(error_of(with_table("x", std::vector<double>(max_table_entries + 1, 1.0))) ==
        "t.yaml:11:3: problem.constants.wire: table constant 'wire' has 65537 entries; at most 65536 are allowed");
  CHECK_NOTHROW(parse_program(with_table("wire[x]", std::vector<double>(max_table_entries, 1.0))));
  // Names clash as for number constants.
  problem_source s = with_table("x");
  s.constants.back().name = "y";
  CHECK(error_of(s) == "t.yaml:11:3: problem.constants.wire: duplicate name 'y': already declared as a variable");
  s = with_table("x");
  s.constants.push_back({"wire", 1, "problem.constants.wire", {12, 3}});
  CHECK(error_of(s) == "t.yaml:12:3: problem.constants.wire: duplicate name 'wire': already declared as a constant");
  s = with_table("x");
  s.constants.back().name = "sum";
  CHECK(error_of(s) == "t.yaml:11:3: problem.constants.wire: 'sum' is reserved (a reduction) and cannot name a constant");
}
