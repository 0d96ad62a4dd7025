// ga-bench --workloads islands (bench/islands_bench.hpp): one row per island count that fits, one population as
// the baseline of the ratio, migration bytes as hand-computed from the config, cells that cannot run noted, and
// the table and JSON carrying every row. Issue 18.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bench/bench_config.hpp"
#include "bench/islands_bench.hpp"

using namespace fusedga;

TEST_CASE("islands bench: rows per island count, hand-computed bytes, the ratio to one population") {
  const run_config cfg = resolve_bench_config(
      "classic/rastrigin", {"problem.params.dimension=5", "ga.islands.count=2", "ga.islands.migration.every=3", "ga.islands.migration.size=2"});
  islands_bench_plan plan;
  plan.sizes = {200};
  plan.backends = {{backend_kind::serial, 1}};
  plan.island_counts = {1, 4, 150};
  plan.repeats.warmup = 0;
  plan.repeats.min_repeats = 2;
  plan.repeats.min_time_s = 0;
  std::vector<std::string> notes;
  const auto rows = run_islands_bench(cfg, plan, local_transports(), notes);
  REQUIRE(rows.size() == 2);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "N = 200, I = 150 skipped: the island model needs R <= I <= N / 2 (R = 1)");

  const islands_bench_row& one = rows[0];
  CHECK(one.islands == 1);
  CHECK(one.repeats == 2);
  CHECK_FALSE(one.vs_one_population);
  CHECK(one.migrant_bytes == 0);
  CHECK(one.gathered_bytes == 0);

  const islands_bench_row& four = rows[1];
  CHECK(four.islands == 4);
  CHECK(four.population == 200);
  CHECK(four.ranks == 1);
  CHECK(four.every == 3);
  CHECK(four.migrants == 2);
  CHECK(four.topology == "ring");
  CHECK(four.migrant_bytes == 4 * 2 * (5 * 8 + 2 * 8));  // 4 packets of K rows: d genes, objective, violation
  CHECK(four.cross_rank_bytes == 0);
  CHECK(four.gathered_bytes > 0);
  // The ratio exists where one population's time does (a difference of two noisy run times: it may be <= 0).
  REQUIRE(four.vs_one_population.has_value() == (one.generation_ms > 0));
  if (four.vs_one_population) CHECK(*four.vs_one_population == Approx(four.generation_ms / one.generation_ms));
  CHECK(four.p10_ms <= four.generation_ms);
  CHECK(four.generation_ms <= four.p90_ms);

  const std::string table = format_islands_table("classic/rastrigin", rows, notes);
  CHECK(table.find("migration every M = 3 generations, K = 2, ring; ranks R = 1") != std::string::npos);
  CHECK(table.find("note: N = 200, I = 150 skipped") != std::string::npos);
  const nlohmann::json j = islands_bench_json("classic/rastrigin", rows, notes);
  CHECK(j["workload"] == "islands");
  REQUIRE(j["rows"].size() == 2);
  CHECK(j["rows"][0]["vs_one_population"].is_null());
  CHECK(j["rows"][1]["migrant_bytes"] == four.migrant_bytes);
  CHECK(j["rows"][1]["generation_ms"] == four.generation_ms);
}

TEST_CASE("islands bench: a backend other than serial or tbb is a config error") {
  const run_config cfg = resolve_bench_config("classic/sphere", {});
  islands_bench_plan plan;
  plan.sizes = {100};
  plan.backends = {{backend_kind::cuda, 1}};
  std::vector<std::string> notes;
  CHECK_THROWS_WITH(run_islands_bench(cfg, plan, local_transports(), notes),
                    Catch::Contains("--workloads islands runs on serial and tbb, not cuda"));
}

TEST_CASE("islands bench: more epochs per pair give the same per-migration figures, per epoch") {
  const run_config cfg =
      resolve_bench_config("classic/rastrigin", {"problem.params.dimension=5", "ga.islands.count=2",
                                                 "ga.islands.migration.every=3", "ga.islands.migration.size=2"});
  islands_bench_plan plan;
  plan.sizes = {200};
  plan.backends = {{backend_kind::serial, 1}};
  plan.island_counts = {4};
  plan.repeats.warmup = 0;
  plan.repeats.min_repeats = 1;
  plan.repeats.min_time_s = 0;
  std::vector<std::string> notes;
  const auto one_epoch = run_islands_bench(cfg, plan, local_transports(), notes);
  plan.epochs = 3;
  const auto three = run_islands_bench(cfg, plan, local_transports(), notes);
  REQUIRE(one_epoch.size() == 1);
  REQUIRE(three.size() == 1);
  CHECK(three[0].epochs == 3);
  CHECK(three[0].migrant_bytes == 4 * 2 * (5 * 8 + 2 * 8));  // per migration, as with one epoch
  CHECK(three[0].migrant_bytes == one_epoch[0].migrant_bytes);
  CHECK(three[0].gathered_bytes == one_epoch[0].gathered_bytes);  // per epoch
  CHECK(format_islands_table("classic/rastrigin", three, notes).find("over E = 3 epochs, (T((E+1)M) - T(M)) / (E M)") !=
        std::string::npos);
  CHECK(islands_bench_json("classic/rastrigin", three, notes)["rows"][0]["epochs"] == 3);
  plan.epochs = 0;
  CHECK_THROWS_WITH(run_islands_bench(cfg, plan, local_transports(), notes),
                    "--epochs: expected an integer >= 1, got 0");
}
