// Rank keys of the dynamic constraint handlers (core/constraint_key.hpp): the
// ε-level order at a given ε, and the self-adaptive penalty's formula on a
// hand-made population whose values pagmo 2.19's cstrs_self_adaptive
// (detail::penalized_udp) gives too: 1, 3, 6.5, 5, 228.07108101176917.
#include <catch2/catch.hpp>
#include <cstdint>
#include <fusedga/core/constraint_key.hpp>
#include <fusedga/engine/constraint_handler.hpp>

using namespace fusedga;

namespace {
std::uint64_t eps_key(double f, double v, double eps) {
  handler_state<double> h{};
  h.epsilon = eps;
  return make_handler_key(f, v, Sense::minimize, constraint_rule::epsilon, 1.0, h);
}
std::uint64_t deb_key(double f, double v) {
  return make_rank_key(f, v, Sense::minimize, constraint_rule::feasibility_rules, 1.0);
}
}  // namespace

TEST_CASE("epsilon key: within eps by objective, else by violation", "[constraint_key]") {
  // ε = 0.5: (f=10, v=0.3) and (f=20, v=0) are both ε-feasible, so the lower objective wins despite its violation.
  CHECK(eps_key(10, 0.3, 0.5) < eps_key(20, 0, 0.5));
  CHECK(eps_key(10, 0.5, 0.5) < eps_key(20, 0, 0.5));      // v == ε counts as within
  CHECK(eps_key(1e9, 0.5, 0.5) < eps_key(-1e9, 0.6, 0.5));  // within ε beats beyond ε whatever the objective
  CHECK(eps_key(-1e9, 0.7, 0.5) > eps_key(1e9, 0.6, 0.5));  // both beyond: by violation
  CHECK(eps_key(3, 0.6, 0.5) == deb_key(99, 0.6));          // beyond ε: exactly the feasibility-rules key
  CHECK(eps_key(3, 0.2, 0.5) == deb_key(3, 0));             // within ε: the feasible key of the objective
  // ε = 0 is feasibility rules, bitwise
  for (double v : {0.0, 1e-300, 1e-4, 2.0})
    for (double f : {-5.0, 0.0, 7.0}) CHECK(eps_key(f, v, 0) == deb_key(f, v));
  CHECK(eps_key(1, NAN, 0.5) == ~std::uint64_t(0));
  CHECK(eps_key(NAN, 0.1, 0.5) == ~std::uint64_t(0));
}

TEST_CASE("epsilon key: maximized objectives within eps order by the larger", "[constraint_key]") {
  handler_state<float> h{};
  h.epsilon = 1.0f;
  const auto key = [&](float f, float v) {
    return make_handler_key(f, v, Sense::maximize, constraint_rule::epsilon, 1.0f, h);
  };
  CHECK(key(5.0f, 0.9f) < key(4.0f, 0.0f));
  CHECK(key(4.0f, 1.1f) > key(-100.0f, 0.0f));
}

TEST_CASE("stochastic ranking key: the feasibility-rules key", "[constraint_key]") {
  const handler_state<double> h{};
  for (double v : {0.0, 0.25})
    CHECK(make_handler_key(2.0, v, Sense::minimize, constraint_rule::stochastic_ranking, 1.0, h) == deb_key(2.0, v));
}

TEST_CASE("self-adaptive penalty: hand-made population, pagmo's values", "[constraint_key]") {
  // (f, v), minimized: two feasible, two infeasible with objectives below the best feasible one (equal
  // violations: the lower objective is x̌), one infeasible with a high objective (x̃, the highest objective).
  const double f[5] = {1.0, 3.0, 0.5, 0.2, 5.0};
  const double v[5] = {0.0, 0.0, 2.0, 2.0, 4.0};
  const handler_state<double> h = detail::self_adaptive_state(f, v, 5, Sense::minimize);
  CHECK(h.f_down == 1.0);
  CHECK(h.i_down == 0.0);
  CHECK(h.f_up == 0.2);
  CHECK(h.i_up == 2.0);
  CHECK(h.penalty1 == 1);
  CHECK(h.scale == 4.0);  // (f̃ − f̂)/f̂ = (5 − 1)/1 since f̌ <= f̂
  // ĩ = v/2; f + ĩ(1 − 0.2), then + 4·|f|·(e^{2ĩ} − 1)/(e² − 1)
  CHECK(sap_penalized(0.5, 2.0, h) == Approx(6.5).epsilon(1e-15));
  CHECK(sap_penalized(0.2, 2.0, h) == Approx(5.0).epsilon(1e-15));
  CHECK(sap_penalized(5.0, 4.0, h) == Approx(228.07108101176917).epsilon(1e-14));
  // keys: feasible ones by objective, the rest by penalized objective, one scale: 0 < 1 < 3 < 2 < 4
  std::uint64_t k[5];
  for (int i = 0; i < 5; ++i)
    k[i] = make_handler_key(f[i], v[i], Sense::minimize, constraint_rule::self_adaptive_penalty, 1.0, h);
  CHECK(k[0] < k[1]);
  CHECK(k[1] < k[3]);
  CHECK(k[3] < k[2]);
  CHECK(k[2] < k[4]);
}

TEST_CASE("self-adaptive penalty: no feasible, all feasible, maximize", "[constraint_key]") {
  {  // none feasible, none better than x̂: x̂ least violated, x̌ most violated (ties: higher objective), no first
     // penalty (pagmo applies it: 4 + 1·(1 − 4) = 1, the most violated scoring as x̂)
    const double f[4] = {2.0, 1.0, 3.0, 4.0};
    const double v[4] = {1.0, 1.0, 5.0, 5.0};
    const handler_state<double> h = detail::self_adaptive_state(f, v, 4, Sense::minimize);
    CHECK(h.f_down == 1.0);
    CHECK(h.i_down == 1.0);
    CHECK(h.f_up == 4.0);
    CHECK(h.i_up == 5.0);
    CHECK(h.penalty1 == 0);
    CHECK(h.scale == 0.0);  // f̌ = f̃ = 4
    CHECK(sap_penalized(4.0, 5.0, h) > sap_penalized(1.0, 1.0, h));
  }
  {  // none feasible, one better than x̂ = (2, 1): x̌ = (0.5, 3), first penalty on; γ = (3 − 2)/|2|
    const double f[3] = {2.0, 0.5, 3.0};
    const double v[3] = {1.0, 3.0, 5.0};
    const handler_state<double> h = detail::self_adaptive_state(f, v, 3, Sense::minimize);
    CHECK(h.f_down == 2.0);
    CHECK(h.f_up == 0.5);
    CHECK(h.i_up == 3.0);
    CHECK(h.penalty1 == 1);
    CHECK(h.scale == 0.5);
    CHECK(sap_penalized(0.5, 3.0, h) == Approx(3.0).epsilon(1e-15));  // x̌ → f̂ by the first, then f̃ by the second
  }
  {  // maximize, positive objectives (negative once minimized): γ = (f̃ − f̂)/|f̂| = (−4 + 10)/10 > 0, and the
     // most violated maps onto f̃ = −4, not onto 2f̂ − f̃ = −16 (pagmo's γ = −0.6: better than x̂)
    const double f[3] = {10.0, 4.0, 20.0}, v[3] = {0.0, 0.0, 3.0};
    const handler_state<double> h = detail::self_adaptive_state(f, v, 3, Sense::maximize);
    CHECK(h.f_down == -10.0);
    CHECK(h.f_up == -20.0);
    CHECK(h.penalty1 == 1);
    CHECK(h.scale == Approx(0.6).epsilon(1e-15));
    CHECK(sap_penalized(-20.0, 3.0, h) == Approx(-4.0).epsilon(1e-15));
  }
  {  // all feasible: no penalty
    const double f[2] = {2.0, 1.0}, v[2] = {0.0, 0.0};
    const handler_state<double> h = detail::self_adaptive_state(f, v, 2, Sense::minimize);
    CHECK(h.penalty1 == 0);
    CHECK(h.scale == 0.0);
    CHECK(sap_penalized(7.0, 3.0, h) == 7.0);
  }
  {  // maximize: objectives negated first, so the largest feasible objective is x̂
    const double f[3] = {1.0, 3.0, 10.0}, v[3] = {0.0, 0.0, 1.0};
    const handler_state<double> h = detail::self_adaptive_state(f, v, 3, Sense::maximize);
    CHECK(h.f_down == -3.0);
    CHECK(h.f_up == -10.0);
    CHECK(h.penalty1 == 1);
  }
}
