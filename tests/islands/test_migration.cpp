// The island model's pure arithmetic (islands/migration.hpp) on hand-computed small cases: island sizes,
// rank blocks, topologies and best-replace-worst. Issue 18.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fusedga/islands/migration.hpp>
#include <vector>

using namespace fusedga;
using namespace fusedga::islands;

namespace {

using slots = std::vector<std::uint32_t>;

std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_of(const std::vector<replacement>& r) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const replacement& x : r) out.emplace_back(x.immigrant, x.slot);
  return out;
}

}  // namespace

TEST_CASE("island_population: N/I each, the first N mod I islands one more", "[islands]") {
  CHECK(island_population(10, 3, 0) == 4);
  CHECK(island_population(10, 3, 1) == 3);
  CHECK(island_population(10, 3, 2) == 3);
  CHECK(island_population(10, 4, 0) == 3);
  CHECK(island_population(10, 4, 1) == 3);
  CHECK(island_population(10, 4, 2) == 2);
  CHECK(island_population(10, 4, 3) == 2);
  CHECK(island_population(12, 4, 3) == 3);
  CHECK(island_population(7, 1, 0) == 7);
  std::size_t sum = 0;
  for (int i = 0; i < 7; ++i) sum += island_population(1003, 7, i);
  CHECK(sum == 1003);
}

TEST_CASE("island_seed: island 0 keeps the run's seed, the others differ", "[islands]") {
  CHECK(island_seed(42, 0) == 42);
  std::vector<std::uint64_t> seen{island_seed(42, 0)};
  for (int i = 1; i < 16; ++i) seen.push_back(island_seed(42, i));
  std::sort(seen.begin(), seen.end());
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
  CHECK(island_seed(42, 3) != island_seed(43, 3));
  CHECK(island_seed(42, 3) == island_seed(42, 3));
}

TEST_CASE("rank_islands: contiguous blocks, the first I mod R ranks one more, owner_rank inverts it", "[islands]") {
  const auto block = [](int islands, int ranks, int r) {
    int first = -1, last = -1;
    rank_islands(islands, ranks, r, first, last);
    return std::make_pair(first, last);
  };
  // 10 islands over 4 ranks: 3, 3, 2, 2.
  CHECK(block(10, 4, 0) == std::make_pair(0, 3));
  CHECK(block(10, 4, 1) == std::make_pair(3, 6));
  CHECK(block(10, 4, 2) == std::make_pair(6, 8));
  CHECK(block(10, 4, 3) == std::make_pair(8, 10));
  // 5 over 2: 3, 2; 4 over 4: one each; 3 over 1: all.
  CHECK(block(5, 2, 0) == std::make_pair(0, 3));
  CHECK(block(5, 2, 1) == std::make_pair(3, 5));
  CHECK(block(4, 4, 2) == std::make_pair(2, 3));
  CHECK(block(3, 1, 0) == std::make_pair(0, 3));
  const std::vector<int> owners_10_4{0, 0, 0, 1, 1, 1, 2, 2, 3, 3};
  for (int i = 0; i < 10; ++i) CHECK(owner_rank(10, 4, i) == owners_10_4[static_cast<std::size_t>(i)]);
  for (int islands : {1, 2, 5, 7, 16})
    for (int ranks = 1; ranks <= islands; ++ranks)
      for (int i = 0; i < islands; ++i) {
        const auto b = block(islands, ranks, owner_rank(islands, ranks, i));
        CHECK(b.first <= i);
        CHECK(i < b.second);
      }
}

TEST_CASE("ring and fully-connected: exact destinations and sources", "[islands]") {
  using T = migration_topology;
  CHECK(destinations(T::ring, 4, 0, 7, 1) == std::vector<int>{1});
  CHECK(destinations(T::ring, 4, 3, 7, 1) == std::vector<int>{0});
  CHECK(destinations(T::ring, 2, 1, 7, 9) == std::vector<int>{0});
  CHECK(sources(T::ring, 4, 0, 7, 1) == std::vector<int>{3});
  CHECK(sources(T::ring, 4, 2, 7, 5) == std::vector<int>{1});
  CHECK(destinations(T::fully_connected, 4, 2, 7, 1) == std::vector<int>{0, 1, 3});
  CHECK(destinations(T::fully_connected, 3, 0, 7, 1) == std::vector<int>{1, 2});
  CHECK(sources(T::fully_connected, 4, 1, 7, 3) == std::vector<int>{0, 2, 3});
  for (T t : {T::ring, T::random, T::fully_connected}) {
    CHECK(destinations(t, 1, 0, 7, 1).empty());  // one island sends nowhere
    CHECK(sources(t, 1, 0, 7, 1).empty());
  }
}

TEST_CASE("random topology: one other island, a function of (seed, epoch, i), sources its inverse", "[islands]") {
  using T = migration_topology;
  const int count = 8;
  bool epochs_differ = false, seeds_differ = false;
  for (std::uint32_t epoch = 1; epoch <= 20; ++epoch)
    for (int i = 0; i < count; ++i) {
      const std::vector<int> d = destinations(T::random, count, i, 7, epoch);
      REQUIRE(d.size() == 1);
      CHECK(d[0] != i);
      CHECK(d[0] >= 0);
      CHECK(d[0] < count);
      CHECK(destinations(T::random, count, i, 7, epoch) == d);  // the same draw for the same (seed, epoch, i)
      epochs_differ |= destinations(T::random, count, i, 7, epoch + 1) != d;
      seeds_differ |= destinations(T::random, count, i, 8, epoch) != d;
    }
  CHECK(epochs_differ);
  CHECK(seeds_differ);
  // Every other island is drawn at some epoch (uniform over the I - 1 others).
  std::vector<int> hits(count, 0);
  for (std::uint32_t epoch = 1; epoch <= 200; ++epoch) ++hits[destinations(T::random, count, 3, 7, epoch)[0]];
  for (int j = 0; j < count; ++j) CHECK((j == 3 ? hits[j] == 0 : hits[j] > 0));
  // sources(to) lists exactly the islands whose destination is `to`, in increasing order.
  for (std::uint32_t epoch = 1; epoch <= 5; ++epoch)
    for (int to = 0; to < count; ++to) {
      std::vector<int> expected;
      for (int i = 0; i < count; ++i)
        if (destinations(T::random, count, i, 7, epoch)[0] == to) expected.push_back(i);
      CHECK(sources(T::random, count, to, 7, epoch) == expected);
    }
  // Two islands: each sends to the other.
  CHECK(destinations(T::random, 2, 0, 7, 3) == std::vector<int>{1});
  CHECK(destinations(T::random, 2, 1, 7, 3) == std::vector<int>{0});
}

TEST_CASE("best_slots and worst_slots: best first by lower slot on ties, worst first by higher slot", "[islands]") {
  const std::vector<int> keys{5, 3, 3, 1, 7, 3};
  CHECK(best_slots(keys.data(), keys.size(), 3) == slots{3, 1, 2});
  CHECK(best_slots(keys.data(), keys.size(), 4) == slots{3, 1, 2, 5});
  CHECK(worst_slots(keys.data(), keys.size(), 2) == slots{4, 0});
  CHECK(worst_slots(keys.data(), keys.size(), 4) == slots{4, 0, 5, 2});
  CHECK(best_slots(keys.data(), keys.size(), 99).size() == keys.size());  // k capped at n
  CHECK(best_slots(keys.data(), keys.size(), 0).empty());
}

TEST_CASE("best_replace_worst: the j-th best immigrant replaces the j-th worst resident while strictly better",
          "[islands]") {
  const std::vector<int> residents{5, 3, 8, 4, 6};  // worst first: slot 2 (8), slot 4 (6), slot 0 (5), slot 3 (4)
  using P = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  SECTION("best first: 1 takes slot 2, 2 takes slot 4, 9 is not better than 5") {
    const std::vector<int> in{2, 9, 1};
    CHECK(pairs_of(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 3)) ==
          P{{2, 2}, {0, 4}});
  }
  SECTION("the limit caps the replacements") {
    const std::vector<int> in{2, 9, 1};
    CHECK(pairs_of(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 1)) == P{{2, 2}});
    CHECK(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 0).empty());
  }
  SECTION("fewer immigrants than the limit: each may replace one") {
    const std::vector<int> in{0};
    CHECK(pairs_of(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 3)) == P{{0, 2}});
    const std::vector<int> two{4, 0};
    CHECK(pairs_of(best_replace_worst(two.data(), two.size(), residents.data(), residents.size(), 5)) ==
          P{{1, 2}, {0, 4}});
  }
  SECTION("all better: as many as the limit, pairing best with worst") {
    const std::vector<int> in{1, 0, 2, 2};
    CHECK(pairs_of(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 4)) ==
          P{{1, 2}, {0, 4}, {2, 0}, {3, 3}});
  }
  SECTION("nobody strictly better: none, an equal key included") {
    const std::vector<int> in{8, 9, 8};
    CHECK(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 3).empty());
    const std::vector<int> none;
    CHECK(best_replace_worst(none.data(), 0, residents.data(), residents.size(), 3).empty());
  }
  SECTION("ties among immigrants go to the earlier one received") {
    const std::vector<int> in{4, 2, 2};
    CHECK(pairs_of(best_replace_worst(in.data(), in.size(), residents.data(), residents.size(), 1)) == P{{1, 2}});
  }
}
