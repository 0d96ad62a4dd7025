// The one operator dispatch (operators/dispatch.hpp): each operator through
// visit gives bitwise the children of its functor called directly, for real
// and integer genes; operators that cannot vary a gene type are never called
// for it. And the CPU tiles' vary (engine/variation.hpp) through the dispatch
// equals the functors applied element by element.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fusedga/engine/operator_parameters.hpp>
#include <fusedga/engine/variation.hpp>
#include <fusedga/operators/dispatch.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <vector>

using namespace fusedga;

namespace {

draws4 draws(std::uint32_t i, stream s) { return counter_rng::from_seed(5)(i, 3, s, 1); }

template <class G>
bool same_bits(G a, G b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The crossover functor of `kind` with the options' parameters, built by hand (not through the table).
template <class G, class F>
void direct_crossover(crossover_kind kind, const crossover_options& o, F&& f) {
  switch (kind) {
    case crossover_kind::sbx:
      if constexpr (std::is_floating_point_v<G>) f(sbx{o.eta});
      break;
    case crossover_kind::blx_alpha:
      if constexpr (std::is_floating_point_v<G>) f(blx_alpha{o.alpha});
      break;
    case crossover_kind::uniform:
      f(uniform_crossover{});
      break;
    case crossover_kind::one_point:
      f(point_crossover{1});
      break;
    case crossover_kind::two_point:
      f(point_crossover{2});
      break;
  }
}

template <class G>
void check_crossovers(G lo, G hi, G a0, G b0) {
  crossover_options o;
  o.eta = 7;
  o.alpha = 0.25;
  for (const operator_spec& row : crossover_family.rows) {
    o.kind = static_cast<crossover_kind>(row.kind);
    const crossover_spec spec = make_crossover_spec(o);
    INFO(row.name);
    int calls = 0;
    for (std::uint32_t i = 0; i < 200; ++i) {
      const draws4 g = draws(i, stream::gene_a);
      const draws4 pair = draws(i, stream::pair);
      const int d = 9, j = static_cast<int>(i % 9);
      G a1 = a0, b1 = b0, a2 = a0, b2 = b0;
      int lo1 = -1, hi1 = -1;
      visit<G>(spec, [&](const auto& op) {
        ++calls;
        pair_cuts(op, pair, d, lo1, hi1);
        cross_gene(op, a1, b1, lo, hi, j, lo1, hi1, g);
      });
      direct_crossover<G>(o.kind, o, [&](const auto& op) {
        int lo2 = d, hi2 = d;
        if constexpr (std::is_same_v<std::decay_t<decltype(op)>, point_crossover>) {
          op.cuts(pair, d, lo2, hi2);
          op(a2, b2, j, lo2, hi2);
        } else {
          op(a2, b2, lo, hi, g);
        }
        CHECK(lo1 == lo2);
        CHECK(hi1 == hi2);
      });
      CHECK(same_bits(a1, a2));
      CHECK(same_bits(b1, b2));
    }
    CHECK(calls == (accepts(row.genes, std::is_floating_point_v<G>) ? 200 : 0));
  }
}

template <class G>
void check_mutations(G lo, G hi, G a0, G b0) {
  mutation_options o;
  o.rate = 0.5;
  o.eta = 11;
  o.sigma = 0.3;
  o.step = 3;
  for (const operator_spec& row : mutation_family.rows) {
    o.kind = static_cast<mutation_kind>(row.kind);
    const mutation_spec spec = make_mutation_spec(o, 9);
    INFO(row.name);
    int calls = 0;
    for (std::uint32_t i = 0; i < 200; ++i) {
      const draws4 m = draws(i, stream::gene_b);
      G a1 = a0, b1 = b0, a2 = a0, b2 = b0;
      visit<G>(spec, [&](const auto& op) {
        ++calls;
        mutate_pair(op, a1, b1, lo, hi, m);
      });
      switch (o.kind) {
        case mutation_kind::polynomial:
          if constexpr (std::is_floating_point_v<G>) polynomial_mutation{0.5, 11}(a2, b2, lo, hi, m);
          break;
        case mutation_kind::gaussian:
          if constexpr (std::is_floating_point_v<G>) gaussian_mutation{0.5, 0.3}(a2, b2, lo, hi, m);
          break;
        case mutation_kind::uniform_reset:
          uniform_reset_mutation{0.5}(a2, b2, lo, hi, m);
          break;
        case mutation_kind::creep:
          if constexpr (!std::is_floating_point_v<G>) creep_mutation{0.5, 3}(a2, b2, lo, hi, m);
          break;
      }
      CHECK(same_bits(a1, a2));
      CHECK(same_bits(b1, b2));
    }
    CHECK(calls == (accepts(row.genes, std::is_floating_point_v<G>) ? 200 : 0));
  }
}

}  // namespace

TEST_CASE("dispatch: every crossover equals its functor bitwise", "[dispatch]") {
  check_crossovers<double>(-2.0, 3.0, 0.25, 1.75);
  check_crossovers<float>(-2.0f, 3.0f, 0.25f, 1.75f);
  check_crossovers<int>(-20, 30, 4, 17);
}

TEST_CASE("dispatch: every mutation equals its functor bitwise", "[dispatch]") {
  check_mutations<double>(-2.0, 3.0, 0.25, 1.75);
  check_mutations<float>(-2.0f, 3.0f, 0.25f, 1.75f);
  check_mutations<int>(-20, 30, 4, 17);
  mutation_options o;
  o.rate.reset();  // auto
  CHECK(make_mutation_spec(o, 8).rate == 0.125);
}

TEST_CASE("dispatch: specs are small and carry only the chosen parameters", "[dispatch]") {
  STATIC_REQUIRE(std::is_trivially_copyable_v<crossover_spec>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<mutation_spec>);
  STATIC_REQUIRE(sizeof(crossover_spec) <= 32);
  STATIC_REQUIRE(sizeof(mutation_spec) <= 32);
  crossover_options c;
  c.kind = crossover_kind::blx_alpha;
  c.alpha = 0.75;
  const crossover_spec cs = make_crossover_spec(c);
  CHECK(cs.rate == 0.9);
  CHECK(cs.params[0] == 0.75);  // blx-alpha's one parameter, not SBX's eta
  mutation_options m;
  m.kind = mutation_kind::creep;
  m.step = 4;
  CHECK(make_mutation_spec(m, 2).params[0] == 4);
}

TEST_CASE("dispatch: the CPU tiles' vary equals the functors element by element", "[dispatch]") {
  // Integer genes (gene-sum, int8): every crossover and mutation that accepts them, on a staged tile of P pairs.
  using P = problems::GeneSum<double>;
  using G = gene_t<P>;
  constexpr int Pairs = detail::kTilePairs;
  P problem{};
  problem.genes = 12;  // a staged tile (d <= kStagedGenes)
  const int d = problem.dimension();
  const Bounds<G> bounds = problem.bounds();
  for (auto ck : {crossover_kind::uniform, crossover_kind::one_point, crossover_kind::two_point})
    for (auto mk : {mutation_kind::uniform_reset, mutation_kind::creep}) {
      ga_options o;
      o.crossover.kind = ck;
      o.mutation.kind = mk;
      o.mutation.rate = 0.3;
      o.mutation.step = 2;
      detail::kernel_params<P> kp = detail::make_kernel_params(problem, o, d);
      kp.bounds = {bounds.lower.data(), bounds.upper.data()};
      detail::pair_plan<Pairs> plan{};
      std::vector<G> c1(static_cast<std::size_t>(d) * Pairs), c2(c1.size());
      for (int l = 0; l < Pairs; ++l) {
        const draws4 r = draws(static_cast<std::uint32_t>(l), stream::pair);
        plan.crosses[l] = l % 3 != 0;
        point_crossover{ck == crossover_kind::two_point ? 2 : 1}.cuts(r, d, plan.cut_lo[l], plan.cut_hi[l]);
        for (int j = 0; j < d; ++j) {
          c1[j * Pairs + l] = static_cast<G>(bounds.lower[j] + (l + j) % 5);
          c2[j * Pairs + l] = static_cast<G>(bounds.upper[j] - (l * j) % 7);
        }
      }
      std::vector<G> e1 = c1, e2 = c2;
      const std::uint32_t first = 64, generation = 5;
      detail::vary<Pairs>(kp, first, generation, plan, c1.data(), c2.data());
      for (int l = 0; l < Pairs; ++l)
        for (int j = 0; j < d; ++j) {
          G& a = e1[j * Pairs + l];
          G& b = e2[j * Pairs + l];
          const G lo = bounds.lower[j], hi = bounds.upper[j];
          const draws4 g = kp.rng(first + l, generation, stream::gene_a, static_cast<std::uint32_t>(j));
          G na = a, nb = b;
          if (ck == crossover_kind::uniform)
            uniform_crossover{}(na, nb, lo, hi, g);
          else
            point_crossover{ck == crossover_kind::two_point ? 2 : 1}(na, nb, j, plan.cut_lo[l], plan.cut_hi[l]);
          a = plan.crosses[l] ? na : a;
          b = plan.crosses[l] ? nb : b;
          const draws4 m = kp.rng(first + l, generation, stream::gene_b, static_cast<std::uint32_t>(j));
          if (mk == mutation_kind::creep)
            creep_mutation{0.3, 2}(a, b, lo, hi, m);
          else
            uniform_reset_mutation{0.3}(a, b, lo, hi, m);
          a = clamp_to_bounds(a, lo, hi);
          b = clamp_to_bounds(b, lo, hi);
        }
      INFO(to_string(ck) << " + " << to_string(mk));
      CHECK(c1 == e1);
      CHECK(c2 == e2);
    }
}
