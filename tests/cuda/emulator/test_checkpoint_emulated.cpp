// Checkpoint and exact resume on the CUDA executor (backends/cuda/executor.hpp: save_state, load_state,
// resume), run on the kernel emulator: resumed from its own checkpoints a run ends bitwise as uninterrupted;
// its checkpoints resume on the serial backend and the serial backend's on it, where the backends are bitwise
// equal (integer genes; differential evolution, whose history means differ only by the summation order); and a
// damaged or mismatched checkpoint is the same error as on the CPU. Issue 16.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

#include "cuda/emulator/emulated_runtime.hpp"
#include "engine/handler_problems.hpp"
#include "engine/checkpoint_runs.hpp"
#include "engine/same_result.hpp"

using namespace fusedga;
using cuda_test::emulated_cuda;
using CQ = problems::ConstrainedQuadratic<double>;

namespace {

using checkpoint_test::base;
using checkpoint_test::checkpoints_of;
using checkpoint_test::require_same_run;
using checkpoint_test::resume;

// Resumed on the emulated GPU from each of its own checkpoints, `o` ends as its uninterrupted run (returned).
template <class Problem>
Result check_resumes_itself(const Problem& p, const ga_options& o, int every) {
  const Result whole = solve(p, o, emulated_cuda{});
  const std::vector<std::string> cks = checkpoints_of(p, o, emulated_cuda{}, every);
  REQUIRE(cks.size() >= 3);
  for (std::size_t i = 0; i < cks.size(); ++i) {
    INFO("checkpoint " << i);
    require_same_run(whole, resume(p, o, emulated_cuda{}, cks[i]));
  }
  return whole;
}

}  // namespace

TEST_CASE("checkpoint: GA runs resumed from the emulated GPU's checkpoints end bitwise the same", "[cuda][checkpoint]") {
  SECTION("real genes, feasibility rules, 3 elites") { check_resumes_itself(handler_test::HS39{}, base(80, 14), 4); }
  SECTION("real genes, 12 elites (chosen by sorting the keys)") {
    ga_options o = base(80, 14);
    o.elitism = 12;
    check_resumes_itself(CQ{}, o, 4);
  }
  SECTION("real genes, no elitism: the best-so-far lives only in the kept genes") {
    ga_options o = base(80, 14);
    o.elitism = 0;
    o.mutation.rate = 0.9;
    check_resumes_itself(CQ{}, o, 4);
  }
  SECTION("integer genes") {
    ga_options o = base(80, 14);
    o.crossover.kind = crossover_kind::uniform;
    o.mutation.kind = mutation_kind::creep;
    check_resumes_itself(handler_test::IntegerConstrained{}, o, 4);
  }
  SECTION("plus survival") {
    ga_options o = base(80, 14);
    o.survival.kind = survival_kind::plus;
    check_resumes_itself(CQ{}, o, 4);
  }
  SECTION("epsilon-constrained (adaptive handler state)") {
    ga_options o = base(80, 14);
    o.constraints.rule = constraint_rule::epsilon;
    check_resumes_itself(handler_test::HS39{}, o, 4);
  }
  SECTION("self-adaptive penalty") {
    ga_options o = base(80, 14);
    o.constraints.rule = constraint_rule::self_adaptive_penalty;
    check_resumes_itself(handler_test::HS39{}, o, 4);
  }
}

TEST_CASE("checkpoint: SHADE resumed from the emulated GPU's checkpoints ends bitwise the same", "[cuda][checkpoint]") {
  ga_options o = base(80, 14);
  o.algorithm = algorithm_kind::de;
  o.de.strategy = de_strategy::shade;
  o.de.archive = 0.2;  // filled early: later rows replaced at random
  SECTION("feasibility rules") { check_resumes_itself(handler_test::HS39{}, o, 4); }
  SECTION("epsilon-constrained") {
    o.constraints.rule = constraint_rule::epsilon;
    check_resumes_itself(handler_test::HS39{}, o, 4);
  }
  SECTION("restarts") {
    o.population = 40;
    o.generations = 40;
    o.restarts.stall_generations = 3;
    CHECK(check_resumes_itself(handler_test::HS39{}, o, 10).restarts > 0);
  }
}

TEST_CASE("checkpoint: the emulated GPU's checkpoints resume on the serial backend and the other way round",
          "[cuda][checkpoint]") {
  SECTION("integer genes, generational (bitwise equal backends)") {
    ga_options o = base(120, 16);
    o.crossover.kind = crossover_kind::two_point;
    o.mutation.kind = mutation_kind::uniform_reset;
    o.elitism = 4;
    problems::GeneSum<double> p;
    p.genes = 20;
    const Result serial = solve(p, o, backend::serial{});
    require_same_run(serial, solve(p, o, emulated_cuda{}));  // the premise: the uninterrupted runs agree
    const std::vector<std::string> gpu_cks = checkpoints_of(p, o, emulated_cuda{}, 5);
    const std::vector<std::string> cpu_cks = checkpoints_of(p, o, backend::serial{}, 5);
    for (std::size_t i = 0; i + 1 < gpu_cks.size(); ++i) {
      INFO("checkpoint " << i);
      require_same_run(serial, resume(p, o, backend::serial{}, gpu_cks[i]));
      require_same_run(serial, resume(p, o, backend::tbb{2}, gpu_cks[i]));
      require_same_run(serial, resume(p, o, emulated_cuda{}, cpu_cks[i]));
    }
  }
  SECTION("integer genes, plus survival") {
    ga_options o = base(100, 16);
    o.crossover.kind = crossover_kind::two_point;
    o.mutation.kind = mutation_kind::uniform_reset;
    o.survival.kind = survival_kind::plus;
    problems::GeneSum<double> p;
    p.genes = 40;
    const Result serial = solve(p, o, backend::serial{});
    require_same_run(serial, resume(p, o, backend::serial{}, checkpoints_of(p, o, emulated_cuda{}, 6)[1]));
    require_same_run(serial, resume(p, o, emulated_cuda{}, checkpoints_of(p, o, backend::serial{}, 6)[1]));
  }
  SECTION("GA on real genes, SBX and polynomial mutation on an arithmetic problem (means to 1e-12)") {
    const ga_options o = base(100, 16);
    const Result serial = solve(CQ{}, o, backend::serial{});
    require_same_run(serial, resume(CQ{}, o, emulated_cuda{}, checkpoints_of(CQ{}, o, backend::serial{}, 6)[0]), false);
    require_same_run(serial, resume(CQ{}, o, backend::serial{}, checkpoints_of(CQ{}, o, emulated_cuda{}, 6)[1]), false);
  }
  SECTION("SHADE on real genes: the same trials, survivors, memories and archive (means to 1e-12)") {
    ga_options o = base(100, 16);
    o.algorithm = algorithm_kind::de;
    o.de.strategy = de_strategy::shade;
    o.de.archive = 0.2;
    const Result serial = solve(CQ{}, o, backend::serial{});
    require_same_run(serial, resume(CQ{}, o, backend::serial{}, checkpoints_of(CQ{}, o, emulated_cuda{}, 6)[1]), false);
    require_same_run(serial, resume(CQ{}, o, emulated_cuda{}, checkpoints_of(CQ{}, o, backend::serial{}, 6)[1]), false);
  }
}

TEST_CASE("checkpoint: a damaged or mismatched checkpoint into the emulated GPU is the CPU's clear error",
          "[cuda][checkpoint]") {
  const ga_options o = base(100, 10);
  const std::string ck = checkpoints_of(CQ{}, o, emulated_cuda{}, 5).front();
  const auto same_error = [&](const ga_options& run, const std::string& bytes, const std::string& expected) {
    std::string on_cpu, on_gpu;
    try {
      resume(CQ{}, run, backend::serial{}, bytes);
    } catch (const checkpoint_error& e) {
      on_cpu = e.what();
    }
    try {
      resume(CQ{}, run, emulated_cuda{}, bytes);
    } catch (const checkpoint_error& e) {
      on_gpu = e.what();
    }
    CHECK_THAT(on_gpu, Catch::Contains(expected));
    CHECK(on_gpu == on_cpu);
  };
  std::string flipped = ck;
  flipped[flipped.size() / 2] ^= 0x10;
  same_error(o, flipped, "checksum does not match");
  same_error(o, ck.substr(0, ck.size() - 100), "truncated");
  ga_options seed = o;
  seed.seed = 8;
  same_error(seed, ck, "ga.seed: checkpoint 7, this run 8");
  ga_options population = o;
  population.population = 120;
  same_error(population, ck, "ga.population: checkpoint 100, this run 120");
  // Below the header check (engine::save / load, as an embedding caller drives them): a state of another
  // population size is refused naming the record, as on the CPU.
  engine<CQ, emulated_cuda> writer(CQ{}, o, emulated_cuda{});
  writer.initialize();
  writer.step();
  std::ostringstream out(std::ios::binary);
  detail::checkpoint_writer w(out);
  writer.save(w);
  w.finish();
  const auto load_error = [&](auto& e) -> std::string {
    std::istringstream in(out.str());
    detail::checkpoint_reader r(in, "ck");
    try {
      e.load(r);
    } catch (const checkpoint_error& x) {
      return x.what();
    }
    return "";
  };
  engine<CQ, emulated_cuda> gpu(CQ{}, base(90, 10), emulated_cuda{});
  engine<CQ, backend::serial> cpu(CQ{}, base(90, 10), backend::serial{});
  const std::string on_gpu = load_error(gpu), on_cpu = load_error(cpu);
  CHECK(on_gpu == "ck: checkpoint record 'population.genes' holds 300 values where 270 were expected");
  CHECK(on_gpu == on_cpu);
}
