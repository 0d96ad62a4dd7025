#pragma once
// One GPU-style run of the engine, shared by the real GPU harness
// (gpu_harness.cu: backend::cuda) and the kernel emulator (emulator/:
// emulated_cuda), so both tests exercise the same engine calls.
#include <cstddef>

#include <fusedga/engine/engine.hpp>
#include <fusedga/engine/options.hpp>

#include "cuda/host_population.hpp"

namespace cuda_test {

/// The engine's current population and statistics, downloaded to the host.
template <class Problem, class Engine>
host_population<Problem> download(const Engine& e, std::size_t n, int d) {
  host_population<Problem> h;
  h.resize(n, d);
  e.download(h.genes.data(), h.objective.data(), h.violation.data(), h.rank_key.data());
  h.stats = e.stats();
  return h;
}

/**
 * Builds engine<Problem, Backend>, initializes it, replaces its population by
 * `start` when given (genes, objective, violation, keys), runs `generations`
 * steps and downloads the populations.
 */
template <class Problem, class Backend>
gpu_run<Problem> run_engine(const Problem& p, const fusedga::ga_options& o, int generations,
                            const host_population<Problem>* start, const Backend& backend) {
  fusedga::engine<Problem, Backend> e(p, o, backend);
  e.initialize();
  if (start) e.upload(start->genes.data(), start->objective.data(), start->violation.data(), start->rank_key.data());
  gpu_run<Problem> r;
  const int d = p.dimension();
  r.initial = download<Problem>(e, o.population, d);
  for (int g = 0; g < generations; ++g) e.step();
  r.final = download<Problem>(e, o.population, d);
  r.history = e.history();
  for (const auto g : e.best_genes()) r.best_genes.push_back(static_cast<double>(g));
  r.best_objective = static_cast<double>(e.best_objective());
  r.best_violation = static_cast<double>(e.best_violation());
  r.evaluations = e.evaluations();
  if (o.algorithm == fusedga::algorithm_kind::de) {
    const auto s = e.executor().download_de();
    r.de_memory_F = s.memory_F;
    r.de_memory_CR = s.memory_CR;
    r.de_next_memory = s.next_memory;
    r.de_archive.assign(s.archive.begin(), s.archive.begin() + std::ptrdiff_t(s.archive_size) * d);
  }
  return r;
}

}  // namespace cuda_test
