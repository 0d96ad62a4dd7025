// An individual's evaluation must not depend on its tile: the same genes get the same objective, violation and
// rank key bits in a full tile of 64 and in a short last one (engine/passes.hpp, evaluate_slots), so the same
// point evaluates alike at every population size (restarts that grow it, islands of any size). Full tiles
// once took a staged 64-lane form and short ones the row form, which called other libm variants. Likewise a
// child of the GA's offspring pass, which once was evaluated across the staged lanes (scalar libm for
// gene-loop problems) while the evaluation pass evaluated rows.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <typeinfo>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/ackley.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

using namespace fusedga;

namespace {

/// Initial genes are drawn per individual (rng(i, 0, init, ...)), so individual i is the same at any population
/// size; its objective, violation and rank key must be bitwise the same too, in a short tile or a full one.
template <class Problem, class Backend>
void require_tile_independent(const Problem& p, std::size_t short_n, std::size_t full_n, const Backend& b) {
  ga_options o;
  o.generations = 1;
  o.population = short_n;
  engine<Problem, Backend> a(p, o, b);
  a.initialize();
  o.population = full_n;
  engine<Problem, Backend> c(p, o, b);
  c.initialize();
  const auto x = a.current(), y = c.current();
  const std::size_t d = static_cast<std::size_t>(p.dimension());
  for (std::size_t i = 0; i < short_n; ++i) {
    INFO(typeid(Problem).name() << ": N " << short_n << " against " << full_n << ", individual " << i);
    REQUIRE(std::memcmp(x.row(i), y.row(i), d * sizeof(x.genes[0])) == 0);  // the same genes ...
    REQUIRE(std::memcmp(&x.objective[i], &y.objective[i], sizeof x.objective[i]) == 0);  // ... the same bits
    REQUIRE(std::memcmp(&x.violation[i], &y.violation[i], sizeof x.violation[i]) == 0);
    REQUIRE(x.rank_key[i] == y.rank_key[i]);
  }
}

/// After a few GA generations, re-evaluating the population in place (the evaluation-only pass) must give each
/// individual the bits the offspring pass gave it.
template <class Problem>
void require_offspring_bits_as_evaluation(const Problem& p, std::size_t n) {
  ga_options o;
  o.algorithm = algorithm_kind::ga;
  o.generations = 3;
  o.population = n;
  engine<Problem, backend::serial> e(p, o, backend::serial{});
  e.initialize();
  for (int g = 0; g < 3; ++g) e.step();
  const auto pop = e.current();
  const std::vector<fitness_t<Problem>> obj(pop.objective, pop.objective + n), vio(pop.violation, pop.violation + n);
  const std::vector<rank_key_t<fitness_t<Problem>>> key(pop.rank_key, pop.rank_key + n);
  e.evaluate_population();
  const auto again = e.current();
  for (std::size_t i = 0; i < n; ++i) {
    INFO(typeid(Problem).name() << ": N " << n << ", individual " << i);
    REQUIRE(std::memcmp(&obj[i], &again.objective[i], sizeof obj[i]) == 0);
    REQUIRE(std::memcmp(&vio[i], &again.violation[i], sizeof vio[i]) == 0);
    REQUIRE(key[i] == again.rank_key[i]);
  }
}

}  // namespace

TEST_CASE("a child of the GA's offspring pass evaluates bitwise as the evaluation pass evaluates it", "[evaluation]") {
  problems::Rastrigin<double> rastrigin;
  rastrigin.dim = 10;
  problems::Ackley<double> ackley;
  ackley.dim = 7;
  for (const std::size_t n : {100, 150, 300}) {  // offspring tiles of 128 children: short last ones of 98, 20, 42
    require_offspring_bits_as_evaluation(rastrigin, n);
    require_offspring_bits_as_evaluation(ackley, n);
    require_offspring_bits_as_evaluation(problems::TrigConstrained<double>{}, n);
  }
}

TEST_CASE("a short last tile evaluates its individuals bitwise as a full tile does", "[evaluation]") {
  problems::Rastrigin<double> rastrigin;
  rastrigin.dim = 10;
  problems::Ackley<double> ackley;
  ackley.dim = 7;
  for (const std::size_t n : {50, 100, 150, 600}) {  // short last tiles of 50, 36, 22 and 24
    const std::size_t full = (n + 63) / 64 * 64;
    require_tile_independent(rastrigin, n, full, backend::serial{});
    require_tile_independent(ackley, n, full, backend::serial{});
    require_tile_independent(problems::TrigConstrained<double>{}, n, full, backend::serial{});
    require_tile_independent(problems::TrigConstrained<float>{}, n, full, backend::tbb{2});
  }
}
