// island_options::transport (islands/any_transport.hpp): solve runs the islands over a transport given at run
// time — here the one-process local_transport behind the virtual interface, the same run bitwise as without it.
// The MPI transport's own tests run under mpirun: tests/mpi.
#include <catch2/catch.hpp>

#include <fusedga/fusedga.hpp>
#include <fusedga/islands/any_transport.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/same_result.hpp"

using namespace fusedga;

TEST_CASE("islands.transport: solve over local_transport behind any_transport equals the run without it",
          "[islands]") {
  ga_options o;
  o.population = 203;
  o.generations = 23;
  o.islands.count = 5;
  o.islands.migration.every = 4;
  o.islands.migration.size = 2;
  const problems::ConstrainedQuadratic<double> p;
  const Result plain = solve(p, o, backend::serial{});
  islands::local_transport local;
  islands::transport_ref<islands::local_transport> ref(local);
  o.islands.transport = &ref;
  const Result via = solve(p, o, backend::tbb{2});
  engine_test::require_identical(via, plain);
  REQUIRE(via.islands.size() == 5);
  for (std::size_t i = 0; i < 5; ++i) REQUIRE(engine_test::same_bits(via.islands[i].objective, plain.islands[i].objective));
}

TEST_CASE("islands.transport: set with one island runs the island model (one island, no migration)", "[islands]") {
  ga_options o;
  o.population = 100;
  o.generations = 12;
  islands::local_transport local;
  islands::transport_ref<islands::local_transport> ref(local);
  o.islands.transport = &ref;
  const Result r = solve(problems::ConstrainedQuadratic<double>{}, o, backend::serial{});
  REQUIRE(r.islands.size() == 1);
  REQUIRE(r.islands[0].immigrants == 0);
  REQUIRE(r.generations == 12);
  REQUIRE(r.history.size() == 13);
}
