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
inline constexpr parameter_spec gradient_repair_params[] = {
    {"rate", 0, 0, 1, false, false, nullptr, nullptr, false,
     "probability that a child is repaired before evaluation (0 = off)"},
    {"iterations", 3, 1, kIntMax, false, true, nullptr, nullptr, false,
     "Newton steps at most; stops early once no constraint is violated"}};

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
};
inline constexpr operator_spec repair_rows[] = {
    {int(repair_kind::gradient), "gradient", gene_kinds::real, {},
     "x <- x - pinv(grad C) * C on the violated constraints C (exact Jacobian for expression problems, a problem's "
     "jacobian(), else finite differences), then clipped to the bounds; each step costs 1 evaluation (1 + d with "
     "finite differences)",
     "Takahama & Sakai 2006, \"Constrained optimization by the epsilon constrained differential evolution with "
     "gradient-based mutation and feasible elites\", IEEE CEC 2006; Chootinan & Chen 2006, \"Constraint handling in "
     "genetic algorithms using a gradient-based repair method\", Computers & Operations Research 33(8)"},
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

/// `ga.constraint_handling.gradient_repair`: repair of infeasible children before evaluation.
inline constexpr operator_family gradient_repair_family{"ga.constraint_handling.gradient_repair", "gradient repair",
                                                        list_of(catalog_data::gradient_repair_params),
                                                        list_of(catalog_data::repair_rows)};

/// The families in the order of the YAML schema (for listings).
inline constexpr const operator_family* operator_families[] = {&selection_family, &crossover_family, &mutation_family,
                                                               &constraint_family, &gradient_repair_family};

/// The row of a kind. @pre `k` is a valid enumerator.
constexpr const operator_spec& spec_of(selection_kind k) { return selection_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(crossover_kind k) { return crossover_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(mutation_kind k) { return mutation_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(constraint_rule k) { return constraint_family.rows[int(k)]; }
constexpr const operator_spec& spec_of(repair_kind k) { return gradient_repair_family.rows[int(k)]; }

/// The YAML spelling of a kind ("sbx", "blx-alpha", "uniform-reset", "feasibility-rules", ...).
constexpr const char* to_string(selection_kind k) { return spec_of(k).name; }
constexpr const char* to_string(crossover_kind k) { return spec_of(k).name; }
constexpr const char* to_string(mutation_kind k) { return spec_of(k).name; }
constexpr const char* to_string(constraint_rule k) { return spec_of(k).name; }
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
                  detail::rows_in_kind_order(gradient_repair_family),
              "catalog.hpp: each family's rows must be listed in the order of its enum");
static_assert(crossover_family.rows.size() == int(crossover_kind::two_point) + 1 &&
                  mutation_family.rows.size() == int(mutation_kind::creep) + 1 &&
                  constraint_family.rows.size() == int(constraint_rule::penalty) + 1,
              "catalog.hpp: one row per enumerator");

}  // namespace fusedga
