// The host memory estimate checked before a CPU run allocates (issue 16, item 14).
#include <catch2/catch.hpp>

#include <cstdint>

#include <fusedga/engine/memory_estimate.hpp>

using namespace fusedga::detail;

TEST_CASE("memory estimate: two populations of (N+1) rows plus summaries", "[memory]") {
  // d = 10 doubles + objective, violation (double) and a 64-bit key: 104 bytes a row, two populations
  const host_run_shape s{1000000, 10, 8, 8, 8, 2, 0};
  const long double tiles = (1000000.0L + 63) / 64;
  CHECK(host_run_bytes(s) == Approx(static_cast<double>(2 * 1000001.0L * 104 + tiles * (16 + 16 * 2) + 16 * 2 + 64)));
}

TEST_CASE("memory estimate: a run that does not fit names what was asked, needs and fits", "[memory]") {
  const host_memory_limit one_gib{std::size_t(1) << 30, "test limit"};
  CHECK_NOTHROW(check_host_memory({1000000, 10, 8, 8, 8, 1, 0}, one_gib));  // 208 MB
  // 10^7 individuals need 2.08 GB; per further individual 2·104 + 32/64 bytes, fixed 303.5:
  // (2^30 − 303.5) / 208.5 = 5149839.4 individuals fit
  CHECK_THROWS_WITH(check_host_memory({10000000, 10, 8, 8, 8, 1, 0}, one_gib),
                    Catch::Contains("ga.population = 10000000 with 10 genes of 8 bytes needs 1.94 GiB") &&
                        Catch::Contains("test limit is 1.00 GiB: at most 5149839 individuals fit"));
  // sizes that would overflow 64-bit arithmetic still give a clear error, not a wrapped small number
  CHECK_THROWS_WITH(check_host_memory({std::uint32_t(-1), 1 << 30, 8, 8, 8, 1, 0}, one_gib),
                    Catch::Contains("at most 0 individuals fit"));
}

TEST_CASE("memory estimate: the available memory is read from this machine", "[memory]") {
  const host_memory_limit m = available_host_memory();
  CHECK(m.bytes > (std::size_t(16) << 20));  // any machine that runs the tests has 16 MiB to spare
  CHECK_FALSE(m.source.empty());
}

TEST_CASE("memory estimate: small runs pass unchecked, large ones are checked against this machine", "[memory]") {
  const host_run_shape small{100, 4, 8, 8, 8, 2, 0};
  REQUIRE(host_run_bytes(small) < unchecked_host_bytes);
  CHECK_NOTHROW(check_host_memory(small));
  // 2^32 - 1 individuals of 2^30 doubles: far beyond any machine's memory, so the one-argument form reads it and throws
  CHECK_THROWS_WITH(check_host_memory({std::uint32_t(-1), 1 << 30, 8, 8, 8, 1, 0}),
                    Catch::Contains("ga.population = 4294967295") && Catch::Contains("individuals fit"));
}
