#pragma once
/// @file options.hpp
/// Settings of one GA run (`fusedga::solve`), mirroring the `ga:` and `stop:`
/// sections of the YAML schema in DESIGN.md. The operators, their parameters,
/// valid ranges and defaults are listed in operators/catalog.hpp.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fusedga/core/rank_key.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/operators/catalog.hpp"

namespace fusedga {

/// Tournament selection settings.
struct selection_options {
  int tournament_size = 2;  ///< k in [1, population]
};

/// Crossover settings; only the fields of the chosen kind are read.
struct crossover_options {
  crossover_kind kind = crossover_kind::sbx;
  double rate = 0.9;   ///< probability that a pair is crossed, [0, 1]
  double eta = 15;     ///< SBX distribution index, >= 0
  double alpha = 0.5;  ///< BLX-α, >= 0
};

/// Mutation settings; only the fields of the chosen kind are read.
struct mutation_options {
  mutation_kind kind = mutation_kind::polynomial;
  std::optional<double> rate;  ///< per-gene probability in [0, 1]; empty = 1/dimension ("auto")
  double eta = 20;             ///< polynomial mutation distribution index, >= 0
  double sigma = 0.1;          ///< Gaussian step as a fraction of the gene range, > 0
  int step = 1;                ///< creep step, >= 1
};

/// How violations enter the comparison (rank_key.hpp).
struct constraint_options {
  constraint_rule rule = constraint_rule::feasibility_rules;
  double penalty_weight = 1e6;       ///< static penalty weight, > 0
  double equality_tolerance = 1e-4;  ///< eps in |h(x)| <= eps, >= 0
  // epsilon (Takahama & Sakai 2006): ε(0) = violation of the ceil(theta·N)-th best initial individual,
  // ε(t) = ε(0)·(1 − t/Tc)^cp for t < Tc = control · generations, then 0.
  double epsilon_control = 0.2;  ///< Tc as a fraction of the generation limit, [0, 1]
  double epsilon_cp = 5;         ///< exponent cp of the ε schedule, >= 0
  double epsilon_theta = 0.2;    ///< θ as a fraction of the population, (0, 1]
  double ranking_pf = 0.45;      ///< stochastic ranking: probability of comparing by objective, [0, 1]
  /// Gradient repair of infeasible children (operators/gradient_repair.hpp): per-child probability in [0, 1]
  /// (0 = off) and steps at most (>= 1; measured_defaults gives 8 to a Jacobian by finite differences). Real genes
  /// only.
  struct gradient_repair_options {
    double rate = 0;
    int iterations = 3;
  } gradient_repair;
};

/// Which search runs: the genetic algorithm (selection, crossover, mutation, survival) or differential evolution.
enum class algorithm_kind {
  ga,  ///< tournament selection, crossover, mutation, `survival` (default)
  de,  ///< differential evolution (`de`), one-to-one survivor selection (Storn & Price 1997)
};

/// The YAML spelling of an algorithm ("ga", "de").
constexpr const char* to_string(algorithm_kind k) { return k == algorithm_kind::de ? "de" : "ga"; }

/// Survivor selection of the GA.
struct survival_options {
  survival_kind kind = survival_kind::generational;  ///< generational (with `elitism`) or plus ((mu+lambda))
};

/**
 * DE's crossover between the mutant and the target (`ga.de.crossover`), for current-to-pbest/1 and shade
 * (rand/1/bin is binomial by name). Source: Storn & Price 1997 (DE/x/y/bin and DE/x/y/exp).
 * - `bin`: each gene takes the mutant with probability CR, gene jrand always.
 * - `exp`: genes jrand, jrand + 1, ... (cyclically) take the mutant while each next gene's coin falls below CR,
 *   at most d: one run of contiguous genes, of mean length about 1/(1 − CR).
 * - `alternate`: `bin` on the first start and BIPOP's large starts, `exp` on its small starts (with IPOP,
 *   whose starts all grow, `exp` on the odd restarts); without restarts, `bin`. The two bias the search
 *   differently (independent genes against runs of neighbours): the small starts, cheap tries for deceptive
 *   landscapes, try the other bias, and the large ones keep what landscapes that need a large population
 *   measured best. On Lunacek's bi-Rastrigin SHADE with `bin` chose the optimum's funnel in about a third of its
 *   starts, with `exp` in most (docs/quality.md, "Exponential crossover on BIPOP's small starts").
 */
enum class de_crossover { bin, exp, alternate };

/// The YAML spelling of a crossover ("bin", "exp", "alternate").
constexpr const char* to_string(de_crossover c) {
  return c == de_crossover::exp ? "exp" : c == de_crossover::alternate ? "alternate" : "bin";
}

/// The smallest population differential evolution runs: rand/1/bin draws three individuals besides the target.
inline constexpr std::size_t kDeMinPopulation = 4;

/// Differential-evolution settings (`algorithm_kind::de`); only the fields of the chosen strategy are read.
struct de_options {
  de_strategy strategy = de_strategy::shade;
  double F = 0.5;        ///< scale factor, (0, 2] (rand/1/bin, current-to-pbest/1)
  double CR = 0.9;       ///< binomial crossover rate, [0, 1] (rand/1/bin, current-to-pbest/1)
  double pbest = 0.1;    ///< x_pbest among the best max(2, round(pbest·N)), (0, 1]
  double archive = 1.0;  ///< archive size round(archive·N), [0, 10]
  int memory = 6;        ///< SHADE memory entries H, [1, 1000]
  de_crossover crossover = de_crossover::bin;  ///< binomial, exponential, or alternating on restarts
};

/// Extra stopping rules; the generation limit always applies.
struct stop_options {
  std::optional<double> target;           ///< stop once the best feasible objective reaches it
  std::optional<int> stall_generations;   ///< stop after this many generations without improvement
  std::optional<double> time_limit_s;     ///< stop after this wall time (checked each generation)
  /// Budget in objective evaluations, >= population: the run never performs more. The generation
  /// limit of each (re)start is cut to what the remaining budget pays for, so no generation overshoots.
  /// The gradient repair's evaluations are known only after its generation: a generation whose repair could
  /// pass the budget at its worst (detail::max_repair_evaluations) runs without the repair, so a run's last
  /// few generations may (3 + 1 = 4 generations' worth of children with DE and exact Jacobians).
  std::optional<std::uint64_t> evaluations;
};

/**
 * Which population each restart gets (restart_options::schedule).
 * - `ipop`: start k has population × population_growth^k (Auger & Hansen 2005).
 * - `bipop`: two interlaced regimes (Hansen 2009, "Benchmarking a BI-population CMA-ES on the BBOB-2009
 *   function testbed", GECCO 2009). Large starts grow as IPOP's: the j-th has population × growth^j. After it
 *   come 2^j small starts, each with population × growth^(j·u²), u uniform in [0, 1) drawn from its seed: most
 *   near the first start's size. Hansen runs the regime that has spent fewer evaluations so far; here the
 *   interlacing is fixed in advance (a start costs about its population's share), so start k's options are a
 *   function of k alone and checkpoints and islands need no extra state. The small starts serve deceptive,
 *   funnel-shaped landscapes (many cheap tries), the large ones landscapes that need a large population.
 */
enum class restart_schedule { ipop, bipop };
constexpr const char* to_string(restart_schedule s) { return s == restart_schedule::bipop ? "bipop" : "ipop"; }

/**
 * Restarts on stagnation with a growing population (IPOP: Auger & Hansen 2005,
 * "A restart CMA evolution strategy with increasing population size", CEC 2005).
 * When the current population's best has not improved for `stall_generations`,
 * the run starts afresh: population × `population_growth` (or as `schedule` says; elitism scaled
 * alike), a seed derived from the run's seed and the restart number. The run's
 * best-so-far, generation and evaluation counters and history carry over, so a
 * larger budget never ends worse than a smaller one's best (under the run's ranking).
 * With `convergence_tolerance`, a stalled start ends only once its population has also converged — its mean
 * objective within convergence_tolerance · max(1, |best|) of its best, IPOP-CMA-ES's TolFun criterion — or
 * after `max_stall_generations` without improvement: a population still closing in on a plateau of the best
 * (rounded genes, a feasible region being filled) is not thrown away, a converged trap is left at once
 * (docs/quality.md, "Restarts that wait for convergence"). With it, too, a feasible best's improvement counts
 * only when it exceeds convergence_tolerance · max(1, |best at the last one that counted|) (CMA-ES's TolFun
 * over a window of best values), so a start creeping along in the 9th digit ends (engine::
 * generations_without_progress). Checked by restart_due (engine/restart.hpp).
 * With islands (`islands.count` > 1), each island restarts on its own at an epoch end, and a fresh start takes
 * no immigrants for its first `stall_generations` generations (islands/solve_islands.hpp).
 */
struct restart_options {
  std::optional<int> stall_generations;  ///< >= 1; empty = no restarts
  double population_growth = 2;          ///< >= 1
  restart_schedule schedule = restart_schedule::ipop;  ///< which population each start gets
  /// >= 0, relative; empty = restart at `stall_generations` whether or not the population has converged.
  std::optional<double> convergence_tolerance;
  /// >= stall_generations, only with convergence_tolerance: the restart without convergence; empty = 5 ×
  /// stall_generations.
  std::optional<int> max_stall_generations;
  /// max_stall_generations, else 5 × stall_generations. @pre stall_generations has a value.
  int max_stall() const { return max_stall_generations.value_or(5 * *stall_generations); }
};

/**
 * Checkpoints of a run (engine/checkpoint.hpp): the whole run state, handed to `write` as the bytes of
 * one checkpoint (ga-run writes them to a file atomically). A checkpoint is written at the end of every
 * `every_generations`-th generation, at the end of the first generation `every_seconds` after the last
 * one, when the run is interrupted (`ga_options::interrupt`), and when it ends. Resuming one
 * (`solve(..., std::istream&)`) ends bitwise identical to the run uninterrupted, wall-clock fields aside.
 */
struct checkpoint_options {
  std::function<void(const std::string& bytes)> write;  ///< empty: no checkpoints
  int every_generations = 0;  ///< >= 0; 0 = not by generation count
  double every_seconds = 0;   ///< >= 0; 0 = not by time
  /// Describes the problem beyond its C++ type, dimension and bounds (e.g. its expressions or parameters),
  /// compared on resume.
  std::string problem_id;
  std::string metadata;  ///< stored as is and returned by read_checkpoint_header (ga-run: its config)
};

struct ga_options;

namespace islands {
class any_transport;  // islands/any_transport.hpp
}

/// How islands exchange individuals (islands/migration.hpp).
enum class migration_topology {
  ring,             ///< island i sends to island (i + 1) mod I
  random,           ///< each island sends to one other island drawn anew each epoch (Philox of seed, epoch, island)
  fully_connected,  ///< each island sends to every other island
};

/// The YAML spelling of a topology ("ring", "random", "fully-connected").
constexpr const char* to_string(migration_topology t) {
  return t == migration_topology::ring ? "ring" : t == migration_topology::random ? "random" : "fully-connected";
}

/// Which individuals migrate and whom they replace.
enum class migration_policy {
  /// The `size` best of the source (its own order) are sent; the receiver ranks everything it received under its
  /// own order and its j-th best immigrant replaces its j-th worst resident when it ranks strictly better
  /// (pagmo's select_best / fair_replace).
  best_replace_worst,
};

/// The YAML spelling of a policy ("best-replace-worst").
constexpr const char* to_string(migration_policy) { return "best-replace-worst"; }

/// When and what islands exchange.
struct migration_options {
  int every = 10;                 ///< M: migrate after every M-th generation, >= 1
  std::size_t size = 1;           ///< K: individuals each island sends (and at most replaces) per epoch, >= 1
  migration_topology topology = migration_topology::ring;
  migration_policy policy = migration_policy::best_replace_worst;
};

/**
 * The island model (Cantú-Paz 2000, "Efficient and Accurate Parallel Genetic Algorithms"; pagmo's archipelago):
 * `count` sub-populations evolve apart and exchange their best every `migration.every` generations
 * (islands/solve_islands.hpp). `ga_options::population` is the total: island i holds N/I individuals (the
 * first N mod I islands one more). Island i's seed is derived from the run's seed and i (island 0 keeps it).
 * With `variants` non-empty, island i takes its search settings (algorithm, selection, crossover, mutation,
 * elitism, survival, de, constraints) from `variants[i % variants.size()]` (heterogeneous islands); its
 * population, generations, seed, stop, restarts and callbacks come from the run's options.
 */
struct island_options {
  int count = 1;  ///< I in [1, population / 2]; 1 = one panmictic population (no islands)
  migration_options migration;
  std::vector<ga_options> variants;  ///< empty: every island uses the run's own settings
  /// The ranks to spread the islands over (islands/any_transport.hpp, e.g. an MPI communicator's through
  /// islands/mpi_transport.hpp); not owned, it must outlive the run. Null: every island in this process. When
  /// set, `solve` runs the island model over it even for count 1 (then count must be >= its rank count).
  islands::any_transport* transport = nullptr;
};

/**
 * Everything `solve` needs besides the problem and the backend.
 *
 * Defaults follow common practice (pymoo's GA, Deb's NSGA-II code): binary
 * tournament, SBX(η=15, rate 0.9), polynomial mutation (η=20, rate 1/d),
 * elitism 2, feasibility rules. What did best on the quality suite, and what
 * `ga-run` runs when a config sets nothing, is `measured_defaults(problem)`
 * (engine/measured_defaults.hpp).
 */
struct ga_options {
  std::size_t population = 100;  ///< N in [2, 2^31)
  int generations = 300;         ///< maximal generations, >= 0 (0 = evaluate the initial population only)
  std::uint64_t seed = 42;       ///< run seed; equal seeds give bitwise equal runs
  selection_options selection;
  crossover_options crossover;
  mutation_options mutation;
  std::size_t elitism = 2;       ///< best individuals copied unchanged into the next generation, < population
  constraint_options constraints;
  restart_options restarts;
  algorithm_kind algorithm = algorithm_kind::ga;  ///< GA or differential evolution
  survival_options survival;  ///< GA survivor selection; with plus, `elitism` does not apply (λ = N children)
  de_options de;              ///< differential evolution (algorithm de); `selection`, `crossover`, `mutation`,
                              ///< `survival` and `elitism` do not apply to it
  stop_options stop;
  /// Called on the host after every generation (generation 0 = initial population). May be empty.
  std::function<void(const generation_stats&)> on_generation;
  /// When set and true, the run stops at the end of the current generation (e.g. on SIGINT).
  const std::atomic<bool>* interrupt = nullptr;
  checkpoint_options checkpoint;  ///< where and when to write checkpoints; not part of the trajectory
  island_options islands;         ///< sub-populations with migration (count 1: none)
};

}  // namespace fusedga
