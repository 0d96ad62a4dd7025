// Rank keys must order individuals exactly as Deb's feasibility rules (or the penalty) say.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cmath>
#include <limits>

#include <fusedga/core/rank_key.hpp>

using fusedga::constraint_rule;
using fusedga::make_rank_key;
using fusedga::Sense;

TEMPLATE_TEST_CASE("feasibility rules: feasible < infeasible, objective then violation", "[rank_key]", float, double) {
  const auto key = [](TestType f, TestType v, Sense s = Sense::minimize) {
    return make_rank_key<TestType>(f, v, s, constraint_rule::feasibility_rules, TestType(1));
  };
  // two feasible: by objective (minimize), negative and positive values
  CHECK(key(-5, 0) < key(-4, 0));
  CHECK(key(-1, 0) < key(0, 0));
  CHECK(key(0, 0) < key(3, 0));
  CHECK(key(3, 0) < key(1e30f, 0));
  // maximize flips the objective order
  CHECK(key(5, 0, Sense::maximize) < key(4, 0, Sense::maximize));
  CHECK(key(1, 0, Sense::maximize) < key(-1, 0, Sense::maximize));
  // feasible beats any infeasible, whatever the objective
  CHECK(key(1e30f, 0) < key(-1e30f, TestType(1e-6)));
  // two infeasible: by violation only
  CHECK(key(100, 1) < key(-100, 2));
  CHECK(key(-100, TestType(0.5)) < key(100, 1));
  // NaN is worst
  const TestType nan = std::numeric_limits<TestType>::quiet_NaN();
  CHECK(key(1e30f, 1e30f) < key(nan, 0));
  CHECK(key(0, 1e30f) < key(0, nan));
  // An objective infinitely good in its sense (log(0) somewhere in the box) is worst too: it would beat every
  // finite individual and leave the run without a usable best. Infinitely bad ones simply rank last.
  const TestType inf = std::numeric_limits<TestType>::infinity();
  CHECK(key(-inf, 0) == ~fusedga::rank_key_t<TestType>(0));
  CHECK(key(inf, 0, Sense::maximize) == ~fusedga::rank_key_t<TestType>(0));
  CHECK(key(1e30f, 1e30f) < key(-inf, 0));
  CHECK(key(1e30f, 0) < key(inf, 0));
  CHECK(key(inf, 0) < key(0, 1));  // feasible still beats infeasible
  CHECK(key(-inf, 0, Sense::maximize) < key(-inf, 0));
}

TEST_CASE("penalty: objective + weight * violation, no feasibility flag", "[rank_key]") {
  const auto key = [](double f, double v) { return make_rank_key<double>(f, v, Sense::minimize, constraint_rule::penalty, 10.0); };
  CHECK(key(1, 0.05) < key(2, 0));   // 1.5 < 2: an infeasible individual can win
  CHECK(key(2, 0) < key(1, 0.2));    // 2 < 3
  // -inf + weight * inf is NaN: worst, never best
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(key(0, 0) < key(-inf, inf));
  CHECK(key(-inf, inf) == ~std::uint64_t(0));
}
