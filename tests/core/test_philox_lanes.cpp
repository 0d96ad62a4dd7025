// The SIMD Philox used by CPU tiles must equal Random123's scalar Philox bit for bit.
#include <catch2/catch.hpp>

#include <cstdint>

#include <fusedga/core/philox_lanes.hpp>

using namespace fusedga;

TEST_CASE("draw_lanes and draw_blocks equal counter_rng for every lane", "[rng][simd]") {
  const auto rng = counter_rng::from_seed(0x0123456789abcdefull);
  // Widths 32 and 16 take the AVX-512 path where the build has one, 8 the AVX2 path, 5 the scalar code.
  std::uint32_t lanes[4][32], blocks[4][8], blocks16[4][16], odd[4][5];
  detail::draw_lanes<32>(rng, 0xfffffff0u, 77, stream::gene_a, 9, lanes);  // wraps around 2^32
  detail::draw_blocks<8>(rng, 123, 77, stream::gene_b, 40, blocks);
  detail::draw_blocks<16>(rng, 124, 78, stream::gene_b, 0xfffffff8u, blocks16);
  detail::draw_lanes<5>(rng, 1000, 3, stream::pair, 0, odd);  // scalar fallback width
  for (int l = 0; l < 32; ++l) {
    const draws4 r = rng(0xfffffff0u + static_cast<std::uint32_t>(l), 77, stream::gene_a, 9);
    for (int w = 0; w < 4; ++w) REQUIRE(lanes[w][l] == r.v[w]);
  }
  for (int l = 0; l < 8; ++l) {
    const draws4 r = rng(123, 77, stream::gene_b, 40 + static_cast<std::uint32_t>(l));
    for (int w = 0; w < 4; ++w) REQUIRE(blocks[w][l] == r.v[w]);
  }
  for (int l = 0; l < 16; ++l) {
    const draws4 r = rng(124, 78, stream::gene_b, 0xfffffff8u + static_cast<std::uint32_t>(l));
    for (int w = 0; w < 4; ++w) REQUIRE(blocks16[w][l] == r.v[w]);
  }
  for (int l = 0; l < 5; ++l) {
    const draws4 r = rng(1000 + static_cast<std::uint32_t>(l), 3, stream::pair, 0);
    for (int w = 0; w < 4; ++w) REQUIRE(odd[w][l] == r.v[w]);
  }
}
