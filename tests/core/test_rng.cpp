// Counter-based draws: pure functions of their counter, with the documented ranges.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>

#include <fusedga/core/rng.hpp>

using namespace fusedga;

TEST_CASE("draws are a pure function of (seed, index, generation, stream, block)", "[rng]") {
  const auto a = counter_rng::from_seed(42);
  const auto b = counter_rng::from_seed(42);
  const auto c = counter_rng::from_seed(43);
  const draws4 x = a(7, 3, stream::select, 1), y = b(7, 3, stream::select, 1), z = c(7, 3, stream::select, 1);
  for (int i = 0; i < 4; ++i) CHECK(x.v[i] == y.v[i]);
  CHECK((x.v[0] != z.v[0] || x.v[1] != z.v[1]));
  // every counter component matters
  std::set<std::uint32_t> firsts{a(7, 3, stream::select, 1).v[0], a(8, 3, stream::select, 1).v[0],
                                 a(7, 4, stream::select, 1).v[0], a(7, 3, stream::pair, 1).v[0],
                                 a(7, 3, stream::select, 2).v[0]};
  CHECK(firsts.size() == 5);
}

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vector", "[rng]") {
  // Random123 kat_vectors: philox4x32 10 rounds, ctr = 0, key = 0.
  const counter_rng zero{0, 0};
  const draws4 r = zero(0, 0, static_cast<stream>(0), 0);
  CHECK(r.v[0] == 0x6627e8d5u);
  CHECK(r.v[1] == 0xe169c58du);
  CHECK(r.v[2] == 0xbc57ac4cu);
  CHECK(r.v[3] == 0x9b00dbd8u);
}

TEST_CASE("unit maps to the open interval (0,1) and below to 0..n-1", "[rng]") {
  CHECK(unit<double>(0) > 0.0);
  CHECK(unit<double>(0xffffffffu) < 1.0);
  CHECK(unit<float>(0) > 0.0f);
  CHECK(unit<float>(0xffffffffu) < 1.0f);
  CHECK(below(0, 10) == 0);
  CHECK(below(0xffffffffu, 10) == 9);
  CHECK(coin<double>(0, 0.0) == false);
  CHECK(coin<double>(0xffffffffu, 1.0) == true);
  // mean of many draws
  const auto rng = counter_rng::from_seed(1);
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) sum += unit<double>(rng(i, 0, stream::init, 0).v[i % 4]);
  CHECK(sum / n == Approx(0.5).margin(0.005));
}
