#include "bench/quality_pagmo.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/expr/interpreter.hpp"
#include "fusedga/operators/repair.hpp"

#ifdef FUSEDGA_WITH_PAGMO
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cstrs_self_adaptive.hpp>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/de1220.hpp>
#include <pagmo/algorithms/gaco.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/unconstrain.hpp>
#endif

namespace fusedga {

const std::vector<std::string>& pagmo_methods() {
  static const std::vector<std::string> names{"pagmo-sade", "pagmo-de1220", "pagmo-gaco", "pagmo-cstrs-de"};
  return names;
}

#ifdef FUSEDGA_WITH_PAGMO

namespace {

/// What every evaluation of one run saw: the count and the best point by the feasibility rules.
struct run_log {
  std::uint64_t evaluations = 0;
  bool have = false;
  double objective = 0, violation = 0;
  void add(double f, double v) {
    ++evaluations;
    const bool better = !have || ((v <= 0) != (violation <= 0) ? v <= 0 : (v <= 0 ? f < objective : v < violation));
    if (better) {
      have = true;
      objective = f;
      violation = v;
    }
  }
};

/// The UDP: an expression problem for pagmo (minimization; a maximized objective is negated).
struct expression_udp {
  std::shared_ptr<const expr::program> program;
  double eps = 1e-4;
  std::shared_ptr<run_log> log;  // shared by pagmo's copies of the problem
  std::vector<std::uint8_t> integer = program->integer_marks();  // pagmo's algorithms see them as real genes

  pagmo::vector_double fitness(const pagmo::vector_double& genes) const {
    const expr::program& p = *program;
    pagmo::vector_double x = genes;
    for (std::size_t j = 0; j < integer.size(); ++j)
      if (integer[j]) x[j] = round_integer_gene(x[j]);  // as the engine keeps them
    // pagmo's fitness layout: [f, h_1..h_p (equalities), g_1..g_m (inequalities)], each kind in declaration order.
    pagmo::vector_double out(1 + static_cast<std::size_t>(p.equality_count()), 0.0);
    const double sign = p.sense == Sense::maximize ? -1.0 : 1.0;
    out[0] = sign * expr::reference_objective(p, x.data());
    std::size_t next_eq = 1;
    double v = 0;
    for (std::size_t k = 0; k < p.constraints.size(); ++k) {
      const double c = expr::reference_constraint(p, static_cast<int>(k), x.data());
      if (p.constraints[k].kind == expr::constraint_kind::inequality) {
        out.push_back(c);
        v += c > 0 ? c : 0;
      } else {
        out[next_eq++] = c;
        v += std::fabs(c) > eps ? std::fabs(c) - eps : 0;
      }
    }
    if (std::isnan(v)) v = std::numeric_limits<double>::infinity();
    if (log) log->add(sign * out[0], v);
    return out;
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    pagmo::vector_double lo, hi;
    for (const expr::variable& var : program->variables) {
      lo.insert(lo.end(), var.lower.begin(), var.lower.end());
      hi.insert(hi.end(), var.upper.begin(), var.upper.end());
    }
    return {lo, hi};
  }
  pagmo::vector_double::size_type get_nic() const { return static_cast<std::size_t>(program->inequality_count()); }
  pagmo::vector_double::size_type get_nec() const { return static_cast<std::size_t>(program->equality_count()); }
  std::string get_name() const { return "FusedGA expression problem"; }
};

}  // namespace

bool pagmo_built() { return true; }

std::vector<double> pagmo_fitness(const expr::program& p, double eps, const std::vector<double>& x) {
  pagmo::problem prob{expression_udp{std::make_shared<expr::program>(p), eps, nullptr}};
  return prob.fitness(x);
}

peer_trace run_pagmo(const std::string& method, const expr::program& p, double eps, std::uint64_t budget,
                     std::uint64_t seed, int population) {
  auto log = std::make_shared<run_log>();
  expression_udp udp{std::make_shared<expr::program>(p), eps, log};
  pagmo::problem prob{udp};
  pagmo::vector_double tol(prob.get_nc(), 0.0);
  for (std::size_t k = 0; k < prob.get_nec(); ++k) tol[k] = eps;  // pagmo orders equalities first
  prob.set_c_tol(tol);
  const auto s = static_cast<unsigned>(seed);
  pagmo::algorithm algo;
  bool unconstrained = false;
  if (method == "pagmo-sade") {
    algo = pagmo::algorithm{pagmo::sade(1u, 2u, 1u, 0.0, 0.0, true, s)};
    unconstrained = true;
  } else if (method == "pagmo-de1220") {
    algo = pagmo::algorithm{pagmo::de1220(1u, pagmo::de1220_statics<void>::allowed_variants, 1u, 0.0, 0.0, true, s)};
    unconstrained = true;
  } else if (method == "pagmo-gaco") {
    algo = pagmo::algorithm{pagmo::gaco(1u, 63u, 1.0, 0., 0.01, 1u, 7u, 100000u, 100000u, 0., true, s)};
  } else if (method == "pagmo-cstrs-de") {
    // cstrs_self_adaptive refuses a problem without constraints: there its inner DE runs alone, as it would.
    const pagmo::de inner(1u, 0.8, 0.9, 2u, 0.0, 0.0, s);
    algo = prob.get_nc() == 0 ? pagmo::algorithm{inner}
                              : pagmo::algorithm{pagmo::cstrs_self_adaptive(1u, inner, s)};
  } else {
    throw error("unknown pagmo peer '" + method + "'");
  }
  if (unconstrained && prob.get_nc() == 0) unconstrained = false;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  peer_trace t;
  pagmo::population pop = unconstrained
                              ? pagmo::population(pagmo::problem{pagmo::unconstrain(prob, "kuri")},
                                                  static_cast<std::size_t>(population), s)
                              : pagmo::population(prob, static_cast<std::size_t>(population), s);
  t.samples.push_back({log->evaluations, elapsed(), log->objective, log->violation});
  while (log->evaluations < budget) {
    const std::uint64_t before = log->evaluations;
    pop = algo.evolve(pop);
    if (log->evaluations == before) break;  // the algorithm stopped on its own (converged)
    t.samples.push_back({log->evaluations, elapsed(), log->objective, log->violation});
  }
  t.evaluations = log->evaluations;
  t.wall_s = elapsed();
  return t;
}

#else

bool pagmo_built() { return false; }

std::vector<double> pagmo_fitness(const expr::program&, double, const std::vector<double>&) {
  throw error("pagmo is not built into this ga-bench (install libpagmo-dev and reconfigure)");
}

peer_trace run_pagmo(const std::string&, const expr::program&, double, std::uint64_t, std::uint64_t, int) {
  throw error("pagmo is not built into this ga-bench (install libpagmo-dev and reconfigure)");
}

#endif

}  // namespace fusedga
