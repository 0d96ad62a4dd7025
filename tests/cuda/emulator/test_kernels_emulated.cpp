// The CUDA backend's kernels (kernels.cuh) run on the host by the kernel
// emulator, checked against the serial CPU engine with the same parity checks
// as the GPU tests (parity_checks.hpp): launch geometry, tile staging,
// indexing, block reductions, elitism and the run state are exercised on
// every machine, GPU or not, through the CUDA executor's own host sequence
// (executor.hpp). What the emulator cannot check: device arithmetic
// (libdevice), memory coalescing and speed, the CUDA runtime calls of
// runtime.cuh (graphs, streams, CUB) — those need the GPU tests.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "cuda/emulator/emulated_runtime.hpp"
#include "cuda/parity_checks.hpp"

using namespace fusedga;
using namespace cuda_test;

namespace {
const auto emulated = [](const auto& p, const ga_options& o, int generations, const auto* start, bool graphs) {
  return run_emulated(p, o, generations, start, graphs);
};
}  // namespace

TEST_CASE("integer genes - thread per pair: initial population and 3 generations equal the CPU bitwise", "[cuda]") {
  thread_per_pair_parity(emulated, 1001, false);
}

TEST_CASE("integer genes - warp per pair: separable, staged and global-memory rows equal the CPU bitwise", "[cuda]") {
  warp_per_pair_parity(emulated, 301, 67);
}

TEST_CASE("elitism above 8 (elites by sorting the keys) equals the CPU bitwise", "[cuda]") {
  elite_sort_parity(emulated, 1000);
}

TEST_CASE("real genes - one generation from the same population matches the CPU (SBX and polynomial mutation bitwise)",
          "[cuda]") {
  real_gene_parity(emulated, 2001, 201);
}

TEST_CASE("differential evolution - trials, survivors, SHADE memories and archive equal the CPU bitwise", "[cuda][de]") {
  de_parity(emulated, 301, 131, 6, true);
}

TEST_CASE("differential evolution - more targets than de_update has threads, segments keep slot order",
          "[cuda][de]") {
  // 2049 and 1537 targets over de_update's 16 warps: segments of 512 targets (a warp's step), the last one short
  // (1 and 1 target), the warps past them empty.
  de_parity(emulated, 2049, 1537, 3, true);
}

TEST_CASE("differential evolution - the gradient repair of infeasible trials (εDEg) equals the CPU bitwise",
          "[cuda][de][repair]") {
  de_repair_parity(emulated, 301, 4);
}

TEST_CASE("the GA's gradient repair of children (both offspring kernels) equals the CPU bitwise", "[cuda][repair]") {
  ga_repair_parity(emulated, 301, 67, 4);
}

TEST_CASE("integer variables among real genes - GA and DE rounding equal the CPU bitwise", "[cuda][integer]") {
  integer_variable_parity(emulated, 301, 4);
}

// --- the emulator itself: it must catch what a GPU would get wrong or hang on ---

TEST_CASE("emulator: shuffles and __syncthreads follow CUDA's semantics", "[cuda]") {
  std::vector<unsigned> down(64), broadcast(64), shared_sum(64);
  cuda_emulation::launch(2, 64, 0, [&] {
    static unsigned partial[64];  // a __shared__ array
    const unsigned t = threadIdx.x;
    down[t] = __shfl_down_sync(0xffffffffu, t, 3);  // lanes 29..31 keep their own value
    broadcast[t] = __shfl_sync(0xffffffffu, t * 10, 5);
    partial[t] = t;
    __syncthreads();
    shared_sum[t] = partial[(t + 1) % 64] + blockIdx.x;
  });
  CHECK(down[0] == 3);
  CHECK(down[28] == 31);
  CHECK(down[29] == 29);
  CHECK(down[32] == 35);
  CHECK(down[63] == 63);
  CHECK(broadcast[7] == 50);
  CHECK(broadcast[40] == 370);     // lane 5 of the second warp is thread 37
  CHECK(shared_sum[63] == 0 + 1);  // block 1 ran last
  CHECK(shared_sum[10] == 11 + 1);
}

TEST_CASE("emulator: a __syncthreads not reached by every thread is an error, not a hang", "[cuda]") {
  CHECK_THROWS_WITH(cuda_emulation::launch(1, 64, 0,
                                           [] {
                                             if (threadIdx.x < 32) __syncthreads();
                                           }),
                    Catch::Contains("cannot pass a barrier"));
}

TEST_CASE("emulator: writing past the dynamic shared memory is an error", "[cuda]") {
  CHECK_THROWS_WITH(
      cuda_emulation::launch(1, 32, 64, [] { cuda_emulation::dynamic_shared_memory()[64 + threadIdx.x] = 0; }),
      Catch::Contains("wrote past its 64 bytes"));
  CHECK_NOTHROW(cuda_emulation::launch(1, 32, 64, [] { cuda_emulation::dynamic_shared_memory()[threadIdx.x] = 0; }));
}
