// The island model on the CUDA executor (backends/cuda/executor.hpp: fetch_keys, read_rows, key_of,
// replace_rows), run on the kernel emulator: emigrants and immigrants are the serial engine's, and an island
// run is the serial backend's — bitwise for integer genes, and on real genes as the other emulated tests
// compare them (best and genes bitwise, the history's means to 1e-12: block sums). Issue 18.
#include <catch2/catch.hpp>
#include <cstddef>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <vector>

#include "cuda/emulator/emulated_runtime.hpp"
#include "engine/checkpoint_runs.hpp"
#include "engine/handler_problems.hpp"
#include "engine/same_result.hpp"
#include "islands/same_islands.hpp"

using namespace fusedga;
using cuda_test::emulated_cuda;
using islands_test::require_same_migrating_islands;
using CQ = problems::ConstrainedQuadratic<double>;

namespace {

ga_options archipelago(std::size_t n, int generations, int count, migration_topology t) {
  ga_options o = checkpoint_test::base(n, generations);
  o.islands.count = count;
  o.islands.migration.every = 3;
  o.islands.migration.size = 3;
  o.islands.migration.topology = t;
  return o;
}

// The current population of a CPU engine and of an emulated-GPU engine, in host memory.
template <class Engine>
void host_rows(const Engine& e, std::size_t n, std::size_t d, std::vector<double>& genes,
               std::vector<double>& objective) {
  const auto v = e.current();  // host memory on the emulator too
  genes.assign(v.genes, v.genes + n * d);
  objective.assign(v.objective, v.objective + n);
}

}  // namespace

TEST_CASE("islands: emigrants and immigrants on the emulated GPU are the serial engine's", "[cuda][islands]") {
  const std::size_t n = 120, d = 3, k = 4;
  ga_options o = checkpoint_test::base(n, 10);
  engine<CQ, backend::serial> cpu(CQ{}, o, backend::serial{});
  engine<CQ, emulated_cuda> gpu(CQ{}, o, emulated_cuda{});
  ga_options other = o;
  other.seed = 99;
  engine<CQ, backend::serial> donor(CQ{}, other, backend::serial{});
  cpu.initialize();
  gpu.initialize();
  donor.initialize();
  for (int g = 0; g < 3; ++g) cpu.step(), gpu.step(), donor.step();
  std::vector<double> cg(k * d), co(k), cv(k), gg(k * d), go(k), gv(k);
  cpu.emigrants(k, cg.data(), co.data(), cv.data());
  gpu.emigrants(k, gg.data(), go.data(), gv.data());
  CHECK(gg == cg);
  CHECK(go == co);
  CHECK(gv == cv);
  // The best k of another run arrive at both.
  std::vector<double> ig(k * d), io(k), iv(k);
  donor.emigrants(k, ig.data(), io.data(), iv.data());
  const std::size_t on_cpu = cpu.immigrate(k, ig.data(), io.data(), iv.data(), k);
  const std::size_t on_gpu = gpu.immigrate(k, ig.data(), io.data(), iv.data(), k);
  CHECK(on_cpu == on_gpu);
  std::vector<double> c_genes, c_obj, g_genes, g_obj;
  host_rows(cpu, n, d, c_genes, c_obj);
  host_rows(gpu, n, d, g_genes, g_obj);
  CHECK(g_genes == c_genes);
  CHECK(g_obj == c_obj);
  CHECK(engine_test::same_bits(gpu.best_objective(), cpu.best_objective()));
  CHECK(gpu.best_genes() == cpu.best_genes());
  // The elites chosen afresh after migration: the next generations agree too.
  for (int g = 0; g < 3; ++g) cpu.step(), gpu.step();
  host_rows(cpu, n, d, c_genes, c_obj);
  host_rows(gpu, n, d, g_genes, g_obj);
  CHECK(g_genes == c_genes);
  CHECK(gpu.best_genes() == cpu.best_genes());
}

TEST_CASE("islands: an island run on the emulated GPU is the serial backend's", "[cuda][islands]") {
  SECTION("integer genes, ring: bitwise") {
    ga_options o = archipelago(240, 12, 4, migration_topology::ring);
    o.crossover.kind = crossover_kind::two_point;
    o.mutation.kind = mutation_kind::uniform_reset;
    problems::GeneSum<double> p;
    p.genes = 20;
    require_same_migrating_islands(solve(p, o, backend::serial{}), solve(p, o, emulated_cuda{}), true);
  }
  SECTION("integer genes, constrained, random topology: bitwise") {
    ga_options o = archipelago(240, 12, 3, migration_topology::random);
    o.crossover.kind = crossover_kind::uniform;
    o.mutation.kind = mutation_kind::creep;
    require_same_migrating_islands(solve(handler_test::IntegerConstrained{}, o, backend::serial{}),
                                   solve(handler_test::IntegerConstrained{}, o, emulated_cuda{}), true);
  }
  SECTION("real genes, SBX and polynomial mutation, fully-connected (means to 1e-12)") {
    const ga_options o = archipelago(240, 12, 3, migration_topology::fully_connected);
    require_same_migrating_islands(solve(CQ{}, o, backend::serial{}), solve(CQ{}, o, emulated_cuda{}), false);
  }
  SECTION("heterogeneous GA and SHADE islands, epsilon-constrained SHADE (means to 1e-12)") {
    ga_options o = archipelago(240, 12, 4, migration_topology::ring);
    ga_options ga = o;
    ga.islands = island_options{};
    ga_options de = ga;
    de.algorithm = algorithm_kind::de;
    de.de.strategy = de_strategy::shade;
    de.de.archive = 0.5;
    de.constraints.rule = constraint_rule::epsilon;
    o.islands.variants = {ga, de};
    require_same_migrating_islands(solve(handler_test::HS39{}, o, backend::serial{}),
                                   solve(handler_test::HS39{}, o, emulated_cuda{}), false);
  }
}
