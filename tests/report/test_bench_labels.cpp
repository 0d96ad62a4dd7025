// The text of a row's tier, workload and backend (bench/bench_labels.hpp): every label round-trips, an unknown one
// is a clear error, and the saved reports in docs/ still load.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "bench/bench_labels.hpp"
#include "fusedga/core/error.hpp"
#include "report/compare_reports.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga;

TEST_CASE("bench labels: every tier, workload and backend round-trips through its text", "[report][labels]") {
  std::set<std::string> texts;
  for (const bench_tier t : bench_tiers) {
    CHECK(parse_bench_tier(to_string(t)) == t);
    texts.insert(to_string(t));
  }
  CHECK(texts == std::set<std::string>{"object", "unfused", "interpreter", "fused-interp", "fused", "fused-transfer",
                                       "fused-jit", "builtin", "builtin-transfer"});
  for (const bench_workload w : bench_workloads) CHECK(parse_bench_workload(to_string(w)) == w);
  CHECK(std::string(to_string(bench_workload::eval)) == "eval");
  CHECK(std::string(to_string(bench_workload::generation)) == "generation");
  for (const backend_kind b : bench_backends) CHECK(parse_bench_backend(to_string(b)) == b);
  CHECK(parse_label("fused", "--tiers", plan_tiers) == bench_tier::fused);
}

TEST_CASE("bench labels: an unknown label is a config_error naming the field and the allowed values",
          "[report][labels]") {
  CHECK_THROWS_AS(parse_bench_tier("fast"), config_error);
  CHECK_THROWS_WITH(parse_bench_tier("fast"),
                    "tier: unknown value 'fast'; expected one of: object, unfused, interpreter, fused-interp, fused, "
                    "fused-transfer, fused-jit, builtin, builtin-transfer");
  CHECK_THROWS_WITH(parse_bench_tier("Fused"), Catch::StartsWith("tier: unknown value 'Fused'"));  // exact text only
  CHECK_THROWS_WITH(parse_bench_workload("evaluate"),
                    "workload: unknown value 'evaluate'; expected one of: eval, generation");
  CHECK_THROWS_WITH(parse_bench_backend("auto"), "backend: unknown value 'auto'; expected one of: serial, tbb, cuda");
  CHECK_THROWS_WITH(parse_bench_backend(""), "backend: unknown value ''; expected one of: serial, tbb, cuda");
  // The plan's subset (ga-bench --tiers) lists only what it accepts.
  CHECK_THROWS_WITH(parse_label("fused-jit", "--tiers", plan_tiers),
                    "--tiers: unknown value 'fused-jit'; expected one of: object, unfused, fused");
}

TEST_CASE("bench labels: the saved reports in docs/ load with every row's labels", "[report][labels][compare]") {
  namespace fs = std::filesystem;
  const fs::path docs = fs::path(FUSEDGA_SOURCE_DIR) / "docs";
  int files = 0;
  // The speed reports only (docs/quality-reports/ holds ga-bench --quality's, another format).
  for (const char* dir : {"bench", "reports"})
    for (const auto& e : fs::recursive_directory_iterator(docs / dir)) {
      if (e.path().extension() != ".json") continue;
      INFO(e.path().string());
      const saved_report r = load_saved_report(e.path().string());
      CHECK_FALSE(r.rows.empty());
      ++files;
    }
  CHECK(files >= 8);  // docs/bench/*.json and docs/reports/*/results.json
}
