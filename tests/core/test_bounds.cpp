// Bounds are checked before a run: sizes, order, finiteness, integer range.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <fusedga/core/bounds.hpp>

using fusedga::Bounds;
using fusedga::config_error;

TEST_CASE("bounds validation names the offending gene", "[bounds]") {
  CHECK_NOTHROW(Bounds<double>({0, -1}, {1, 1}).validate(2));
  CHECK_THROWS_WITH(Bounds<double>({0, 2}, {1, 1}).validate(2), Catch::Contains("gene 1: lower bound"));
  CHECK_THROWS_WITH(Bounds<double>({0}, {1}).validate(2), Catch::Contains("expected 2 lower and upper bounds"));
  CHECK_THROWS_WITH(Bounds<double>({0}, {std::numeric_limits<double>::infinity()}).validate(1),
                    Catch::Contains("must be finite"));
  // integer genes: uniform draws use 32 random bits
  CHECK_NOTHROW(Bounds<std::int32_t>({-5}, {5}).validate(1));
  CHECK_THROWS_WITH(Bounds<std::int32_t>({std::numeric_limits<std::int32_t>::min()},
                                         {std::numeric_limits<std::int32_t>::max()}).validate(1),
                    Catch::Contains("2^32 or more values"));
}

TEST_CASE("bounds whose width overflows are rejected, so no gene is ever infinite", "[bounds]") {
  // lower + u·(upper − lower) with an infinite width makes infinite genes (issue 16, item 4)
  CHECK_THROWS_WITH(Bounds<double>({-1e308}, {1e308}).validate(1), Catch::Contains("gene 0: the width upper - lower overflows double"));
  CHECK_THROWS_WITH(Bounds<float>({0, -3e38f}, {1, 3e38f}).validate(2), Catch::Contains("gene 1: the width upper - lower overflows float"));
  const double big = std::numeric_limits<double>::max();
  CHECK_NOTHROW(Bounds<double>({0}, {big}).validate(1));  // the widest range that still fits
  CHECK_NOTHROW(Bounds<double>({-big / 2}, {big / 2}).validate(1));
}

TEST_CASE("integer marks: real genes only, one per gene, 0 or 1, integer bounds", "[bounds]") {
  Bounds<double> b({0, 1.5}, {3, 2.5});
  b.integer = {1, 0};
  CHECK_NOTHROW(b.validate(2));  // gene 1 is real: its bounds need not be integers
  CHECK(b.view().integer == b.integer.data());
  b.integer = {0, 1};
  CHECK_THROWS_WITH(b.validate(2), Catch::Contains("gene 1: an integer variable needs integer bounds"));
  b.integer = {1};
  CHECK_THROWS_WITH(b.validate(2), Catch::Contains("expected 2 integer marks (one per gene), got 1"));
  b.integer = {2, 0};
  CHECK_THROWS_WITH(b.validate(2), Catch::Contains("gene 0: integer mark must be 0 or 1"));
  b.integer = {};
  CHECK(b.view().integer == nullptr);  // no mark: kernels skip the rounding
  Bounds<double> wide({0}, {4294967295.0});
  wide.integer = {1};
  CHECK_THROWS_WITH(wide.validate(1), Catch::Contains("2^32 or more values"));
  Bounds<float> far({0}, {8388608.0f});  // 2^23: floor(y + 0.5f) is no longer exact
  far.integer = {1};
  CHECK_THROWS_WITH(far.validate(1), Catch::Contains("within +-2^22 in float"));
  far.upper = {4194304.0f};
  CHECK_NOTHROW(far.validate(1));
  Bounds<std::int32_t> ints({0}, {3});
  ints.integer = {1};
  CHECK_THROWS_WITH(ints.validate(1), Catch::Contains("integer marks are for real genes"));
}
