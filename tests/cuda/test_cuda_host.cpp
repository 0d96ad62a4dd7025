// CPU-side logic of the CUDA backend, tested without a GPU: launch geometry,
// device-memory sizing and the "does not fit" message, CUDA error
// translation, the "why no GPU" wording and the backend fallback rules.
#include <catch2/catch.hpp>

#include <string>

#include <fusedga/backends/cuda/geometry.hpp>
#include <fusedga/config/registry.hpp>
#include <fusedga/core/error.hpp>
#if defined(FUSEDGA_WITH_CUDA)
#include <fusedga/backends/cuda/device.hpp>
#include <fusedga/backends/cuda/error.hpp>
#endif

using namespace fusedga;
namespace geo = fusedga::detail::cuda_geometry;

TEST_CASE("cuda geometry: evaluation reads short and very long rows from global memory, stages the rest in shared memory", "[cuda][geometry]") {
  const geo::launch cq = geo::evaluation_launch(1000000, 3, 8);  // seed/constrained-quadratic, double
  CHECK_FALSE(cq.staged);  // 24-byte rows: read straight from global memory
  CHECK(cq.shared_bytes == 0);
  CHECK(cq.threads == 128);
  CHECK(cq.rows == geo::kEvaluationRows);
  CHECK(cq.per_block == 512);
  CHECK(cq.blocks == 1954);  // ceil(10^6 / 512)
  const geo::launch staged = geo::evaluation_launch(1000000, 5, 8);  // 40-byte rows: staged, 512 x 40 B = 20 KiB
  CHECK(staged.staged);
  CHECK(staged.rows == geo::kEvaluationRows);
  CHECK(staged.shared_bytes == 512 * 5 * 8);
  const geo::launch mid = geo::evaluation_launch(1000, 12, 8, 1);  // 4 x 128 rows of 96 B = 48 KiB would not fit
  CHECK(mid.threads == 128);
  CHECK(mid.rows == 2);
  CHECK(mid.per_block == 256);
  // A row per thread where several would leave fewer than kMinEvaluationBlocks blocks: 10^5 / 256 < 1024.
  CHECK(geo::evaluation_launch(100000, 3, 8).rows == 1);
  CHECK(geo::evaluation_launch(100000, 3, 8).blocks == 782);
  CHECK(geo::evaluation_launch(400000, 3, 8).rows == 2);  // 400,000 / 512 < 1024 <= 400,000 / 256
  CHECK(geo::evaluation_launch(400000, 5, 8).rows == 2);
  const geo::launch sum = geo::evaluation_launch(900000, 1000, 1);  // seed/gene-sum, 1000 int8 genes
  CHECK(sum.staged);
  CHECK(sum.rows == 1);
  CHECK(sum.per_block == 32);  // 32 rows = 32,000 bytes <= 48 KiB; 64 rows would not fit
  CHECK(sum.shared_bytes == 32000);
  CHECK(sum.blocks == 28125);
  const geo::launch huge = geo::evaluation_launch(1000, 10000, 8);  // 80 kB rows: not staged
  CHECK_FALSE(huge.staged);
  CHECK(huge.shared_bytes == 0);
  CHECK(huge.blocks == 8);
  for (const int d : {1, 3, 7, 31, 32, 33, 500, 1536, 1537, 6144, 6145})
    for (const std::size_t bytes : {1u, 4u, 8u}) {
      const geo::launch l = geo::evaluation_launch(12345, d, bytes);
      INFO("d = " << d << ", gene bytes = " << bytes);
      CHECK(l.shared_bytes <= geo::kSharedBudget);
      CHECK(std::size_t(l.blocks) * l.per_block >= 12345);
      CHECK(l.threads % 32 == 0);
      CHECK(l.per_block == l.threads * l.rows);
      if (l.staged) CHECK(l.shared_bytes >= l.per_block * std::size_t(d) * bytes);
      // the tile's first row starts 16-byte aligned (vector loads): per_block * row bytes is a multiple of 16
      CHECK((std::size_t(l.per_block) * d * bytes) % 16 == 0);
    }
}

TEST_CASE("cuda geometry: a separable objective's long rows are evaluated by lane groups", "[cuda][geometry]") {
  const geo::launch sum = geo::evaluation_launch(900000, 1000, 1, geo::kMinEvaluationBlocks, true);  // seed/gene-sum
  CHECK(sum.warp_rows);
  CHECK_FALSE(sum.staged);
  CHECK(sum.shared_bytes == 0);
  CHECK(sum.threads == geo::kWarpRowThreads);
  CHECK(sum.rows == geo::kWarpRowsPerWarp);  // 128 rows a warp: 900,000 / 512 = 1758 blocks >= 1024
  CHECK(sum.per_block == 4 * 128);
  CHECK(sum.blocks == 1758);
  CHECK(sum.row_lanes == 8);  // 1000-byte rows: 8 lanes of four 16-byte loads (16 lanes would get fewer)
  CHECK(geo::evaluation_launch(900000, 1024, 1, geo::kMinEvaluationBlocks, true).row_lanes == 16);
  CHECK(geo::evaluation_launch(900000, 4000, 1, geo::kMinEvaluationBlocks, true).row_lanes == 32);
  // fewer rows a warp where more would leave fewer than kMinEvaluationBlocks blocks: 10^5 / (4 x 32) < 1024
  const geo::launch smaller = geo::evaluation_launch(100000, 1000, 1, geo::kMinEvaluationBlocks, true);
  CHECK(smaller.rows == 16);
  CHECK(smaller.blocks == 1563);
  CHECK(geo::evaluation_launch(1000, 1000, 1, geo::kMinEvaluationBlocks, true).rows == 1);
  // rows shorter than kWarpRowBytes keep the thread-per-row evaluation, separable or not
  CHECK_FALSE(geo::evaluation_launch(900000, 511, 1, geo::kMinEvaluationBlocks, true).warp_rows);
  CHECK(geo::evaluation_launch(900000, 64, 8, geo::kMinEvaluationBlocks, true).warp_rows);
  CHECK_FALSE(geo::evaluation_launch(900000, 1000, 1).warp_rows);
  // the long offspring kernel stages no children when it sums a separable objective's partials
  const geo::launch children = geo::offspring_launch(449999, 1000, 1, true);
  CHECK_FALSE(children.staged);
  CHECK(children.shared_bytes == 0);
  CHECK(children.blocks == 28125);
  CHECK(geo::offspring_launch(1000, 20, 1, true).staged);  // short genomes: thread per pair, as before
  // the memory plan counts the separable launches' blocks
  const geo::memory_plan plain = geo::plan_memory(1000, 1000, {1, 8, 8}, 2);
  const geo::memory_plan separable = geo::plan_memory(1000, 1000, {1, 8, 8, true}, 2);
  CHECK(separable.summaries - plain.summaries == (250 - 32) * (16 + 2 * 16));  // 250 evaluation blocks, not 32
}

TEST_CASE("cuda geometry: grid-stride grids cover the work with at least one and at most 65535 x 16 blocks", "[cuda][geometry]") {
  CHECK(geo::grid_for(0, 256) == 1);
  CHECK(geo::grid_for(256, 256) == 1);
  CHECK(geo::grid_for(257, 256) == 2);
  CHECK(geo::grid_for(std::size_t(1) << 40, 256) == 65535u * 16u);
}

TEST_CASE("cuda geometry: thread per pair for short genomes - a warp per 16 pairs for long ones", "[cuda][geometry]") {
  const geo::launch cq = geo::offspring_launch(499999, 3, 8);
  CHECK(geo::short_genome(3));
  CHECK(cq.per_block == 128);
  CHECK(cq.threads == 128);
  CHECK(cq.shared_bytes == 2 * 128 * 3 * 8);
  CHECK(cq.blocks == 3907);
  const geo::launch wide = geo::offspring_launch(1000, 32, 8);  // 2 x 128 rows of 256 B = 64 KiB: 64 pairs
  CHECK(wide.per_block == 64);
  CHECK(wide.shared_bytes <= geo::kSharedBudget);
  CHECK_FALSE(geo::short_genome(33));
  const geo::launch sum = geo::offspring_launch(449999, 1000, 1);
  CHECK(sum.threads == 32);
  CHECK(sum.per_block == 16);
  CHECK(sum.staged);
  CHECK(sum.shared_bytes == 32000);
  CHECK(sum.blocks == 28125);
  CHECK_FALSE(geo::offspring_launch(10, 100000, 8).staged);
  // the 48 KiB per-block limit counts the kernels' static shared memory too: tiles leave room for it
  CHECK(geo::evaluation_launch(1000, 48, 8).shared_bytes + geo::kStaticSharedReserve <= 48 * 1024);  // 128 x 384 B = 48 KiB would not launch
  CHECK(geo::offspring_launch(1000, 24, 8).shared_bytes + geo::kStaticSharedReserve <= 48 * 1024);   // 2 x 128 x 192 B = 48 KiB
  CHECK(geo::offspring_launch(1000, 192, 8).shared_bytes + geo::kStaticSharedReserve <= 48 * 1024);  // 2 x 16 x 1536 B = 48 KiB
  CHECK(geo::candidates_per_block(0) == 1);
  CHECK(geo::candidates_per_block(2) == 2);
  CHECK(geo::candidates_per_block(8) == 8);
  CHECK(geo::candidates_per_block(9) == 1);
  CHECK_FALSE(geo::elites_by_sort(8));
  CHECK(geo::elites_by_sort(9));
}

TEST_CASE("cuda memory plan: two populations dominate, and too large a population says how many fit", "[cuda][memory]") {
  const geo::element_sizes dbl{8, 8, 8};
  const geo::memory_plan m = geo::plan_memory(1000000, 3, dbl, 2);
  CHECK(m.populations == 2 * 1000001ull * (3 * 8 + 3 * 8));
  CHECK(m.summaries < m.populations / 100);
  CHECK(m.sort == 0);
  CHECK(geo::plan_memory(1000000, 3, dbl, 20).sort == 1000000ull * 16);
  const std::size_t gib = std::size_t(1) << 30;
  CHECK(geo::check_fits(1000000, 3, dbl, 2, 70 * gib, 80 * gib, "GPU") == "");
  const std::size_t fit = geo::max_population(70 * gib, 80 * gib, 3, dbl, 2);
  CHECK(fit > 750000000);  // ~0.77 billion: 2 populations x (3 genes + objective, violation, key) x 8 B = 96 B each, in 70 GiB less the reserve
  CHECK(fit < 783000000);  // 70 GiB / 96 B
  CHECK(geo::plan_memory(fit, 3, dbl, 2).total() + geo::reserve_bytes(80 * gib) <= 70 * gib);
  CHECK(geo::plan_memory(fit + 1000, 3, dbl, 2).total() + geo::reserve_bytes(80 * gib) > 70 * gib);
  // seed/gene-sum at 10^8 x 1000 int8 needs ~200 GB: the message names the need, the free memory and what fits
  const std::string msg = geo::check_fits(100000000, 1000, {1, 8, 8}, 2, 70 * gib, 80 * gib, "NVIDIA H100");
  CHECK_THAT(msg, Catch::Contains("a population of 100000000 individuals x 1000 genes needs"));
  CHECK_THAT(msg, Catch::Contains("only 70.0 GiB of 80.0 GiB are free on NVIDIA H100"));
  CHECK_THAT(msg, Catch::Contains("at most"));
  CHECK_THAT(msg, Catch::Contains("individuals fit"));
  const std::size_t gene_sum_fit = geo::max_population(70 * gib, 80 * gib, 1000, {1, 8, 8}, 2);
  CHECK(msg.find(std::to_string(gene_sum_fit)) != std::string::npos);
  CHECK(gene_sum_fit > 30000000);
  CHECK(gene_sum_fit < 40000000);
  CHECK(geo::max_population(32u << 20, 80 * gib, 3, dbl, 2) == 0);  // below the reserve nothing fits
  CHECK(geo::human_bytes(512) == "512 B");
  CHECK(geo::human_bytes(3u << 20) == "3.0 MiB");
}

TEST_CASE("backend resolution: auto falls back to tbb with a notice, cuda without a GPU is a clear error",
          "[cuda][backend]") {
  const std::string why = cuda_unavailable_reason();
  std::string notice;
  if (why.empty()) {  // a usable GPU
    CHECK(cuda_built());
    CHECK(resolve_backend(backend_kind::automatic, &notice) == backend_kind::cuda);
    CHECK(resolve_backend(backend_kind::cuda) == backend_kind::cuda);
    WARN("a GPU is present: " << cuda_device_line());
    return;
  }
  CHECK(resolve_backend(backend_kind::automatic, &notice) == backend_kind::tbb);
  CHECK(notice.find('\n') == std::string::npos);  // one line
  CHECK_THAT(notice, Catch::StartsWith("backend auto:"));
  CHECK_THAT(notice, Catch::EndsWith("using tbb"));
  CHECK_THROWS_AS(resolve_backend(backend_kind::cuda), backend_unavailable);
  try {
    resolve_backend(backend_kind::cuda);
  } catch (const backend_unavailable& e) {
    CHECK_THAT(e.what(), Catch::Contains("backend cuda:"));
    if (cuda_built()) {
      CHECK_THAT(notice, Catch::Contains(why));
      CHECK_THAT(e.what(), Catch::Contains("no usable GPU: " + why));
      CHECK_THAT(e.what(), Catch::Contains("built backends: serial, tbb, cuda"));
    } else {
      CHECK_THAT(e.what(), Catch::Contains("this build has no CUDA backend"));
    }
  }
  CHECK_THAT(cuda_device_line(), Catch::StartsWith("none: "));
  CHECK(resolve_backend(backend_kind::tbb) == backend_kind::tbb);
  CHECK(resolve_backend(backend_kind::serial) == backend_kind::serial);
}

#if defined(FUSEDGA_WITH_CUDA)
TEST_CASE("CUDA errors become cuda_error with the call - the CUDA error string and the place", "[cuda][error]") {
  CHECK(detail::format_cuda_error("cudaMalloc(&p, n)", "cudaErrorMemoryAllocation", "out of memory", "engine.cuh", 42) ==
        "CUDA call `cudaMalloc(&p, n)` failed at engine.cuh:42: out of memory (cudaErrorMemoryAllocation)");
  CHECK_NOTHROW(detail::cuda_check(cudaSuccess, "cudaFree(p)"));
  try {
    FUSEDGA_CUDA_TRY(cudaErrorMemoryAllocation);
    FAIL("no exception");
  } catch (const cuda_error& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("`cudaErrorMemoryAllocation` failed at "));
    CHECK_THAT(m, Catch::Contains("test_cuda_host.cpp:"));
    CHECK_THAT(m, Catch::Contains(cudaGetErrorString(cudaErrorMemoryAllocation)));
    CHECK_THAT(m, Catch::Contains("(cudaErrorMemoryAllocation)"));
  }
  CHECK_THROWS_AS(detail::cuda_check(cudaErrorInvalidValue, "cudaMemcpy(...)"), error);  // a fusedga::error
  if (probe_cuda_device(0).usable)  // (without a driver every runtime call reports the driver problem)
    CHECK(cudaGetLastError() == cudaSuccess);  // the translation leaves no error state behind
}

TEST_CASE("the reason a GPU cannot be used names the cause", "[cuda][device]") {
  using detail::describe_unusable;
  CHECK(describe_unusable(cudaErrorNoDevice, 0, 0, 0, 13000, "") == "no CUDA-capable GPU was found");
  CHECK(describe_unusable(cudaSuccess, 0, 0, 12040, 13000, "") == "no CUDA-capable GPU was found");
  CHECK(describe_unusable(cudaErrorInsufficientDriver, 0, 0, 0, 13000, "") ==
        "no NVIDIA driver is installed (the CUDA driver library could not be loaded)");
  CHECK(describe_unusable(cudaErrorInsufficientDriver, 0, 0, 12040, 13000, "") ==
        "the NVIDIA driver supports CUDA 12.4 but this build needs CUDA 13.0 (update the driver)");
  CHECK(describe_unusable(cudaSuccess, 2, 3, 13000, 13000, "") ==
        "device 3 was requested but 2 GPU(s) are present (ordinals 0..1)");
  CHECK(describe_unusable(cudaSuccess, 1, 0, 13000, 13000, "") == "");
  CHECK_THAT(describe_unusable(cudaErrorStubLibrary, 0, 0, 0, 13000, ""), Catch::Contains("stub"));
  CHECK_THAT(describe_unusable(cudaErrorUnknown, 0, 0, 0, 13000, "unknown error"),
             Catch::Contains("cannot query devices: unknown error"));
  const cuda_device_status s = probe_cuda_device(0);
  if (s.usable) {
    CHECK(s.device_count >= 1);
    CHECK_FALSE(s.name.empty());
    CHECK_THAT(describe(s), Catch::Contains(s.name));
  } else {
    WARN("no usable GPU here: " << s.reason);
    CHECK_FALSE(s.reason.empty());
    CHECK(describe(s) == "none: " + s.reason);
    CHECK_FALSE(probe_cuda_device(5).usable);
  }
}
#endif
