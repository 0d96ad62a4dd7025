// islands/metered_transport.hpp (what ga-bench --workloads islands reports): it counts an island run's
// gathers, migrations and migrant bytes as hand-computed from the settings, tells packets to another rank from
// local ones, and leaves the run's result bitwise unchanged. Issue 18.
#include <catch2/catch.hpp>
#include <cstddef>
#include <fusedga/fusedga.hpp>
#include <fusedga/islands/metered_transport.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <vector>

#include "islands/same_islands.hpp"

using namespace fusedga;

TEST_CASE("metered transport: an island run's gathers, migrations and bytes by hand, the result unchanged") {
  problems::Rastrigin<double> p;
  p.dim = 6;
  ga_options o;
  o.population = 80;
  o.generations = 10;
  o.seed = 5;
  o.islands.count = 4;
  o.islands.migration.every = 5;
  o.islands.migration.size = 2;
  const std::size_t packet = 2 * (6 * sizeof(double) + 2 * sizeof(double));  // K rows: d genes, objective, violation
  for (const auto topology : {migration_topology::ring, migration_topology::fully_connected}) {
    INFO(to_string(topology));
    o.islands.migration.topology = topology;
    o.islands.transport = nullptr;
    const Result plain = solve(p, o, backend::serial{});
    islands::local_transport local;
    islands::transport_ref<islands::local_transport> inner(local);
    islands::metered_transport metered(inner);
    o.islands.transport = &metered;
    islands_test::require_same_islands(plain, solve(p, o, backend::serial{}));
    const islands::transport_meter& m = metered.meter();
    CHECK(m.gathers == 3);    // after initialization, after generation 5, after generation 10 (the limit)
    CHECK(m.exchanges == 1);  // after generation 5 only: no migration follows the run's last generation
    const std::size_t packets = topology == migration_topology::ring ? 4 : 4 * 3;
    CHECK(m.packets == packets);
    CHECK(m.migrant_bytes == packets * packet);
    CHECK(m.cross_rank_bytes == 0);  // one process
    CHECK(m.gathered_bytes > 0);
    CHECK(m.gather_s >= 0);
    CHECK(m.wait_s >= 0);
    metered.reset();
    CHECK(metered.meter().packets == 0);
  }
}

TEST_CASE("metered transport: a packet is cross-rank when this rank does not also receive it") {
  islands::local_transport local;
  islands::transport_ref<islands::local_transport> inner(local);
  islands::metered_transport metered(inner);
  const std::vector<islands::packet> out{{0, 1, std::vector<std::byte>(10)}, {1, 2, std::vector<std::byte>(7)}};
  std::vector<islands::packet> in{{0, 1, std::vector<std::byte>(10)}};  // island 2 lives on another rank
  metered.exchange(out, in);
  CHECK(metered.meter().packets == 2);
  CHECK(metered.meter().migrant_bytes == 17);
  CHECK(metered.meter().cross_rank_bytes == 7);
  CHECK(metered.all_gather(std::vector<std::byte>(3)).at(0).size() == 3);
  CHECK(metered.meter().gathers == 1);
  CHECK(metered.meter().gathered_bytes == 3);  // the barrier's empty gather is not counted
}
