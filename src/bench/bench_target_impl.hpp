#pragma once
/// @file bench_target_impl.hpp
/// `make_bench_target<Problem>`: the typed implementation of every ga-bench
/// tier. The unfused tier comes from the `unfused_evaluator<Problem>` trait
/// (unfused_seed.hpp); problems without a specialization have none.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "bench/bench_options.hpp"
#include "bench/bench_target.hpp"
#include "bench/unfused_check.hpp"
#include "bench/unfused_seed.hpp"
#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/gene_view.hpp"
#include "fusedga/engine/engine.hpp"
#include "fusedga/engine/evaluate.hpp"

namespace fusedga {
namespace detail {

/// Object-per-individual evaluation, the way DEAP or OpenGA hold a population:
/// each individual its own heap-allocated std::vector, fitness through a virtual call.
struct object_evaluator {
  virtual ~object_evaluator() = default;
  virtual double evaluate(const std::vector<double>& genes) const = 0;
};

template <class Problem>
struct object_evaluator_for final : object_evaluator {
  Problem problem;
  double eps;
  explicit object_evaluator_for(const Problem& p, double e) : problem(p), eps(e) {}
  double evaluate(const std::vector<double>& genes) const override {
    // Converts to the problem's gene type per call, as a boxed Python float list would be.
    std::vector<gene_t<Problem>> x(genes.begin(), genes.end());
    if constexpr (has_batch_evaluation<Problem>::value) {
      fitness_t<Problem> objective, violation;
      problem.evaluate_batch(x.data(), 0, 1, 1, fitness_t<Problem>(eps), &objective, &violation);
      return double(objective) + double(violation);
    } else {
      const gene_view<gene_t<Problem>, 1> xv{x.data()};
      double v = 0;
      if constexpr (has_inequalities<Problem>::value) {
        auto g = inequality_sink(&v);
        problem.inequalities(xv, g);
      }
      if constexpr (has_equalities<Problem>::value) {
        auto h = equality_sink(&v, eps);
        problem.equalities(xv, h);
      }
      return problem.objective(xv) + v;
    }
  }
};

template <class Problem>
class bench_target_for final : public bench_target {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using unfused_eval = unfused_evaluator<Problem>;

  bench_target_for(const Problem& p, const run_config& cfg) : problem_(p), cfg_(cfg) {}

  int dimension() const override { return problem_.dimension(); }
  std::size_t gene_bytes() const override { return sizeof(gene); }
  std::size_t fitness_bytes() const override { return sizeof(fitness); }
  std::size_t key_bytes() const override { return sizeof(rank_key_t<fitness>); }

  void prepare(std::size_t population, backend_kind backend, int threads) override {
    const ga_options o = bench_ga_options(cfg_.ga, population);
    serial_.reset();
    tbb_.reset();
    release_objects();
    unfused_result_.reset();
    options_ = o;
    if (backend == backend_kind::serial) {
      serial_.emplace(problem_, o, backend::serial{});
      serial_->initialize();
    } else if (backend == backend_kind::tbb) {
      tbb_.emplace(problem_, o, backend::tbb{threads});
      tbb_->initialize();
    } else {
      throw backend_unavailable(std::string("ga-bench: backend ") + to_string(backend) +
                                " is not built (built backends: serial, tbb)");
    }
  }
  std::size_t elitism() const override { return options_.elitism; }
  int tournament_size() const override { return options_.selection.tournament_size; }

  void evaluate_fused() override { serial_ ? serial_->evaluate_population() : engine_or_throw().evaluate_population(); }
  void generation() override {
    unfused_result_.reset();
    serial_ ? serial_->step() : engine_or_throw().step();
  }

  void prepare_objects() override {
    release_objects();
    const auto pop = current();
    objects_.reserve(pop.size);
    for (std::size_t i = 0; i < pop.size; ++i) objects_.emplace_back(pop.row(i), pop.row(i) + pop.dimension);
    evaluator_ = std::make_unique<object_evaluator_for<Problem>>(problem_, cfg_.ga.constraints.equality_tolerance);
    object_fitness_.assign(pop.size, 0.0);
  }
  void release_objects() override {
    std::vector<std::vector<double>>().swap(objects_);
    std::vector<double>().swap(object_fitness_);
    evaluator_.reset();
  }
  void evaluate_objects() override {
    if (!evaluator_) throw error("ga-bench: evaluate_objects() before prepare_objects()");
    for (std::size_t i = 0; i < objects_.size(); ++i) object_fitness_[i] = evaluator_->evaluate(objects_[i]);
  }

  bool has_unfused() const override { return unfused_eval::available; }
  void evaluate_unfused() override {
    if constexpr (unfused_eval::available) {
      unfused_result_.reset();  // the previous result's arrays are freed first, as Python rebinding would
      unfused_result_ = unfused_eval::evaluate(problem_, current(), options_.constraints);
    } else {
      throw error("ga-bench: no unfused tier for this problem");
    }
  }
  double unfused_difference() const override {
    if (!unfused_result_) throw error("ga-bench: no unfused result to compare");
    const auto pop = current();
    const auto& r = *unfused_result_;
    double worst = 0;
    for (std::size_t i = 0; i < pop.size; ++i) {
      worst = std::max(worst, relative_difference(r.objective[i], pop.objective[i]));
      worst = std::max(worst, relative_difference(r.violation[i], pop.violation[i]));
    }
    return worst;
  }

 private:
  engine<Problem, backend::tbb>& engine_or_throw() {
    if (!tbb_) throw error("ga-bench: prepare() was not called");
    return *tbb_;
  }
  population_view<gene, fitness> current() const {
    if (serial_) return serial_->current();
    if (tbb_) return tbb_->current();
    throw error("ga-bench: prepare() was not called");
  }

  Problem problem_;
  run_config cfg_;
  ga_options options_;
  std::optional<engine<Problem, backend::serial>> serial_;
  std::optional<engine<Problem, backend::tbb>> tbb_;
  std::vector<std::vector<double>> objects_;
  std::unique_ptr<object_evaluator> evaluator_;
  std::vector<double> object_fitness_;
  std::optional<unfused_result<fitness>> unfused_result_;
};

}  // namespace detail

template <class Problem>
std::unique_ptr<bench_target> make_bench_target(const Problem& problem, const run_config& cfg) {
  return std::make_unique<detail::bench_target_for<Problem>>(problem, cfg);
}

}  // namespace fusedga
