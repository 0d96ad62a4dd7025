// The GPU kernels' per-thread steps (backends/cuda/pair_ops.hpp), run on the
// host and checked against the CPU engine: same draws, same operators. For
// integer genes one generation built pair by pair equals the CPU engine's
// bitwise; for real genes within the documented tolerance (the CPU's staged
// tiles use glibc's libmvec, the reference here scalar libm, the GPU CUDA's
// libdevice). Runs without a GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <fusedga/backends/cuda/pair_ops.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "cuda/host_population.hpp"

using namespace fusedga;
using cuda_test::host_population;

namespace {

/// Kernel parameters of a run, bounds pointing at `bounds` (kept alive by the caller).
template <class Problem>
detail::kernel_params<Problem> params_for(const Problem& p, const ga_options& o, const Bounds<gene_t<Problem>>& bounds) {
  detail::kernel_params<Problem> kp = detail::make_kernel_params(p, o, p.dimension());
  kp.bounds = {bounds.lower.data(), bounds.upper.data()};
  return kp;
}

/// The children slots [E, N) of generation `generation` built the GPU's way: make_children per pair, evaluate_one.
template <class Problem>
host_population<Problem> reference_children(const Problem& p, const ga_options& o, const host_population<Problem>& src,
                                            std::uint32_t generation) {
  using G = gene_t<Problem>;
  const int d = p.dimension();
  const Bounds<G> bounds = p.bounds();
  const detail::kernel_params<Problem> kp = params_for(p, o, bounds);
  host_population<Problem> out;
  out.resize(src.n, d);
  std::vector<G> c1(static_cast<std::size_t>(d)), c2(static_cast<std::size_t>(d));
  for (std::uint32_t pair = 0; pair < kp.pairs(); ++pair) {
    detail::make_children(kp, src.genes.data(), src.rank_key.data(), pair, generation, c1.data(), c2.data());
    for (int c = 0; c < 2; ++c) {
      const std::size_t slot = kp.elitism + 2 * static_cast<std::size_t>(pair) + c;
      if (slot >= src.n) continue;
      const std::vector<G>& x = c == 0 ? c1 : c2;
      std::copy(x.begin(), x.end(), out.genes.begin() + static_cast<std::ptrdiff_t>(slot * d));
      detail::evaluate_one<1>(kp, x.data(), out.objective[slot], out.violation[slot], out.rank_key[slot]);
    }
  }
  return out;
}

/// The initial population built the GPU's way: a (individual, block of four genes) per thread, then evaluate_one.
template <class Problem>
host_population<Problem> reference_initial(const Problem& p, const ga_options& o) {
  using G = gene_t<Problem>;
  const int d = p.dimension();
  const Bounds<G> bounds = p.bounds();
  const detail::kernel_params<Problem> kp = params_for(p, o, bounds);
  host_population<Problem> out;
  out.resize(o.population, d);
  for (std::size_t i = 0; i < o.population; ++i) {
    for (int b = 0; 4 * b < d; ++b)
      detail::initial_gene_block(kp, static_cast<std::uint32_t>(i), b, out.genes.data() + i * d);
    detail::evaluate_one<1>(kp, out.genes.data() + i * d, out.objective[i], out.violation[i], out.rank_key[i]);
  }
  return out;
}

template <class Problem>
std::vector<double> ranges(const Problem& p) {
  const auto b = p.bounds();
  std::vector<double> r;
  for (std::size_t j = 0; j < b.lower.size(); ++j) r.push_back(double(b.upper[j]) - double(b.lower[j]));
  return r;
}

/// Serial engine: initial population and generation 1; the reference built from the same initial population.
template <class Problem>
void check_generation(const Problem& p, const ga_options& o, bool bitwise) {
  engine<Problem, backend::serial> e(p, o, backend::serial{});
  e.initialize();
  const auto initial = cuda_test::snapshot<Problem>(e.current());
  const auto ref_initial = reference_initial(p, o);
  e.step();
  const auto cpu = cuda_test::snapshot<Problem>(e.current());
  const auto ref = reference_children(p, o, initial, 1);
  if (bitwise) {
    CHECK(cuda_test::bitwise_difference(initial, ref_initial) == "");
    CHECK(cuda_test::bitwise_difference(cpu, ref, o.elitism) == "");
  } else {
    const double gt = cuda_test::gene_tolerance(sizeof(gene_t<Problem>) == 4);
    const double vt = cuda_test::value_tolerance(sizeof(fitness_t<Problem>) == 4);
    CHECK(cuda_test::tolerance_difference(initial, ref_initial, ranges(p), 0.0, vt) == "");  // genes: exact
    CHECK(cuda_test::tolerance_difference(cpu, ref, ranges(p), gt, vt, o.elitism) == "");
  }
}

}  // namespace

TEST_CASE("pair_ops: integer genes - one generation pair by pair equals the CPU engine bitwise", "[cuda][parity]") {
  ga_options o;
  o.population = 1001;  // odd number of children: the unpaired last child
  o.elitism = 2;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  problems::GeneSum<double> shorter;
  shorter.genes = 20;  // staged tiles on the CPU, thread per pair on the GPU
  check_generation(shorter, o, true);
  problems::GeneSum<float> longer;
  longer.genes = 300;  // rows on the CPU, a warp per pair on the GPU
  check_generation(longer, o, true);
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::creep;
  o.mutation.step = 3;
  o.selection.tournament_size = 3;
  o.elitism = 11;
  check_generation(shorter, o, true);
  check_generation(longer, o, true);
  o.crossover.kind = crossover_kind::one_point;
  o.crossover.rate = 0.5;
  check_generation(shorter, o, true);
}

TEST_CASE("pair_ops: real genes - one generation pair by pair matches the CPU engine within tolerance", "[cuda][parity]") {
  ga_options o;
  o.population = 777;
  check_generation(problems::ConstrainedQuadratic<double>{}, o, false);
  check_generation(problems::ConstrainedQuadratic<float>{}, o, false);
  check_generation(problems::TrigConstrained<double>{}, o, false);
  o.crossover.kind = crossover_kind::blx_alpha;
  o.mutation.kind = mutation_kind::gaussian;
  check_generation(problems::TrigConstrained<double>{}, o, false);
  problems::Rastrigin<double> wide;
  wide.dim = 40;  // rows on the CPU, a warp per pair on the GPU
  o.crossover.kind = crossover_kind::sbx;
  o.mutation.kind = mutation_kind::polynomial;
  check_generation(wide, o, false);
}
