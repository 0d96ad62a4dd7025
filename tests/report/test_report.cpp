// ga-bench --report and --compare: the report directory written from a
// hand-built report (every file, CSV and JSON agreeing, the Markdown tables
// and the "what this means" paragraph checked against hand-computed numbers),
// plotting with and without gnuplot, atomic replacement, comparing two saved
// runs, and ga-bench end to end on a tiny sweep.

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_stats.hpp"
#include "fusedga/core/error.hpp"
#include "report/bench_json.hpp"
#include "report/compare_reports.hpp"
#include "report/plot_gnuplot.hpp"
#include "report/report_csv.hpp"
#include "report/report_fixtures.hpp"
#include "report/report_markdown.hpp"
#include "report/report_metrics.hpp"
#include "report/report_staging.hpp"
#include "report/report_writer.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga;
using nlohmann::json;
using report_test::parse_csv;
using report_test::scratch_dir;
using report_test::slurp;
using report_test::fs::path;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The files of `dir`, sorted by name.
std::vector<std::string> listing(const path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// An executable shell script (a stand-in gnuplot).
path write_script(const path& p, const std::string& body) {
  std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
  ::chmod(p.c_str(), 0755);
  return p;
}

/// Options with a gnuplot that does not exist, so a test never depends on what is installed.
report_options without_gnuplot(const scratch_dir& d) {
  report_options o;
  o.gnuplot = (d / "no-such-gnuplot").string();
  o.command = "ga-bench seed/constrained-quadratic --report out";
  return o;
}

/// The JSON row with this configuration, or a failed REQUIRE.
const json& json_row(const json& rows, const std::string& tier, const std::string& workload, const std::string& backend,
                     int threads, std::size_t n) {
  for (const auto& r : rows)
    if (r["tier"] == tier && r["workload"] == workload && r["backend"] == backend && r["threads"] == threads &&
        r["population"] == n)
      return r;
  FAIL("no row " << tier << " " << workload << " " << backend << " x" << threads << " N=" << n);
  return rows;  // unreachable
}

/// CSV and JSON rows carry the same values, column by column (numbers compared exactly).
void check_csv_agrees_with_json(const std::string& csv_text, const json& j) {
  const auto csv = parse_csv(csv_text);
  const auto& columns = bench_row_columns();
  REQUIRE(csv.size() == j["rows"].size() + 1);
  std::vector<std::string> header{"schema_version"};
  header.insert(header.end(), columns.begin(), columns.end());
  CHECK(csv[0] == header);
  for (std::size_t i = 0; i < j["rows"].size(); ++i) {
    const auto& fields = csv[i + 1];
    const json& row = j["rows"][i];
    REQUIRE(fields.size() == header.size());
    CHECK(fields[0] == std::to_string(j["schema_version"].get<int>()));
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string& f = fields[c + 1];
      const json& v = row.at(columns[c]);
      INFO("row " << i << " column " << columns[c] << ": csv '" << f << "' json " << v.dump());
      if (v.is_null())
        CHECK(f.empty());
      else if (v.is_boolean())
        CHECK(f == (v.get<bool>() ? "true" : "false"));
      else if (v.is_string())
        CHECK(f == v.get<std::string>());
      else if (v.is_number_integer())
        CHECK(std::stoull(f) == v.get<std::uint64_t>());
      else
        CHECK(std::stod(f) == v.get<double>());  // shortest round-trip on both sides: exact
    }
  }
}

struct outcome {
  int exit_code;
  std::string out, err;
};

/// Runs ga-bench with `args` (and `env` assignments before the command), capturing stdout and stderr.
outcome ga_bench(const scratch_dir& d, const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + std::string(FUSEDGA_GA_BENCH) + " " + args + " > " + (d / "stdout").string() +
                          " 2> " + (d / "stderr").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(d / "stdout"), slurp(d / "stderr")};
}

bool ga_bench_built() {
  if (std::string(FUSEDGA_GA_BENCH).empty() || !std::filesystem::exists(FUSEDGA_GA_BENCH)) {
    WARN("ga-bench is not built (" << FUSEDGA_GA_BENCH << "): build the ga-bench target to run this test");
    return false;
  }
  return true;
}

}  // namespace

TEST_CASE("derived row metrics of the tiny report, by hand", "[report]") {
  bench_report r = report_test::tiny_report();
  derive_row_metrics(r);
  const json rows = bench_report_json(r)["rows"];
  // N = 10,000: object 0.4 ms, unfused 1.0 ms (slowest), fused serial 0.05, TBB x1 0.06, TBB x2 0.03 ms.
  const json& two = json_row(rows, "fused", "eval", "tbb", 2, 10000);
  CHECK(two["speedup_vs_slowest"].get<double>() == Approx(1.0 / 0.03));
  CHECK(two["speedup_vs_unfused"].get<double>() == Approx(1.0 / 0.03));
  CHECK(two["speedup_vs_object"].get<double>() == Approx(0.4 / 0.03));
  // 24 flop x 10,000 in 0.03 ms = 8 GFLOP/s; 240,000 flop over 480,000 bytes = 0.5 flop/byte.
  CHECK(two["gflop_per_s"].get<double>() == Approx(8.0));
  CHECK(two["arithmetic_intensity"].get<double>() == Approx(0.5));
  CHECK(two["spread"].get<double>() == Approx(0.1));
  CHECK(two["noisy"] == false);
  // The slowest row is 1x itself; the noisy row (spread 0.6 > 0.25) is flagged.
  CHECK(json_row(rows, "unfused", "eval", "serial", 1, 10000)["speedup_vs_slowest"].get<double>() == Approx(1.0));
  const json& noisy = json_row(rows, "fused", "eval", "tbb", 2, 100);
  CHECK(noisy["spread"].get<double>() == Approx(0.6));
  CHECK(noisy["noisy"] == true);
  // Generation rows: vs the slowest generation (TBB x2, 0.02 ms at N = 100); no unfused/object baseline, no FLOPs.
  const json& gen = json_row(rows, "fused", "generation", "serial", 1, 100);
  CHECK(gen["speedup_vs_slowest"].get<double>() == Approx(0.02 / 0.008));
  CHECK(gen["speedup_vs_unfused"].is_null());
  CHECK(gen["speedup_vs_object"].is_null());
  CHECK(gen["gflop_per_s"] == 0.0);
}

TEST_CASE("noise: 10th/90th percentiles, so one interrupted call does not flag a row", "[report]") {
  // 1..10: p10 at position 0.9 -> 1.9, p90 at 8.1 -> 9.1, median 5.5.
  const timing_summary s = summarize_times({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  CHECK(s.p10_s == Approx(1.9));
  CHECK(s.p90_s == Approx(9.1));
  CHECK(s.median_s == Approx(5.5));
  CHECK(s.min_s == 1);
  CHECK(s.max_s == 10);
  CHECK(summarize_times({3.0}).p10_s == 3.0);
  CHECK(summarize_times({3.0}).p90_s == 3.0);

  // 20 calls of 1 ms and one of 100 ms: max − min would be 99x the median; p90 − p10 is 0.
  std::vector<double> samples(20, 1e-3);
  samples.push_back(0.1);
  const timing_summary t = summarize_times(samples);
  bench_report r = report_test::tiny_report();
  bench_row& row = r.rows[0];
  row.median_ms = t.median_s * 1e3;
  row.min_ms = t.min_s * 1e3;
  row.max_ms = t.max_s * 1e3;
  row.p10_ms = t.p10_s * 1e3;
  row.p90_ms = t.p90_s * 1e3;
  derive_row_metrics(r);
  CHECK(row.spread == 0.0);
  CHECK_FALSE(row.noisy);
  // 1, 1.1, ..., 1.5 ms: p10 1.05, p90 1.45 -> spread 0.4 / 1.25 = 0.32 > 0.25.
  row.median_ms = 1.25;
  row.p10_ms = 1.05;
  row.p90_ms = 1.45;
  derive_row_metrics(r);
  CHECK(row.spread == Approx(0.32));
  CHECK(row.noisy);
}

TEST_CASE("write_report_dir writes every file, and CSV and JSON agree row by row", "[report]") {
  scratch_dir d;
  const bench_report r = report_test::tiny_report();
  const report_outcome out = write_report_dir(r, (d / "report").string(), without_gnuplot(d));

  CHECK(out.dir == (d / "report").string());
  CHECK_FALSE(out.plotted);
  REQUIRE_FALSE(out.files.empty());
  CHECK(out.files.back() == "report.md");
  const std::vector<std::string> expected{"plots.gp",     "report.md",   "results.csv", "results.json",
                                          "roofline.dat", "speedup.dat", "time.dat"};
  CHECK(listing(d / "report") == expected);  // no images, no staging leftovers
  CHECK(listing(d.path) == std::vector<std::string>{"report"});
  std::vector<std::string> written = out.files;
  std::sort(written.begin(), written.end());
  CHECK(written == expected);

  const json j = json::parse(slurp(d / "report" / "results.json"));
  CHECK(j["schema_version"] == bench_schema_version);
  CHECK(j["tool"] == "ga-bench");
  CHECK(j["problem"] == "seed/constrained-quadratic");
  CHECK(j["flops_per_evaluation"] == 24.0);
  CHECK(j["environment"]["peak_gflop_per_s"]["2"] == 100.0);
  CHECK(j["environment"]["copy_bandwidth_gb_per_s"]["1"] == 20.0);
  REQUIRE(j["rows"].size() == r.rows.size());
  for (std::size_t i = 0; i < r.rows.size(); ++i) {  // in the report's order, with the measured values
    CHECK(j["rows"][i]["tier"] == to_string(r.rows[i].tier));
    CHECK(j["rows"][i]["population"] == r.rows[i].population);
    CHECK(j["rows"][i]["median_ms"] == r.rows[i].median_ms);
  }
  // Derived metrics are applied by the writer even though tiny_report() leaves them empty.
  CHECK(json_row(j["rows"], "fused", "eval", "tbb", 2, 100)["noisy"] == true);
  check_csv_agrees_with_json(slurp(d / "report" / "results.csv"), j);

  // The plot data files hold the fixture's numbers.
  const std::string time_dat = slurp(d / "report" / "time.dat");
  CHECK(has(time_dat, "index 0: eval, object"));
  CHECK(has(time_dat, "10000 0.4 "));
  const std::string roofline_dat = slurp(d / "report" / "roofline.dat");
  // Points by GFLOP/s (unfused 0.24 ... TBB x2 8), labels alternately right (0) and left (1) of the point.
  CHECK(has(roofline_dat, "0.5 0.24 \"unfused\" 0\n0.5 0.6 \"object\" 1\n"));
  CHECK(has(roofline_dat, "0.5 8 \"fused TBB x2\" 0\n"));
}

TEST_CASE("report.md: environment, tiers, tables and the generated explanation", "[report]") {
  scratch_dir d;
  write_report_dir(report_test::tiny_report(), (d / "report").string(), without_gnuplot(d));
  const std::string md = slurp(d / "report" / "report.md");

  SECTION("header and environment") {
    CHECK(md.rfind("# ga-bench report: seed/constrained-quadratic\n", 0) == 0);
    CHECK(has(md, "Produced by `ga-bench seed/constrained-quadratic --report out`"));
    CHECK(has(md, "| CPU | Test CPU, 2 logical CPUs |"));
    CHECK(has(md, "| SIMD level of the build | AVX2 + FMA |"));
    CHECK(has(md, "| Memory | 24.0 GiB |"));
    CHECK(has(md, "| GPU | none: no GPU backend in this build |"));
    CHECK(has(md, "| Compiler | GCC 12 |"));
    CHECK(has(md, "| Build flags | `Release: -O3 -DNDEBUG -march=native` |"));
    CHECK(has(md, "| Libraries | fmt 9.1.0, oneTBB 2021.8 |"));
    CHECK(has(md, "| Date (UTC) | 2024-05-01T12:00:00Z |"));
    CHECK(has(md, "1 thread: 20.0 GB/s, 2 threads: 30.0 GB/s"));
    CHECK(has(md, "1 thread: 50.0 GFLOP/s, 2 threads: 100.0 GFLOP/s"));
  }
  SECTION("every tier explained in one line, the CUDA tier said not run") {
    for (const char* t : {"object", "unfused", "fused"}) {
      const std::string line = std::string("- **") + t + "** — " + tier_explanation(parse_bench_tier(t)) + ".\n";
      CHECK(has(md, line));
    }
    CHECK(has(md, "- **fused CUDA float / double** (evaluation with and without host↔device transfer) — not run"));
  }
  SECTION("both workloads' tables list every configuration at every size") {
    const auto eval = md.find("## Evaluation only");
    const auto gen = md.find("## Full generation");
    const auto means = md.find("## What this means");
    REQUIRE(eval != std::string::npos);
    REQUIRE(gen != std::string::npos);
    REQUIRE(means != std::string::npos);
    const std::string eval_part = md.substr(eval, gen - eval), gen_part = md.substr(gen, means - gen);
    CHECK(has(eval_part, "| configuration | N = 100 | N = 10,000 |"));
    for (const char* label : {"object", "unfused", "fused serial", "fused TBB ×1", "fused TBB ×2"})
      CHECK(has(eval_part, std::string("| ") + label + " |"));
    for (const char* label : {"fused serial", "fused TBB ×1", "fused TBB ×2"})
      CHECK(has(gen_part, std::string("| ") + label + " |"));
    CHECK_FALSE(has(gen_part, "| object |"));
    // Time table row of TBB x2: 2.00 µs (noisy) at 100, 30.0 µs at 10,000.
    CHECK(has(eval_part, "| fused TBB ×2 | 2.00 µs† | 30.0 µs |"));
    // Detail row: median, min–max, vs slowest 33.3x, vs unfused 33.3x, 333 M ind/s, 16 GB/s, 53 % of 30 GB/s, 8
    // GFLOP/s.
    CHECK(has(eval_part,
              "| 10,000 | fused TBB ×2 | 30.0 µs | 28.5 µs – 31.5 µs | 33.3× | 33.3× | 333 M | 16 | 53 % | 8 |"));
    CHECK(has(eval_part, "† noisy: (p90 − p10) / median above 25 %"));
    // Generation rows have no unfused baseline and no GFLOP/s; 120 B x 10,000 in 0.45 ms = 2.67 GB/s, 9 % of 30.
    CHECK(has(gen_part, "| fused TBB ×2 | 20.0 µs | 450 µs |"));
    CHECK(has(gen_part, " µs | 2.00× | – | 22.2 M | 2.67 | 9 % | – |"));
  }
  SECTION("what this means, from the numbers") {
    const std::string text = what_this_means([] {
      bench_report r = report_test::tiny_report();
      derive_row_metrics(r);
      return r;
    }());
    CHECK(has(md, "## What this means\n\n" + text + "\n"));
    CHECK(has(text,
              "At N = 10,000, the fastest evaluation is **fused TBB ×2** at 30.0 µs per call (333 M "
              "individuals/s), 33.3× faster than the slowest (unfused)."));
    // 24 flop per 48 bytes = 0.5 flop/byte < ridge 100 GFLOP/s / 30 GB/s = 3.3; 16 / 30 GB/s = 53 %.
    CHECK(has(text, "Evaluation does about 24 operations per 48 bytes moved (0.5 flop/byte), below this machine's ridge "
                    "point of 3.3 flop/byte"));
    CHECK(has(text, "it is **memory-bound**"));
    CHECK(has(text, "the fastest tier reaches 53 % of it"));
    // 1.0 ms unfused / 0.05 ms fused serial = 20x; 0.06 / 0.03 = 2x on two threads.
    CHECK(has(text, "Fusion alone (one thread, fused serial against unfused) is worth 20.0×"));
    CHECK(has(text, "2 threads evaluate 2.00× faster than one (100 % parallel efficiency)."));
    CHECK(has(text, "Below N = 10,000 the parallel tier loses to the serial one"));
    // 0.45 ms generation / 0.03 ms evaluation = 15x.
    CHECK(has(text,
              "A full generation at N = 10,000 takes 450 µs with **fused TBB ×2** (22.2 M individuals/s), "
              "15.0× the time of evaluating the population"));
    CHECK(has(text, "No CUDA rows were measured here: no GPU backend in this build. Where a GPU starts to win "
                    "therefore cannot be said from this run"));
  }
  SECTION("notes and the missing-plots notice") {
    CHECK(has(md, "## Notes\n\n- N = 100: unfused objective and violation match the fused evaluation\n"));
    CHECK(has(md, "*Plots not drawn: gnuplot was not found"));
    CHECK_FALSE(has(md, "!["));
  }
}

TEST_CASE("what this means: compute-bound, threads that do not help, no FLOP count", "[report]") {
  bench_report r = report_test::tiny_report();
  SECTION("240 flop per 48 bytes = 5 flop/byte, above the ridge of 100 / 30 = 3.3") {
    r.flops_per_evaluation = 240;
    derive_row_metrics(r);
    const std::string text = what_this_means(r);
    // TBB x2 at N = 10,000: 240 x 10,000 flop in 0.03 ms = 80 GFLOP/s, 80 % of the 100 GFLOP/s peak; 16 / 30 GB/s = 53
    // %.
    CHECK(has(text,
              "Evaluation does about 5 flop/byte, above this machine's ridge point of 3.3 flop/byte (peak 100.0 "
              "GFLOP/s ÷ copy 30.0 GB/s): it is **compute-bound**; the fastest tier reaches 80 GFLOP/s, 80 % of "
              "the measured peak, and moves 53 % of the copy bandwidth."));
  }
  SECTION("faster than the copy probe: said so, not called 'close to' the roof") {
    for (auto& row : r.rows)
      if (row.backend == backend_kind::tbb && row.threads == 2 && row.workload == bench_workload::eval &&
          row.population == 10000)
        row.copy_fraction = 1.3;
    derive_row_metrics(r);
    // d = 3 doubles read, 24 bytes written: half reads, so the probe is what was off.
    CHECK(has(what_this_means(r), "the fastest tier reaches 130 % of it — more than the copy probe measured, so part "
                                  "of the data stayed in cache or the probe ran on a busy machine."));
    CHECK_FALSE(has(what_this_means(r), "close to what the memory system delivers"));
    // d = 30: 240 bytes read per 24 written, 91 % reads: a read stream outruns a copy.
    r.dimension = 30;
    CHECK(has(what_this_means(r), "— more than copying moves: this evaluation mostly reads (91 % of its bytes)"));
  }
  SECTION("two threads as fast as one") {
    for (auto& row : r.rows)
      if (row.backend == backend_kind::tbb && row.threads == 2 && row.workload == bench_workload::eval &&
          row.population == 10000)
        row = report_test::row("fused", "eval", "tbb", 2, 10000, 0.06);
    derive_row_metrics(r);
    const std::string text = what_this_means(r);
    CHECK(has(text, "the fastest evaluation is **fused serial** at 50.0 µs per call"));
    CHECK(has(text, "2 threads evaluate no faster than one (1.00× the speed of fused TBB ×1)."));
    CHECK_FALSE(has(text, "Below N ="));  // TBB x2 never beats serial here
  }
  SECTION("unknown FLOPs: no roofline position, and no roofline chart") {
    r.flops_per_evaluation = 0;
    derive_row_metrics(r);
    CHECK(has(what_this_means(r),
              "not counted, so there is no roofline position; the fastest tier moves 53 % of the "
              "copy bandwidth, so it is **memory-bound**."));
    const plot_inputs in = gnuplot_inputs(r);
    CHECK(std::find(in.images.begin(), in.images.end(), "roofline.svg") == in.images.end());
    REQUIRE(in.omitted.size() == 1);
    CHECK(has(in.omitted[0], "FLOPs per evaluation of this problem are unknown"));
  }
}

TEST_CASE("report.md explains % of copy above 100 % (a population in cache)", "[report]") {
  bench_report r = report_test::tiny_report();
  derive_row_metrics(r);
  const std::string note = "% of copy above 100 %: a pass that mostly reads streams faster than a copy";
  CHECK_FALSE(has(format_report_markdown(r, {}), note));
  r.rows[2].copy_fraction = 1.3;  // fused serial eval at N = 100
  const std::string md = format_report_markdown(r, {});
  const auto gen = md.find("## Full generation");
  CHECK(has(md.substr(0, gen), note));
  CHECK(has(md.substr(0, gen), "(1 MiB arrays)"));
  CHECK_FALSE(has(md.substr(gen), note));
  CHECK(has(md, "| 100 | fused serial | 500 ns | 475 ns – 525 ns | 20.0× | 20.0× | 200 M | 9.6 | 130 % |"));
}

TEST_CASE("CUDA rows: tiers, tables, where the GPU wins, and its roof", "[report]") {
  bench_report r = report_test::tiny_report_with_gpu();
  derive_row_metrics(r);
  const std::string md = format_report_markdown(r, {});
  CHECK(has(md, "| GPU | NVIDIA Test GPU (compute 9.0), driver CUDA 12.4 |"));
  CHECK(has(md, "| GPU copy bandwidth (cudaMemcpy device to device, measured) | 2000.0 GB/s |"));
  CHECK(has(md, "- **fused-transfer** — " + tier_explanation(bench_tier::fused_transfer) + ".\n"));
  CHECK(has(md, "- **fused CUDA** rows here are in double; the other precision is a second run with `--precision "
                "float`"));
  CHECK_FALSE(has(md, "not run: no GPU backend"));
  // Labels in both tables, after the CPU configurations; vs unfused at 10,000: 1.0 ms / 10 µs = 100x.
  CHECK(has(md, "| fused CUDA | 20.0 µs | 10.0 µs |\n| fused-transfer CUDA | 50.0 µs | 200 µs |\n"));
  CHECK(has(md, "| fused CUDA | 50.0 µs | 90.0 µs |\n| fused-transfer CUDA | 100 µs | 600 µs |\n"));
  // 480,000 bytes in 10 µs = 48 GB/s, 2 % of 2,000 GB/s; 24 flop x 10,000 in 10 µs = 24 GFLOP/s.
  CHECK(has(md, "| 10,000 | fused CUDA | 10.0 µs | 9.50 µs – 10.5 µs | 100× | 100× | 1 G | 48 | 2 % | 24 |"));
  // Transfer rows have no device-memory roof.
  CHECK(has(md, "| 10,000 | fused-transfer CUDA | 200 µs | 190 µs – 210 µs | 5.00× | 5.00× | 50 M | 2.4 | – | 1.2 |"));

  const std::string text = what_this_means(r);
  // The CPU headline is unchanged: the fastest CPU configuration.
  CHECK(has(text, "At N = 10,000, the fastest evaluation is **fused TBB ×2** at 30.0 µs per call"));
  // GPU 20 µs vs 0.5 µs serial at 100 (loses), 10 µs vs 30 µs at 10,000 (wins, 3x).
  CHECK(has(text, "The GPU starts to win at N = 10,000: from there its evaluation is faster than the best CPU "
                  "configuration. At N = 10,000 the GPU evaluates the device-resident population in 10.0 µs (3.00× "
                  "the best CPU configuration, fused TBB ×2) and moves 2 % of the device's copy bandwidth."));
  CHECK(has(text, "With the population copied to the device and back on every call (fused-transfer), the GPU does "
                  "not beat the CPU"));
  // Generation: 450 µs on TBB x2 / 90 µs = 5x.
  CHECK(has(text, "A full generation on the GPU at N = 10,000 takes 90.0 µs, 5.00× the best CPU generation (fused "
                  "TBB ×2)."));
  CHECK_FALSE(has(text, "No CUDA rows"));

  const plot_inputs in = gnuplot_inputs(r);
  const auto gp = std::find_if(in.files.begin(), in.files.end(), [](const auto& f) { return f.first == "plots.gp"; });
  REQUIRE(gp != in.files.end());
  CHECK(has(gp->second, "x * 2000 with lines"));
  CHECK(has(gp->second, "GPU: 2000.0 GB/s device copy (peak FLOP/s not measured)"));
  const auto dat = std::find_if(in.files.begin(), in.files.end(), [](const auto& f) { return f.first == "roofline.dat"; });
  REQUIRE(dat != in.files.end());
  CHECK(has(dat->second, "0.5 1.2 \"fused-transfer CUDA\""));
  CHECK(has(dat->second, "\"fused CUDA\""));
}

TEST_CASE("GPU unfused tier (Thrust) - the CUDA rows' unfused baseline, the CPU rows keep the CPU's", "[report]") {
  bench_report r = report_test::tiny_report_with_gpu();
  for (const std::size_t n : {std::size_t(100), std::size_t(10000)})
    r.rows.push_back(report_test::row("unfused", "eval", "cuda", 1, n, n == 100 ? 0.1 : 0.25));
  derive_row_metrics(r);
  const auto find = [&](const char* tier, const char* backend, std::size_t n) -> const bench_row& {
    for (const auto& row : r.rows)
      if (to_string(row.tier) == std::string(tier) && to_string(row.backend) == std::string(backend) &&
          row.workload == bench_workload::eval && row.population == n && row.threads == 1)
        return row;
    FAIL("no row " << tier << " " << backend << " at " << n);
    throw;
  };
  // CUDA fused at 10,000: 0.25 ms (Thrust) / 0.01 ms = 25x; at 100: 0.1 / 0.02 = 5x.
  CHECK(*find("fused", "cuda", 10000).speedup_vs_unfused == Approx(25));
  CHECK(*find("fused", "cuda", 100).speedup_vs_unfused == Approx(5));
  // CPU rows still against the CPU unfused tier: 1.0 ms / 0.05 ms at 10,000.
  CHECK(*find("fused", "serial", 10000).speedup_vs_unfused == Approx(20));
  CHECK(row_label(find("unfused", "cuda", 100), false) == "unfused CUDA");
  CHECK(row_label(find("unfused", "serial", 100), false) == "unfused");
  const std::string text = what_this_means(r);
  CHECK(has(text, "On the GPU, fused CUDA against unfused CUDA (one thrust::transform and one device temporary per "
                  "operation, the eager-PyTorch way) is 25.0× faster."));
  // The CPU's fusion-alone sentence still compares against the CPU's unfused tier (1.0 ms / 0.05 ms at 10,000).
  CHECK(has(text, "Fusion alone (one thread, fused serial against unfused) is worth 20.0×"));
}

TEST_CASE("without gnuplot the report is complete, with a notice instead of plots", "[report]") {
  scratch_dir d;
  const bench_report r = report_test::tiny_report();

  SECTION("gnuplot names a file that is not executable") {
    const path fake = d / "gnuplot";
    std::ofstream(fake) << "not a program\n";
    ::chmod(fake.c_str(), 0644);
    CHECK(find_gnuplot(fake.string()).empty());
    report_options o;
    o.gnuplot = fake.string();
    const report_outcome out = write_report_dir(r, (d / "report").string(), o);
    CHECK_FALSE(out.plotted);
    REQUIRE(out.notices.size() == 1);
    CHECK(has(out.notices[0], "gnuplot was not found"));
    CHECK(has(out.notices[0], "gnuplot-nox"));
    for (const auto& name : listing(d / "report")) {
      CHECK_FALSE(has(name, ".svg"));
      CHECK_FALSE(has(name, ".png"));
    }
    // The data and script are kept so the plots can be drawn later; everything else is there.
    CHECK(std::filesystem::exists(d / "report" / "plots.gp"));
    const std::string md = slurp(d / "report" / "report.md");
    CHECK(has(md, "*" + out.notices[0] + "*"));
    CHECK(has(md, "## What this means"));
    CHECK(json::parse(slurp(d / "report" / "results.json"))["rows"].size() == r.rows.size());
  }
  SECTION("gnuplot fails: its message is the notice and no partial plot is kept") {
    const path fake = write_script(d / "gnuplot", "echo half > time.svg; echo 'line 3: boom' >&2; exit 3");
    report_options o;
    o.gnuplot = fake.string();
    const report_outcome out = write_report_dir(r, (d / "report").string(), o);
    CHECK_FALSE(out.plotted);
    REQUIRE(out.notices.size() == 1);
    CHECK(has(out.notices[0], "exit status 3"));
    CHECK(has(out.notices[0], "line 3: boom"));
    CHECK_FALSE(std::filesystem::exists(d / "report" / "time.svg"));
    CHECK(has(slurp(d / "report" / "report.md"), "*" + out.notices[0] + "*"));
  }
  SECTION("plots disabled") {
    report_options o;
    o.plots = false;
    const report_outcome out = write_report_dir(r, (d / "report").string(), o);
    CHECK(listing(d / "report") == std::vector<std::string>{"report.md", "results.csv", "results.json"});
    REQUIRE(out.notices.size() == 1);
    CHECK(has(out.notices[0], "disabled"));
  }
}

TEST_CASE("a gnuplot that draws every image: plots listed and embedded", "[report]") {
  scratch_dir d;
  // Writes each image plots.gp asks for (its `set output` names) and prints the version line.
  const path fake = write_script(d / "gnuplot",
                                 "echo 'gnuplot-version: 9.9 patchlevel 1'\n"
                                 "for f in time speedup roofline; do echo '<svg/>' > $f.svg; echo png > $f.png; done");
  report_options o;
  o.gnuplot = fake.string();
  const report_outcome out = write_report_dir(report_test::tiny_report(), (d / "report").string(), o);
  CHECK(out.plotted);
  CHECK(out.notices.empty());
  for (const char* image : {"time.svg", "time.png", "speedup.svg", "speedup.png", "roofline.svg", "roofline.png"})
    CHECK(std::find(out.files.begin(), out.files.end(), image) != out.files.end());
  const std::string md = slurp(d / "report" / "report.md");
  CHECK(has(md, "gnuplot 9.9 patchlevel 1"));
  CHECK(has(md, "(time.svg)"));
  CHECK(has(md, "([PNG](speedup.png))"));
  CHECK(has(md, "(roofline.svg)"));
  CHECK_FALSE(has(md, "Plots not drawn"));
}

TEST_CASE("with gnuplot installed: time, speedup and roofline as PNG and SVG", "[report][gnuplot]") {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    WARN("gnuplot is not installed (Debian: gnuplot-nox); the real plotting path is not tested");
    return;
  }
  scratch_dir d;
  report_options o;
  o.gnuplot = gnuplot;
  const report_outcome out = write_report_dir(report_test::tiny_report(), (d / "report").string(), o);
  INFO("notices: " << (out.notices.empty() ? "" : out.notices[0]));
  REQUIRE(out.plotted);
  for (const char* name : {"time", "speedup", "roofline"}) {
    const std::string svg = slurp(d / "report" / (std::string(name) + ".svg"));
    const std::string png = slurp(d / "report" / (std::string(name) + ".png"));
    CHECK(has(svg, "<svg"));
    CHECK(has(svg, "</svg>"));
    REQUIRE(png.size() > 8);
    CHECK(png.compare(0, 4, "\x89PNG") == 0);
  }
  // Labels from the data reach the pictures; the roofline names the measured roofs.
  CHECK(has(slurp(d / "report" / "time.svg"), "fused TBB x2"));
  CHECK(has(slurp(d / "report" / "roofline.svg"), "30.0 GB/s copy, 100.0 GFLOP/s peak"));
  const std::string md = slurp(d / "report" / "report.md");
  CHECK(has(md, "![Time per call against population size (log–log), per configuration](time.svg)"));
  CHECK(has(md, "| Libraries | fmt 9.1.0, oneTBB 2021.8, gnuplot 5."));
}

TEST_CASE("a failed report leaves the directory as it was", "[report]") {
  scratch_dir d;
  const std::string dir = (d / "report").string();
  bench_report old_report = report_test::tiny_report();
  old_report.problem = "old/problem";
  write_report_dir(old_report, dir, without_gnuplot(d));
  std::ofstream(d / "report" / "keep.txt") << "mine\n";
  const std::string old_json = slurp(d / "report" / "results.json");
  const std::string old_md = slurp(d / "report" / "report.md");
  const auto old_listing = listing(d / "report");

  const auto unchanged = [&] {
    CHECK(listing(d / "report") == old_listing);
    CHECK(slurp(d / "report" / "results.json") == old_json);
    CHECK(slurp(d / "report" / "report.md") == old_md);
    CHECK(slurp(d / "report" / "keep.txt") == "mine\n");
    for (const auto& name : listing(d.path)) CHECK_FALSE(has(name, ".tmp-"));  // staging removed
  };

  SECTION("failure while writing (report.md cannot be created in the staging directory)") {
    // The stand-in gnuplot runs in the staging directory and blocks report.md with a directory.
    report_options o;
    o.gnuplot = write_script(d / "gnuplot", "mkdir report.md; exit 1").string();
    CHECK_THROWS_AS(write_report_dir(report_test::tiny_report(), dir, o), error);
    unchanged();
  }
  SECTION("a report file name taken by a directory: refused before anything moves") {
    std::filesystem::create_directories(d / "report" / "time.png" / "inside");
    const auto before = listing(d / "report");
    CHECK_THROWS_WITH(write_report_dir(report_test::tiny_report(), dir, without_gnuplot(d)),
                      Catch::Contains("time.png: it is not a regular file"));
    CHECK(listing(d / "report") == before);
    CHECK(slurp(d / "report" / "results.json") == old_json);
    CHECK(slurp(d / "report" / "report.md") == old_md);
  }
  SECTION("a new directory appears only when complete") {
    report_options o;
    o.gnuplot = write_script(d / "gnuplot", "mkdir report.md; exit 1").string();
    CHECK_THROWS_AS(write_report_dir(report_test::tiny_report(), (d / "fresh").string(), o), error);
    CHECK_FALSE(std::filesystem::exists(d / "fresh"));
    unchanged();
  }
  SECTION("success replaces the old report and keeps unrelated files") {
    write_report_dir(report_test::tiny_report(), dir, without_gnuplot(d));
    CHECK(json::parse(slurp(d / "report" / "results.json"))["problem"] == "seed/constrained-quadratic");
    CHECK(slurp(d / "report" / "keep.txt") == "mine\n");
  }
  SECTION("stale plots of an earlier run are removed") {
    std::ofstream(d / "report" / "roofline.svg") << "<svg/>";
    write_report_dir(report_test::tiny_report(), dir, without_gnuplot(d));
    CHECK_FALSE(std::filesystem::exists(d / "report" / "roofline.svg"));
  }
  SECTION("not a directory, or no parent: a config error before anything is measured") {
    std::ofstream(d / "file") << "x";
    CHECK_THROWS_AS(check_report_dir((d / "file").string()), config_error);
    CHECK_THROWS_AS(check_report_dir((d / "missing" / "report").string()), config_error);
    CHECK_THROWS_AS(check_report_dir(""), config_error);
    CHECK_NOTHROW(check_report_dir(dir));
    CHECK(slurp(d / "file") == "x");
  }
}

TEST_CASE("an existing report directory is replaced whole, in one swap", "[report][staging]") {
  scratch_dir d;
  const path dir = d / "report";
  write_report_dir(report_test::tiny_report(), dir.string(), without_gnuplot(d));
  std::ofstream(dir / "roofline.svg") << "<svg/>";  // a plot of an earlier run that this one does not draw
  std::ofstream(dir / "keep.txt") << "mine\n";
  std::filesystem::create_directories(dir / "notes" / "deep");
  std::ofstream(dir / "notes" / "deep" / "n.txt") << "note\n";
  ::chmod(dir.c_str(), 0750);
  struct stat before {}, kept_before {};
  REQUIRE(::stat(dir.c_str(), &before) == 0);
  REQUIRE(::stat((dir / "keep.txt").c_str(), &kept_before) == 0);

  bench_report next = report_test::tiny_report();
  next.problem = "next/problem";
  write_report_dir(next, dir.string(), without_gnuplot(d));
  struct stat after {}, kept_after {};
  REQUIRE(::stat(dir.c_str(), &after) == 0);
  REQUIRE(::stat((dir / "keep.txt").c_str(), &kept_after) == 0);
  CHECK(after.st_ino != before.st_ino);          // a new directory took the name: not file-by-file renames
  CHECK((after.st_mode & 07777) == 0750);        // with the old one's permissions
  CHECK(kept_after.st_ino == kept_before.st_ino);  // unrelated files kept, the same file (hard linked)
  CHECK(slurp(dir / "keep.txt") == "mine\n");
  CHECK(slurp(dir / "notes" / "deep" / "n.txt") == "note\n");
  CHECK_FALSE(std::filesystem::exists(dir / "roofline.svg"));
  CHECK(json::parse(slurp(dir / "results.json"))["problem"] == "next/problem");
  CHECK(listing(d.path) == std::vector<std::string>{"report"});
  for (const auto& name : listing(d.path)) CHECK_FALSE(has(name, ".tmp-"));  // old directory removed

  SECTION("through a symlink, the directory it names is replaced and the link kept") {
    std::filesystem::create_directory_symlink(dir, d / "link");
    write_report_dir(report_test::tiny_report(), (d / "link").string(), without_gnuplot(d));
    CHECK(std::filesystem::is_symlink(d / "link"));
    CHECK(json::parse(slurp(dir / "results.json"))["problem"] == "seed/constrained-quadratic");
    CHECK(slurp(dir / "keep.txt") == "mine\n");
  }
}

TEST_CASE("staging directories left by a killed writer are cleaned by the next one", "[report][staging]") {
  scratch_dir d;
  const path dir = d / "report";
  write_report_dir(report_test::tiny_report(), dir.string(), without_gnuplot(d));
  const pid_t dead = ::fork();  // a pid that names no live process once reaped
  REQUIRE(dead >= 0);
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string stale = ".report.tmp-" + std::to_string(dead) + "-Ab12Cd";
  const std::string live = ".report.tmp-" + std::to_string(::getppid()) + "-Ef34Gh";  // a live writer's: kept
  const std::string other = ".report.tmp-notapid";                                    // not ours: kept
  for (const auto& name : {stale, live, other}) {
    std::filesystem::create_directories(d / name / "sub");
    std::ofstream(d / name / "report.md") << "half\n";
  }
  CHECK(remove_stale_staging(dir) == 1);
  CHECK_FALSE(std::filesystem::exists(d / stale));
  CHECK(std::filesystem::exists(d / live));
  CHECK(std::filesystem::exists(d / other));

  SECTION("an old report set aside by the two-rename fallback comes back when the new one never arrived") {
    const std::string aside = ".report.tmp-" + std::to_string(dead) + "-Ij56Kl.old";
    std::filesystem::rename(dir, d / aside);
    bench_report next = report_test::tiny_report();
    next.problem = "next/problem";
    write_report_dir(next, dir.string(), without_gnuplot(d));  // restores, then replaces whole
    CHECK_FALSE(std::filesystem::exists(d / aside));
    CHECK(json::parse(slurp(dir / "results.json"))["problem"] == "next/problem");
  }
  SECTION("the next write cleans them too") {
    std::filesystem::create_directories(d / stale);
    write_report_dir(report_test::tiny_report(), dir.string(), without_gnuplot(d));
    CHECK_FALSE(std::filesystem::exists(d / stale));
  }
}

TEST_CASE("a writer killed at any instant leaves the old report or the new one", "[report][staging]") {
  scratch_dir d;
  const path dir = d / "report";
  write_report_dir(report_test::tiny_report(), dir.string(), without_gnuplot(d));
  // A child writes versions 1, 2, ... of the report, each named in results.json and report.md; it is killed at a
  // different instant each round, and what is left must be one version throughout.
  for (int round = 0; round < 25; ++round) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      for (int version = 1;; ++version) {
        bench_report r = report_test::tiny_report();
        r.problem = "version/" + std::to_string(1000000 + version);  // one length, so no name is a prefix of another
        write_report_dir(r, dir.string(), without_gnuplot(d));
      }
    }
    ::usleep(static_cast<useconds_t>(2000 + 1500 * round));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    INFO("round " << round);
    const std::string problem = json::parse(slurp(dir / "results.json"))["problem"];
    const std::string md = slurp(dir / "report.md");
    CHECK(has(md, problem));
    // no other version's name in the index
    const std::size_t first = md.find("version/");
    if (first != std::string::npos) CHECK(md.substr(first, problem.size()) == problem);
  }
  write_report_dir(report_test::tiny_report(), dir.string(), without_gnuplot(d));
  for (const auto& name : listing(d.path)) CHECK_FALSE(has(name, ".tmp-"));  // the last one's leftovers cleaned
}

namespace {

/// A saved report with rows (tier, workload, backend, threads, N, median ms, noisy).
struct saved_spec {
  std::string tier, workload, backend;
  int threads;
  std::size_t n;
  double median_ms;
  bool noisy;
};

path save(const scratch_dir& d, const std::string& name, const std::vector<saved_spec>& rows, const std::string& cpu) {
  bench_report r = report_test::tiny_report();
  r.environment.cpu_model = cpu;
  r.rows.clear();
  for (const auto& s : rows) {
    bench_row row = report_test::row(s.tier, s.workload, s.backend, s.threads, s.n, s.median_ms);
    row.noisy = s.noisy;
    r.rows.push_back(row);
  }
  const path p = d / name;
  std::ofstream(p) << bench_report_json(r).dump(2);
  return p;
}

}  // namespace

TEST_CASE("compare_reports: per-row ratios of two saved runs, by hand", "[report][compare]") {
  scratch_dir d;
  const path a = save(d, "a.json",
                      {{"object", "eval", "serial", 1, 100, 5.0, false},
                       {"fused", "eval", "serial", 1, 100, 2.0, false},
                       {"fused", "eval", "tbb", 2, 100, 1.0, true},
                       {"fused", "generation", "serial", 1, 100, 8.0, false}},
                      "CPU A");
  const path b = save(d, "b.json",
                      {{"fused", "generation", "serial", 1, 100, 1.0, false},
                       {"fused", "eval", "serial", 1, 100, 1.0, false},
                       {"fused", "eval", "tbb", 2, 100, 4.0, false},
                       {"unfused", "eval", "serial", 1, 100, 3.0, false}},
                      "CPU B");
  const saved_report ra = load_saved_report(a.string()), rb = load_saved_report(b.string());
  CHECK(ra.schema_version == bench_schema_version);
  CHECK(ra.problem == "seed/constrained-quadratic");
  CHECK(ra.cpu_model == "CPU A");
  REQUIRE(ra.rows.size() == 4);
  CHECK(ra.rows[2].noisy);

  const comparison c = compare_reports(ra, rb);
  REQUIRE(c.matched.size() == 3);  // in A's order
  CHECK(c.matched[0].a.tier == bench_tier::fused);
  CHECK(c.matched[0].a.workload == bench_workload::eval);
  CHECK(c.matched[0].a.backend == backend_kind::serial);
  CHECK(c.matched[0].ratio == Approx(0.5));  // B 1 ms / A 2 ms
  CHECK(c.matched[0].speedup == Approx(2.0));
  CHECK(c.matched[1].a.backend == backend_kind::tbb);
  CHECK(c.matched[1].ratio == Approx(4.0));  // B 4 ms / A 1 ms
  CHECK(c.matched[1].speedup == Approx(0.25));
  CHECK(c.matched[2].a.workload == bench_workload::generation);
  CHECK(c.matched[2].ratio == Approx(0.125));
  CHECK(c.matched[2].speedup == Approx(8.0));
  REQUIRE(c.only_a.size() == 1);
  CHECK(c.only_a[0].tier == bench_tier::object);
  REQUIRE(c.only_b.size() == 1);
  CHECK(c.only_b[0].tier == bench_tier::unfused);

  const std::string text = format_comparison(ra, rb, c);
  CHECK(has(text, "A: " + a.string() + " (seed/constrained-quadratic, double, CPU A, schema 2)"));
  CHECK(has(text, "B: " + b.string()));
  // Geometric mean of A/B = (2 * 0.25 * 8)^(1/3) = 4^(1/3) = 1.587.
  CHECK(has(text, "3 matched rows; geometric mean of A/B: 1.587x (B is faster)"));
  CHECK(has(text, "   0.500     2.00x"));
  CHECK(has(text, "   4.000     0.25x"));
  CHECK(has(text, "   0.125     8.00x"));
  CHECK(has(text, "1.00 ms†"));  // A's noisy TBB row
  CHECK(has(text, "only in A (1 row):\n  object eval serial x1 N=100  5.00 ms"));
  CHECK(has(text, "only in B (1 row):\n  unfused eval serial x1 N=100  3.00 ms"));
  CHECK_FALSE(has(text, "warning"));
}

TEST_CASE("compare_reports: repeated keys match in order, mismatched problems warn", "[report][compare]") {
  saved_report a, b;
  a.problem = "p";
  b.problem = "q";
  a.precision = b.precision = "double";
  a.rows = {{bench_tier::fused, bench_workload::eval, backend_kind::serial, 1, 10, 1.0, false},
            {bench_tier::fused, bench_workload::eval, backend_kind::serial, 1, 10, 3.0, false}};
  b.rows = {{bench_tier::fused, bench_workload::eval, backend_kind::serial, 1, 10, 2.0, false},
            {bench_tier::fused, bench_workload::eval, backend_kind::serial, 1, 10, 6.0, false},
            {bench_tier::fused, bench_workload::eval, backend_kind::serial, 1, 10, 9.0, false}};
  const comparison c = compare_reports(a, b);
  REQUIRE(c.matched.size() == 2);
  CHECK(c.matched[0].ratio == Approx(2.0));
  CHECK(c.matched[1].ratio == Approx(2.0));
  CHECK(c.only_a.empty());
  REQUIRE(c.only_b.size() == 1);
  CHECK(c.only_b[0].median_ms == 9.0);
  const std::string text = format_comparison(a, b, c);
  CHECK(has(text, "warning: different problems (p vs q)"));
  CHECK(has(text, "geometric mean of A/B: 0.500x (B is slower)"));
  CHECK(has(format_comparison(a, b, compare_reports(a, saved_report{})), "(no matching rows)"));
  // a report against itself: neither is faster
  CHECK(has(format_comparison(a, a, compare_reports(a, a)), "geometric mean of A/B: 1.000x (equal)"));
}

TEST_CASE("load_saved_report rejects what is not a ga-bench report, naming the file", "[report][compare]") {
  scratch_dir d;
  const auto file = [&](const std::string& name, const std::string& text) {
    std::ofstream(d / name) << text;
    return (d / name).string();
  };
  const std::string row = R"({"tier":"fused","workload":"eval","backend":"serial","threads":1,"population":10)";
  CHECK_THROWS_WITH(load_saved_report((d / "missing.json").string()), Catch::Contains("cannot open"));
  CHECK_THROWS_WITH(load_saved_report(file("bad.json", "{not json")), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(load_saved_report(file("other.json", R"({"schema_version":2,"tool":"x"})")),
                    Catch::Contains("not a ga-bench report"));
  CHECK_THROWS_WITH(
      load_saved_report(file(
          "future.json", R"({"schema_version":99,"tool":"ga-bench","problem":"p","precision":"double","rows":[]})")),
      Catch::Contains("schema_version 99 is not supported"));
  CHECK_THROWS_WITH(load_saved_report(file("nomedian.json", R"({"schema_version":2,"tool":"ga-bench","problem":"p",)"
                                                            R"("precision":"double","rows":[)" +
                                                                row + "}]}")),
                    Catch::Contains("rows[0]: missing key 'median_ms'"));
  CHECK_THROWS_WITH(load_saved_report(file("zero.json", R"({"schema_version":2,"tool":"ga-bench","problem":"p",)"
                                                        R"("precision":"double","rows":[)" +
                                                            row + R"(,"median_ms":0}]})")),
                    Catch::Contains("expected a positive time"));
  CHECK_THROWS_WITH(load_saved_report(file("type.json", R"({"schema_version":2,"tool":"ga-bench","problem":"p",)"
                                                        R"("precision":"double","rows":[)" +
                                                            row + R"(,"median_ms":"1"}]})")),
                    Catch::Contains("'median_ms' is string, expected a number"));
  CHECK_THROWS_AS(load_saved_report(file("bad2.json", "[]")), config_error);
  // Schema 1 (ga-bench --json before reports: no "noisy") still compares.
  const saved_report v1 = load_saved_report(file("v1.json", R"({"schema_version":1,"tool":"ga-bench","problem":"p",)"
                                                            R"("precision":"double","rows":[)" +
                                                                row + R"(,"median_ms":2.5}]})"));
  REQUIRE(v1.rows.size() == 1);
  CHECK(v1.rows[0].median_ms == 2.5);
  CHECK_FALSE(v1.rows[0].noisy);
}

TEST_CASE("ga-bench --report DIR end to end on a tiny sweep, then --compare", "[report][ga-bench]") {
  if (!ga_bench_built()) return;
  scratch_dir d;
  const std::string dir = (d / "cq").string();
  const outcome r = ga_bench(d,
                             "seed/constrained-quadratic --report " + dir +
                                 " --sizes 100,1000 --backends serial,tbb --threads 1,2 --repeats 2 --min-time 0 --stream-mib 1 --quiet",
                             "FUSEDGA_GNUPLOT=" + (d / "no-gnuplot").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.out, "seed/constrained-quadratic"));  // the table on stdout as without --report
  CHECK(has(r.err, "Plots not drawn: gnuplot was not found"));
  for (const char* f : {"report.md", "results.csv", "results.json", "plots.gp", "time.dat", "speedup.dat"})
    CHECK(std::filesystem::exists(d / "cq" / f));

  const json j = json::parse(slurp(d / "cq" / "results.json"));
  CHECK(j["schema_version"] == bench_schema_version);
  CHECK(j["problem"] == "seed/constrained-quadratic");
  CHECK(j["flops_per_evaluation"] == 24.0);
  CHECK(j["repeat_policy"]["min_repeats"] == 2);
  CHECK(j["environment"]["copy_bandwidth_gb_per_s"].contains("2"));
  CHECK(j["environment"]["peak_gflop_per_s"]["1"].get<double>() > 0);
  // Per N: object and unfused evaluation, then fused serial, TBB x1 and TBB x2, each eval and generation.
  REQUIRE(j["rows"].size() == 2 * 8);
  for (const std::size_t n : {100, 1000}) {
    for (const auto& [tier, backend, threads] : std::vector<std::tuple<std::string, std::string, int>>{
             {"fused", "serial", 1}, {"fused", "tbb", 1}, {"fused", "tbb", 2}}) {
      CHECK(json_row(j["rows"], tier, "eval", backend, threads, n)["repeats"].get<int>() >= 2);
      CHECK(json_row(j["rows"], tier, "generation", backend, threads, n)["median_ms"].get<double>() > 0);
    }
    CHECK(json_row(j["rows"], "object", "eval", "serial", 1, n)["speedup_vs_object"] == 1.0);
    CHECK(json_row(j["rows"], "unfused", "eval", "serial", 1, n)["speedup_vs_unfused"] == 1.0);
  }
  check_csv_agrees_with_json(slurp(d / "cq" / "results.csv"), j);

  const std::string md = slurp(d / "cq" / "report.md");
  CHECK(has(md, "Produced by `ga-bench seed/constrained-quadratic --report " + dir + " --sizes 100,1000"));
  CHECK(has(md, "| configuration | N = 100 | N = 1,000 |"));
  for (const char* label : {"| object |", "| unfused |", "| fused serial |", "| fused TBB ×1 |", "| fused TBB ×2 |"})
    CHECK(has(md, label));
  CHECK(has(md, "## What this means"));

  const std::string results = (d / "cq" / "results.json").string();
  const outcome same = ga_bench(d, "--compare " + results + " " + results);
  REQUIRE(same.exit_code == 0);
  CHECK(has(same.out, "16 matched rows; geometric mean of A/B: 1.000x (equal)"));
  CHECK(ga_bench(d, "--compare " + results + " " + (d / "missing.json").string()).exit_code == 2);
  CHECK(ga_bench(d, "seed/constrained-quadratic --compare " + results + " " + results).exit_code == 2);
  // A report path that cannot be a directory is refused before anything is measured.
  std::ofstream(d / "file") << "x";
  const outcome bad = ga_bench(d, "seed/constrained-quadratic --report " + (d / "file").string());
  CHECK(bad.exit_code == 2);
  CHECK(has(bad.err, "exists and is not a directory"));
  // ... and one whose staging directory cannot be made (/proc takes no new entries, even from root).
  const outcome proc = ga_bench(d, "seed/constrained-quadratic --report /proc/fusedga-no-such-report");
  CHECK(proc.exit_code == 2);
  CHECK(has(proc.err, "cannot create a staging directory beside /proc/fusedga-no-such-report"));
  CHECK(has(proc.err, "(checked before measuring)"));
  // Counts that must be positive say so (CLI11's own check printed a 309-digit range that held 0).
  const outcome zero = ga_bench(d, "seed/constrained-quadratic --repeats 0");
  CHECK(zero.exit_code == 2);
  CHECK(has(zero.err, "--repeats: expected a number > 0, got 0"));
  // a misspelt problem gets a suggestion, as in ga-run
  const outcome typo = ga_bench(d, "classic/spere");
  CHECK(typo.exit_code == 2);
  CHECK(has(typo.err, "did you mean classic/sphere?"));
}

TEST_CASE("ga-bench --workloads islands: the table, the JSON, and what it refuses", "[report][ga-bench]") {
  if (!ga_bench_built()) return;
  scratch_dir d;
  const std::string out = (d / "islands.json").string();
  const outcome r = ga_bench(d, "classic/rastrigin --workloads islands --sizes 400 --islands 1,4 --backends serial,tbb "
                                "--threads 2 --repeats 2 --min-time 0 --set ga.islands.count=4 --set ga.islands.migration.size=3 --json " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.out, "ga-bench islands: classic/rastrigin, migration every M = 10 generations, K = 3, ring; ranks R = 1"));
  const json j = json::parse(slurp(out));
  REQUIRE(j["rows"].size() == 4);  // serial and TBB x2, each I = 1 and 4
  CHECK(j["rows"][1]["backend"] == "serial");
  CHECK(j["rows"][3]["backend"] == "tbb");
  CHECK(j["rows"][3]["threads"] == 2);
  CHECK(j["rows"][3]["islands"] == 4);
  CHECK(j["rows"][3]["migrant_bytes"] == 4 * 3 * (30 * 8 + 16));  // d = 30 doubles, K = 3, a packet per island
  CHECK(j["rows"][3].contains("vs_one_population"));

  // Each refused with exit status 2 and a message naming the option.
  const auto refused = [&](const std::string& args, const std::string& message) {
    INFO("ga-bench " << args);
    const outcome o = ga_bench(d, args);
    CHECK(o.exit_code == 2);
    CHECK(has(o.err, message));
  };
  refused("classic/rastrigin --workloads islands,eval", "--workloads islands runs alone");
  refused("classic/rastrigin --workloads islands --backends cuda --sizes 100", "runs on serial and tbb, not cuda");
  refused("classic/rastrigin --weak --sizes 100", "--weak: only with --workloads islands");
  refused("classic/rastrigin --workloads islands --seeds 3", "--seeds: only with --quality SUITE");
  refused("--quality " + std::string(FUSEDGA_SOURCE_DIR) + "/configs/quality/suite.yaml --json " + (d / "q.json").string(),
          "--json: does not apply to --quality");
  CHECK_FALSE(std::filesystem::exists(d / "q.json"));
  refused("--quality " + std::string(FUSEDGA_SOURCE_DIR) + "/configs/quality/suite.yaml --budget 1e5",
          "--budget: expected a positive number of evaluations or cec2020, got '1e5'");
  refused("classic/rastrigin --workloads islands --report " + (d / "r").string(), "--report: not for --workloads islands");
  CHECK_FALSE(std::filesystem::exists(d / "r"));
}

TEST_CASE("ga-bench --report sweeps 10^2, 10^4, 9x10^5 and 10^6 by default", "[report][ga-bench]") {
  if (!ga_bench_built()) return;
  scratch_dir d;
  const outcome r = ga_bench(d,
                             "seed/constrained-quadratic --report " + (d / "sweep").string() +
                                 " --tiers fused --backends serial --workloads eval --repeats 1 --min-time 0 "
                                 "--stream-mib 1 --quiet",
                             "FUSEDGA_GNUPLOT=" + (d / "no-gnuplot").string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(slurp(d / "sweep" / "results.json"));
  std::vector<std::size_t> sizes;
  for (const auto& row : j["rows"]) sizes.push_back(row["population"].get<std::size_t>());
  CHECK(sizes == std::vector<std::size_t>{100, 10000, 900000, 1000000});
  CHECK(
      has(slurp(d / "sweep" / "report.md"), "| configuration | N = 100 | N = 10,000 | N = 900,000 | N = 1,000,000 |"));
}

TEST_CASE("ga-bench on an expression config: JIT, interpreter and built-in rows with their ratio, and cuda runs the GPU JIT",
          "[report][ga-bench][expression]") {
  if (!ga_bench_built()) return;
  scratch_dir d;
  const std::string config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";
  const std::string common = " --sizes 1000 --repeats 1 --min-time 0 --stream-mib 1 --quiet --json " +
                             (d / "r.json").string() + " --baseline seed/constrained-quadratic";
  const std::string cache = "XDG_CACHE_HOME=" + (d / "cache").string();
  const outcome cpu = ga_bench(d, config + " --backends serial" + common, cache);
  INFO(cpu.err);
  REQUIRE(cpu.exit_code == 0);
  const auto has_note = [](const json& report, const std::string& start, const std::string& end) {
    for (const auto& note : report["notes"]) {
      const std::string n = note.get<std::string>();
      if (n.rfind(start, 0) == 0 && n.size() >= end.size() && n.compare(n.size() - end.size(), end.size(), end) == 0)
        return true;
    }
    return false;
  };
  {
    const json report = json::parse(slurp(d / "r.json"));
    for (const char* tier : {"fused-jit", "fused-interp", "builtin"})
      for (const char* workload : {"eval", "generation"})
        CHECK(json_row(report["rows"], tier, workload, "serial", 1, 1000).is_object());
    CHECK(has_note(report, "N = 1000: fused-jit generation / built-in generation = ", "(serial, 1 threads)"));
  }
  // cuda: the GPU JIT's rows beside the built-in's on the GPU, or (no GPU, or no CUDA backend) a clear error, exit 2.
  std::filesystem::remove(d / "r.json");
  const outcome gpu = ga_bench(d, config + " --backends cuda --tiers fused" + common, cache);
  INFO(gpu.err);
  if (gpu.exit_code == 2) {
    CHECK(has(gpu.err, "backend cuda: "));
    CHECK_FALSE(std::filesystem::exists(d / "r.json"));
    WARN("skipped the GPU JIT rows: " << gpu.err);
    return;
  }
  REQUIRE(gpu.exit_code == 0);
  const json report = json::parse(slurp(d / "r.json"));
  for (const char* tier : {"fused-jit", "builtin"})
    for (const char* workload : {"eval", "generation"})
      CHECK(json_row(report["rows"], tier, workload, "cuda", 1, 1000).is_object());
  CHECK(has_note(report, "N = 1000: fused-jit generation / built-in generation = ", "(cuda, 1 threads)"));
}
