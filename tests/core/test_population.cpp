// population (core/population.hpp): four arrays, each on a 64-byte boundary, each of
// N + 1 entries (the spare row), none overlapping another.
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>

#include <fusedga/core/population.hpp>

using namespace fusedga;

namespace {

template <class Gene, class Fitness>
void check_layout(std::size_t n, int d) {
  INFO("N = " << n << ", d = " << d << ", gene " << sizeof(Gene) << " B, fitness " << sizeof(Fitness) << " B");
  population<Gene, Fitness> p(n, d);
  CHECK(p.size() == n);
  CHECK(p.dimension() == d);
  const auto v = p.view();
  for (const void* a : {static_cast<const void*>(v.genes), static_cast<const void*>(v.objective),
                        static_cast<const void*>(v.violation), static_cast<const void*>(v.rank_key)})
    CHECK(reinterpret_cast<std::uintptr_t>(a) % 64 == 0);
  // Every entry of every array written with its own value, then read back: overlapping arrays would overwrite
  // each other's entries.
  const std::size_t rows = n + 1, genes = rows * static_cast<std::size_t>(d);
  for (std::size_t k = 0; k < genes; ++k) v.genes[k] = static_cast<Gene>(k % 101);
  for (std::size_t i = 0; i < rows; ++i) {
    v.objective[i] = static_cast<Fitness>(i + 1);
    v.violation[i] = static_cast<Fitness>(2 * i + 3);
    v.rank_key[i] = static_cast<rank_key_t<Fitness>>(7 * i + 5);
  }
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < genes; ++k) wrong += v.genes[k] != static_cast<Gene>(k % 101);
  for (std::size_t i = 0; i < rows; ++i) {
    wrong += v.objective[i] != static_cast<Fitness>(i + 1);
    wrong += v.violation[i] != static_cast<Fitness>(2 * i + 3);
    wrong += v.rank_key[i] != static_cast<rank_key_t<Fitness>>(7 * i + 5);
  }
  CHECK(wrong == 0);
  CHECK(v.row(n) == v.genes + n * static_cast<std::size_t>(d));

  // A move hands over the storage: the same arrays, their values kept.
  population<Gene, Fitness> q(std::move(p));
  CHECK(q.view().genes == v.genes);
  CHECK(q.view().rank_key == v.rank_key);
  CHECK(q.view().violation[n] == static_cast<Fitness>(2 * n + 3));
}

}  // namespace

TEST_CASE("population: four aligned, disjoint arrays of N + 1 entries", "[population]") {
  check_layout<double, double>(50, 4);
  check_layout<double, double>(1, 1);
  check_layout<float, float>(3, 5);
  check_layout<std::int8_t, float>(37, 3);
  check_layout<std::int32_t, double>(1000, 17);
}
