// The operator table (operators/catalog.hpp): one row per kind in enum order,
// unique names, defaults inside their ranges and equal to ga_options' own,
// every parameter held by a ga_options field, the gene kinds of each
// operator, and the range wording that error messages use.
#include <catch2/catch.hpp>
#include <fstream>
#include <fusedga/engine/operator_parameters.hpp>
#include <fusedga/engine/options.hpp>
#include <fusedga/operators/catalog.hpp>
#include <fusedga/operators/operator_text.hpp>
#include <set>
#include <sstream>
#include <string>
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga;

namespace {

/// The defaults of ga_options, family by family, for parameter_value.
template <class F>
void for_each_family_options(F&& f) {
  const ga_options o;
  f(selection_family, o.selection);
  f(crossover_family, o.crossover);
  f(mutation_family, o.mutation);
  f(constraint_family, o.constraints);
  f(survival_family, o.survival);
  f(de_family, o.de);
}

}  // namespace

TEST_CASE("operator table: one row per kind, in enum order", "[catalog]") {
  CHECK(selection_family.rows.size() == 1);
  CHECK(crossover_family.rows.size() == 5);
  CHECK(mutation_family.rows.size() == 4);
  CHECK(constraint_family.rows.size() == 5);
  for (const operator_family* f : operator_families)
    for (int i = 0; i < f->rows.size(); ++i) CHECK(f->rows[i].kind == i);
  CHECK(std::string(to_string(crossover_kind::blx_alpha)) == "blx-alpha");
  CHECK(std::string(to_string(crossover_kind::two_point)) == "two-point");
  CHECK(std::string(to_string(mutation_kind::uniform_reset)) == "uniform-reset");
  CHECK(std::string(to_string(constraint_rule::feasibility_rules)) == "feasibility-rules");
  CHECK(std::string(to_string(constraint_rule::self_adaptive_penalty)) == "self-adaptive-penalty");
  CHECK(find_operator(mutation_family, "creep") == &spec_of(mutation_kind::creep));
  CHECK(find_operator(mutation_family, "sbx") == nullptr);
}

TEST_CASE("operator table: names unique, sources and summaries present", "[catalog]") {
  for (const operator_family* f : operator_families) {
    std::set<std::string> names;
    for (const operator_spec& row : f->rows) {
      CHECK(names.insert(row.name).second);
      CHECK(std::string(row.source).size() > 10);
      CHECK(!std::string(row.summary).empty());
      std::set<std::string> params;
      for (const parameter_spec& p : f->common) params.insert(p.name);
      for (const parameter_spec& p : row.params) CHECK(params.insert(p.name).second);  // no name twice in one row
      // dispatch specs (dispatch.hpp) hold the varied operators' parameters; constraint handlers' and DE's live in options
      if (f == &crossover_family || f == &mutation_family) CHECK(row.params.size() <= kMaxOperatorParams);
    }
  }
}

TEST_CASE("operator table: defaults lie in their ranges and equal ga_options defaults", "[catalog]") {
  const double population = double(ga_options{}.population);
  for_each_family_options([&](const operator_family& f, const auto& options) {
    const auto check = [&](const parameter_spec& p) {
      INFO(f.section << "." << p.name);
      CHECK(p.contains(p.default_value, population));
      const std::optional<double> v = parameter_value(options, p.name);
      if (p.allows_auto && p.default_text) {
        CHECK_FALSE(v.has_value());  // the default is auto
      } else {
        REQUIRE(v.has_value());
        CHECK(*v == p.default_value);
      }
    };
    for (const parameter_spec& p : f.common) check(p);
    for (const operator_spec& row : f.rows)
      for (const parameter_spec& p : row.params) check(p);
  });
}

TEST_CASE("operator table: every parameter is a ga_options field", "[catalog]") {
  for_each_family_options([&](const operator_family& f, auto options) {
    for (const operator_spec& row : f.rows)
      for (const parameter_spec& p : row.params) {
        INFO(f.section << "." << p.name);
        REQUIRE(set_parameter(options, p.name, 3.0));
        CHECK(parameter_value(options, p.name) == 3.0);
      }
    CHECK_FALSE(set_parameter(options, "no-such-parameter", 1.0));
  });
}

TEST_CASE("operator table: gene kinds of each operator", "[catalog]") {
  CHECK(accepts(crossover_kind::sbx, true));
  CHECK_FALSE(accepts(crossover_kind::sbx, false));
  CHECK_FALSE(accepts(crossover_kind::blx_alpha, false));
  for (auto k : {crossover_kind::uniform, crossover_kind::one_point, crossover_kind::two_point}) {
    CHECK(accepts(k, true));
    CHECK(accepts(k, false));
  }
  CHECK(accepts(mutation_kind::polynomial, true));
  CHECK_FALSE(accepts(mutation_kind::polynomial, false));
  CHECK_FALSE(accepts(mutation_kind::gaussian, false));
  CHECK(accepts(mutation_kind::uniform_reset, false));
  CHECK(accepts(mutation_kind::uniform_reset, true));
  CHECK(accepts(mutation_kind::creep, false));
  CHECK_FALSE(accepts(mutation_kind::creep, true));
  CHECK(operator_names(crossover_family, false) == "uniform, one-point, two-point");
  CHECK(operator_names(mutation_family, true) == "polynomial, gaussian, uniform-reset");
  CHECK(operator_names(mutation_family, false) == "uniform-reset, creep");
}

TEST_CASE("operator table: range wording of parameters", "[catalog]") {
  const auto param = [](const operator_family& f, const char* name) {
    for (const parameter_spec& p : f.common)
      if (std::string(p.name) == name) return p;
    for (const operator_spec& row : f.rows)
      for (const parameter_spec& p : row.params)
        if (std::string(p.name) == name) return p;
    FAIL("no parameter " << name);
    return parameter_spec{};
  };
  CHECK(parameter_range_text(param(crossover_family, "rate")) == "a number in [0, 1]");
  CHECK(parameter_range_text(param(mutation_family, "rate")) == "a number in [0, 1] or auto");
  CHECK(parameter_range_text(param(crossover_family, "eta")) == "a number >= 0");
  CHECK(parameter_range_text(param(mutation_family, "sigma")) == "a number > 0");
  CHECK(parameter_range_text(param(mutation_family, "step")) == "an integer >= 1");
  CHECK(parameter_range_text(param(selection_family, "size"), 10) == "an integer in [1, population = 10]");
  CHECK(parameter_range_text(param(selection_family, "size")) == "an integer in [1, population]");
  const parameter_spec sigma = param(mutation_family, "sigma");
  CHECK_FALSE(sigma.contains(0));
  CHECK(sigma.contains(1e-9));
  const parameter_spec step = param(mutation_family, "step");
  CHECK_FALSE(step.contains(1.5));
  CHECK_FALSE(step.contains(3e9));
  CHECK(step.contains(7));
  CHECK_FALSE(param(selection_family, "size").contains(11, 10));
  CHECK_FALSE(param(crossover_family, "eta").contains(std::numeric_limits<double>::quiet_NaN()));
}

TEST_CASE("operator table: docs/operators.md shows it as generated", "[catalog][docs]") {
  std::ifstream in(std::string(FUSEDGA_SOURCE_DIR) + "/docs/operators.md");
  REQUIRE(in);
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string table = operator_table_markdown();
  CHECK(doc.str().find(table) != std::string::npos);  // regenerate with: ga-run --list-operators
  for (const operator_family* f : operator_families)
    for (const operator_spec& row : f->rows)
      CHECK(doc.str().find("| `" + std::string(row.name) + "` |") != std::string::npos);
}
