#pragma once
/// @file catalog.hpp
/// The operator table: every selection, crossover, mutation and constraint
/// handling the engine offers, with its YAML name, the genes it accepts, its
/// parameters (valid ranges, defaults) and its source. Validation, the YAML
/// parser, `ga-run --list-operators` and docs/operators.md read this table;
/// the dispatch (dispatch.hpp) maps each kind to its functor.
///
/// Adding an operator: its header in operators/ (a `FUSEDGA_HD` functor with
/// `static constexpr gene_kinds genes`), its enumerator and its row here, one
/// `case` in dispatch.hpp, its tests (docs/operators.md says more).

#include <cstring>
#include <limits>

#include "fusedga/core/rank_key.hpp"
#include "fusedga/operators/blx_alpha.hpp"
#include "fusedga/operators/creep_mutation.hpp"
#include "fusedga/operators/gaussian_mutation.hpp"
#include "fusedga/operators/operator_spec.hpp"
#include "fusedga/operators/point_crossover.hpp"
#include "fusedga/operators/polynomial_mutation.hpp"
#include "fusedga/operators/sbx.hpp"
#include "fusedga/operators/tournament.hpp"
#include "fusedga/operators/uniform_crossover.hpp"
#include "fusedga/operators/uniform_reset_mutation.hpp"

namespace fusedga {

/// Parent selection (the `selection_rows` of the table).
enum class selection_kind {
  tournament,  ///< k-way tournament, any genes (Goldberg & Deb 1991)
};

/// Repair of infeasible children before evaluation (the `repair_rows` of the table).
enum class repair_kind {
  gradient,  ///< Newton step on the violated constraints, real genes (Takahama & Sakai 2006; Chootinan & Chen 2006)
};

/// Crossover operator (the `crossover_rows` of the table).
enum class crossover_kind {
  sbx,        ///< simulated binary crossover, real genes (Deb & Agrawal 1995)
  blx_alpha,  ///< blend crossover, real genes (Eshelman & Schaffer 1993)
  uniform,    ///< uniform crossover, any genes (Syswerda 1989)
  one_point,  ///< one-point crossover, any genes (Holland 1975)
  two_point,  ///< two-point crossover, any genes (De Jong 1975)
};

/// Mutation operator (the `mutation_rows` of the table).
enum class mutation_kind {
  polynomial,     ///< polynomial mutation, real genes (Deb & Goyal 1996)
  gaussian,       ///< Gaussian mutation, real genes (Bäck & Schwefel 1993)
  uniform_reset,  ///< uniform reset, any genes
  creep,          ///< creep mutation, integer genes
};

/// Survivor selection of the GA (the `survival_rows` of the table).
enum class survival_kind {
  generational,  ///< children replace the parents; the best `elitism` parents are kept (De Jong 1975)
  plus,          ///< (mu+lambda): the best N of the N parents and N children survive (Schwefel 1981; Bäck 1996)
};

/// Differential-evolution strategy (the `de_rows` of the table), used when `ga.algorithm` is `de`.
enum class de_strategy {
  rand_1_bin,          ///< DE/rand/1/bin (Storn & Price 1997)
  current_to_pbest_1,  ///< DE/current-to-pbest/1/bin with an archive, fixed F and CR (Zhang & Sanderson 2009)
  shade,               ///< current-to-pbest/1/bin with archive and success-history F, CR (Tanabe & Fukunaga 2013)
};

namespace catalog_data {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kIntMax = std::numeric_limits<int>::max();

// ---- parameters (name, default, min, max, min_open, integer, max_name, default_text, allows_auto, meaning)
inline constexpr parameter_spec tournament_params[] = {
    {"size", 2, 1, kInf, false, true, "population", nullptr, false, "tournament size k (candidates per parent)"}};
inline constexpr parameter_spec crossover_common[] = {
    {"rate", 0.9, 0, 1, false, false, nullptr, nullptr, false, "probability that a pair is crossed"}};
inline constexpr parameter_spec sbx_params[] = {
    {"eta", 15, 0, kInf, false, false, nullptr, nullptr, false, "distribution index; larger keeps children closer"}};
inline constexpr parameter_spec blx_params[] = {{"alpha", 0.5, 0, kInf, false, false, nullptr, nullptr, false,
                                                 "interval extension on each side, times the parents' distance"}};
inline constexpr parameter_spec mutation_common[] = {
    {"rate", 0, 0, 1, false, false, nullptr, "auto (1/dimension)", true, "per-gene probability of mutation"}};
inline constexpr parameter_spec polynomial_params[] = {
    {"eta", 20, 0, kInf, false, false, nullptr, nullptr, false, "distribution index; larger gives smaller steps"}};
inline constexpr parameter_spec gaussian_params[] = {{"sigma", 0.1, 0, kInf, true, false, nullptr, nullptr, false,
                                                      "standard deviation, as a fraction of the gene range"}};
inline constexpr parameter_spec creep_params[] = {{"step", 1, 1, kIntMax, false, true, nullptr, nullptr, false,
                                                   "largest step; moves are uniform in [-step, -1] or [1, step]"}};
inline constexpr parameter_spec constraint_common[] = {
    {"equality_tolerance", 1e-4, 0, kInf, false, false, nullptr, nullptr, false, "eps in abs(h(x)) <= eps"}};
inline constexpr parameter_spec penalty_params[] = {
    {"weight", 1e6, 0, kInf, true, false, nullptr, nullptr, false, "penalty per unit of total violation"}};
inline constexpr parameter_spec epsilon_params[] = {
    {"control", 0.2, 0, 1, false, false, nullptr, nullptr, false,
     "Tc, the generation where eps reaches 0, as a fraction of the generation limit"},
    {"cp", 5, 0, kInf, false, false, nullptr, nullptr, false, "exponent of eps(t) = eps(0) * (1 - t/Tc)^cp"},
    {"theta", 0.2, 0, 1, true, false, nullptr, nullptr, false,
     "eps(0) = violation of the ceil(theta * N)-th best initial individual"}};
inline constexpr parameter_spec ranking_params[] = {
    {"pf", 0.45, 0, 1, false, false, nullptr, nullptr, false,
     "probability that a comparison is by objective when not both are feasible"}};

inline constexpr parameter_spec de_fixed_params[] = {
    {"F", 0.5, 0, 2, true, false, nullptr, nullptr, false, "scale factor of the difference vectors"},
    {"CR", 0.9, 0, 1, false, false, nullptr, nullptr, false, "binomial crossover rate (per gene, besides jrand)"}};
inline constexpr parameter_spec de_pbest_params[] = {
    {"F", 0.5, 0, 2, true, false, nullptr, nullptr, false, "scale factor of the difference vectors"},
    {"CR", 0.9, 0, 1, false, false, nullptr, nullptr, false,
     "crossover rate: per gene besides jrand (bin), or that the run of genes goes on (exp: ga.de.crossover)"},
    {"pbest", 0.1, 0, 1, true, false, nullptr, nullptr, false,
     "x_pbest is one of the best max(2, round(pbest * N)) individuals"},
    {"archive", 1.0, 0, 10, false, false, nullptr, nullptr, false,
     "archive of replaced parents, size round(archive * N)"}};
inline constexpr parameter_spec shade_params[] = {
    {"pbest", 0.1, 0, 1, true, false, nullptr, nullptr, false,
     "x_pbest is one of the best max(2, round(pbest * N)) individuals"},
    {"archive", 1.0, 0, 10, false, false, nullptr, nullptr, false,
     "archive of replaced parents, size round(archive * N)"},
    {"memory", 6, 1, 1000, false, true, nullptr, nullptr, false,
     "H: entries of the success-history memories M_F and M_CR (each starts at 0.5)"}};
inline constexpr parameter_spec gradient_repair_params[] = {
    {"rate", 0, 0, 1, false, false, nullptr, nullptr, false,
     "probability that an infeasible child is repaired (0 = off)"},
    {"iterations", 3, 1, kIntMax, false, true, nullptr, nullptr, false,
     "steps at most; stops early once no constraint is violated"}};

// ---- rows (kind, name, genes, params, summary, source), in enum order
inline constexpr operator_spec selection_rows[] = {
    {int(selection_kind::tournament), "tournament", tournament<>::genes, list_of(tournament_params),
     "k-way tournaments with replacement; the smallest rank key wins",
     "Goldberg & Deb 1991, \"A comparative analysis of selection schemes used in genetic algorithms\", FOGA 1"},
};
inline constexpr operator_spec crossover_rows[] = {
    {int(crossover_kind::sbx), "sbx", sbx::genes, list_of(sbx_params),
     "simulated binary crossover, bounded (children stay in the bounds)",
     "Deb & Agrawal 1995, \"Simulated binary crossover for continuous search space\", Complex Systems 9"},
    {int(crossover_kind::blx_alpha), "blx-alpha", blx_alpha::genes, list_of(blx_params),
     "blend crossover: children uniform on the parents' interval extended by alpha on each side",
     "Eshelman & Schaffer 1993, \"Real-coded genetic algorithms and interval-schemata\", FOGA 2"},
    {int(crossover_kind::uniform),
     "uniform",
     uniform_crossover::genes,
     {},
     "each gene exchanged with probability 1/2",
     "Syswerda 1989, \"Uniform crossover in genetic algorithms\", ICGA 3"},
    {int(crossover_kind::one_point),
     "one-point",
     point_crossover::genes,
     {},
     "genes after one uniform cut point exchanged",
     "Holland 1975, Adaptation in Natural and Artificial Systems"},
    {int(crossover_kind::two_point),
     "two-point",
     point_crossover::genes,
     {},
     "genes between two uniform cut points exchanged",
     "De Jong 1975, An Analysis of the Behavior of a Class of Genetic Adaptive Systems (PhD thesis)"},
};
inline constexpr operator_spec mutation_rows[] = {
    {int(mutation_kind::polynomial), "polynomial", polynomial_mutation::genes, list_of(polynomial_params),
     "bounded polynomial perturbation (stays in the bounds)",
     "Deb & Goyal 1996, \"A combined genetic adaptive search (GeneAS) for engineering design\", Computer Science and "
     "Informatics 26"},
    {int(mutation_kind::gaussian), "gaussian", gaussian_mutation::genes, list_of(gaussian_params),
     "adds N(0, (sigma * range)^2), then clamps",
     "Bäck & Schwefel 1993, \"An overview of evolutionary algorithms for parameter optimization\", Evolutionary "
     "Computation 1(1)"},
    {int(mutation_kind::uniform_reset),
     "uniform-reset",
     uniform_reset_mutation::genes,
     {},
     "gene replaced by a uniform value in its bounds",
     "Eiben & Smith 2015, Introduction to Evolutionary Computing, §4.3"},
    {int(mutation_kind::creep), "creep", creep_mutation::genes, list_of(creep_params),
     "gene moved by a uniform integer step, then clamped",
     "Davis 1991, Handbook of Genetic Algorithms; Eiben & Smith 2015, §4.3"},
};
inline constexpr operator_spec constraint_rows[] = {
    {int(constraint_rule::feasibility_rules),
     "feasibility-rules",
     gene_kinds::any,
     {},
     "feasible beats infeasible; feasible by objective, infeasible by total violation",
     "Deb 2000, \"An efficient constraint handling method for genetic algorithms\", CMAME 186"},
    {int(constraint_rule::penalty), "penalty", gene_kinds::any, list_of(penalty_params),
     "static penalty: compare objective + weight * violation",
     "Homaifar, Qi & Lai 1994, \"Constrained optimization via genetic algorithms\", Simulation 62(4)"},
    {int(constraint_rule::epsilon), "epsilon", gene_kinds::any, list_of(epsilon_params),
     "epsilon-constrained: feasibility rules with violations <= eps(t) counted as feasible; eps(t) decreases to 0",
     "Takahama & Sakai 2006, \"Constrained optimization by the epsilon constrained differential evolution with "
     "gradient-based mutation and feasible elites\", IEEE CEC 2006"},
    {int(constraint_rule::stochastic_ranking), "stochastic-ranking", gene_kinds::any, list_of(ranking_params),
     "GA only: tournament comparisons by objective with probability pf (always when both are feasible), else by "
     "violation; elites and plus survival by feasibility rules",
     "Runarsson & Yao 2000, \"Stochastic ranking for constrained evolutionary optimization\", IEEE TEC 4(3)"},
    {int(constraint_rule::self_adaptive_penalty),
     "self-adaptive-penalty",
     gene_kinds::any,
     {},
     "two-stage penalty recomputed each generation from the population's best, worst and highest-objective "
     "individuals (as pagmo's cstrs_self_adaptive, but never rewarding violation: gamma over |f|, the first "
     "penalty only where it raises the score)",
     "Farmani & Wright 2003, \"Self-adaptive fitness formulation for constrained optimization\", IEEE TEC 7(5)"},
};

inline constexpr operator_spec survival_rows[] = {
    {int(survival_kind::generational),
     "generational",
     gene_kinds::any,
     {},
     "the children replace the parents; the best ga.elitism parents are copied unchanged",
     "De Jong 1975, An Analysis of the Behavior of a Class of Genetic Adaptive Systems (PhD thesis)"},
    {int(survival_kind::plus),
     "plus",
     gene_kinds::any,
     {},
     "(mu+lambda): N children, then the best N of parents and children by rank key survive (ties keep the parent); "
     "ga.elitism does not apply",
     "Schwefel 1981, Numerical Optimization of Computer Models; Bäck 1996, Evolutionary Algorithms in Theory and "
     "Practice"},
};
inline constexpr operator_spec de_rows[] = {
    {int(de_strategy::rand_1_bin), "rand/1/bin", gene_kinds::real, list_of(de_fixed_params),
     "v = x_r1 + F (x_r2 - x_r3), binomial crossover with the target, one-to-one survival",
     "Storn & Price 1997, \"Differential evolution - a simple and efficient heuristic for global optimization over "
     "continuous spaces\", J. Global Optimization 11"},
    {int(de_strategy::current_to_pbest_1), "current-to-pbest/1", gene_kinds::real, list_of(de_pbest_params),
     "v = x_i + F (x_pbest - x_i) + F (x_r1 - x_r2), x_r2 from population and archive; binomial crossover",
     "Zhang & Sanderson 2009, \"JADE: adaptive differential evolution with optional external archive\", IEEE TEVC "
     "13(5)"},
    {int(de_strategy::shade), "shade", gene_kinds::real, list_of(shade_params),
     "current-to-pbest/1/bin with archive; F ~ Cauchy(M_F[r], 0.1), CR ~ N(M_CR[r], 0.1) from success-history "
     "memories updated by weighted Lehmer / arithmetic means",
     "Tanabe & Fukunaga 2013, \"Success-history based parameter adaptation for differential evolution\", IEEE CEC "
     "2013"},
};
inline constexpr operator_spec repair_rows[] = {
    {int(repair_kind::gradient), "gradient", gene_kinds::real, {},
     "x <- x - pinv(grad C) * C on the violated constraints C (exact Jacobian for expression problems, a problem's "
     "jacobian(), else finite differences for the first step, Broyden updates after), then clipped to the bounds; "
     "each step costs 1 evaluation, and the first d more for a finite-difference Jacobian",
     "Takahama & Sakai 2006, \"Constrained optimization by the epsilon constrained differential evolution with "
     "gradient-based mutation and feasible elites\", IEEE CEC 2006; Chootinan & Chen 2006, \"Constraint handling in "
     "genetic algorithms using a gradient-based repair method\", Computers & Operations Research 33(8); Broyden "
     "1965, \"A class of methods for solving nonlinear simultaneous equations\", Mathematics of Computation 19(92)"},
};

}  // namespace catalog_data

/// `ga.selection`: parent selection.
inline constexpr operator_family selection_family{
    "ga.selection", "selection", {}, list_of(catalog_data::selection_rows)};
/// `ga.crossover`: crossover, with the crossing probability `rate`.
inline constexpr operator_family crossover_family{"ga.crossover", "crossover", list_of(catalog_data::crossover_common),
                                                  list_of(catalog_data::crossover_rows)};
/// `ga.mutation`: mutation, with the per-gene probability `rate`.
inline constexpr operator_family mutation_family{"ga.mutation", "mutation", list_of(catalog_data::mutation_common),
                                                 list_of(catalog_data::mutation_rows)};
/// `ga.constraint_handling`: how violations enter the comparison (rank_key.hpp).
inline constexpr operator_family constraint_family{"ga.constraint_handling", "constraint handling",
                                                   list_of(catalog_data::constraint_common),
                                                   list_of(catalog_data::constraint_rows)};

/// `ga.survival`: survivor selection of the GA (`ga.algorithm: ga`); a bare name is accepted for `{type: name}`.
inline constexpr operator_family survival_family{
    "ga.survival", "survival", {}, list_of(catalog_data::survival_rows)};
/// `ga.de`: the differential-evolution strategy (`ga.algorithm: de`), with one-to-one survivor selection.
inline constexpr operator_family de_family{"ga.de", "differential evolution", {}, list_of(catalog_data::de_rows)};

/// `ga.constraint_handling.gradient_repair`: repair of infeasible children before evaluation.
inline constexpr operator_family gradient_repair_family{"ga.constraint_handling.gradient_repair", "gradient repair",
                                                        list_of(catalog_data::gradient_repair_params),
                                                        list_of(catalog_data::repair_rows)};

/// The families in the order of the YAML schema (for listings).
inline constexpr const operator_family* operator_families[] = {
    &selection_family, &crossover_family, &mutation_family, &constraint_family, &gradient_repair_family,
    &survival_family,  &de_family};

/// The row of a kind. @pre `k` is a valid enumerator.
constexpr const operator_spec& spec_of(selection_kind k) { return selection_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(crossover_kind k) { return crossover_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(mutation_kind k) { return mutation_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(constraint_rule k) { return constraint_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(survival_kind k) { return survival_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(de_strategy k) { return de_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(repair_kind k) { return gradient_repair_family.rows[int(k)]; }

/// The YAML spelling of a kind ("sbx", "blx-alpha", "uniform-reset", "feasibility-rules", ...).
constexpr const char* to_string(selection_kind k) { return spec_of(k).name; }
constexpr const char* to_string(crossover_kind k) { return spec_of(k).name; }
constexpr const char* to_string(mutation_kind k) { return spec_of(k).name; }
constexpr const char* to_string(constraint_rule k) { return spec_of(k).name; }
constexpr const char* to_string(survival_kind k) { return spec_of(k).name; }
constexpr const char* to_string(de_strategy k) { return spec_of(k).name; }
constexpr const char* to_string(repair_kind k) { return spec_of(k).name; }

/// True when operator `k` can vary real (`real_genes`) or integer genes.
template <class Kind>
constexpr bool accepts(Kind k, bool real_genes) {
  return accepts(spec_of(k).genes, real_genes);
}

/// The row named `name` in `family`, or nullptr.
inline const operator_spec* find_operator(const operator_family& family, const char* name) {
  for (const operator_spec& row : family.rows)
    if (std::strcmp(row.name, name) == 0) return &row;
  return nullptr;
}

namespace detail {
/// True when every row of `f` sits at the index of its kind.
constexpr bool rows_in_kind_order(const operator_family& f) {
  for (int i = 0; i < f.rows.size(); ++i)
    if (f.rows[i].kind != i) return false;
  return true;
}
}  // namespace detail

static_assert(detail::rows_in_kind_order(selection_family) && detail::rows_in_kind_order(crossover_family) &&
                  detail::rows_in_kind_order(mutation_family) && detail::rows_in_kind_order(constraint_family) &&
                  detail::rows_in_kind_order(survival_family) && detail::rows_in_kind_order(de_family) &&
                  detail::rows_in_kind_order(gradient_repair_family),
              "catalog.hpp: each family's rows must be listed in the order of its enum");
static_assert(crossover_family.rows.size() == int(crossover_kind::two_point) + 1 &&
                  mutation_family.rows.size() == int(mutation_kind::creep) + 1 &&
                  constraint_family.rows.size() == int(constraint_rule::self_adaptive_penalty) + 1 &&
                  survival_family.rows.size() == int(survival_kind::plus) + 1 &&
                  de_family.rows.size() == int(de_strategy::shade) + 1,
              "catalog.hpp: one row per enumerator");

}  // namespace fusedga
