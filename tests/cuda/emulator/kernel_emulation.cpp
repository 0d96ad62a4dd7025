// The fiber scheduler behind kernel_emulation.hpp.
#include "kernel_emulation.hpp"

#include <ucontext.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace cuda_emulation {
namespace {

enum class fiber_state { runnable, block_barrier, warp_barrier, done };

constexpr std::size_t kStackBytes = 256 * 1024;
constexpr std::size_t kGuardBytes = 256;
constexpr unsigned char kGuard = 0xA5, kGarbage = 0xCD;

struct fiber {
  ucontext_t context{};
  std::unique_ptr<char[]> stack{new char[kStackBytes]};  // not zeroed: only the pages a fiber touches are committed
  fiber_state state = fiber_state::done;
};

struct scheduler {
  ucontext_t main{};
  std::vector<std::unique_ptr<fiber>> fibers;  // kept between launches: stacks are reused
  std::vector<unsigned char> shared;
  std::uint64_t warp_values[32][32] = {};  // [warp][lane], for warp_exchange (at most 1024 threads)
  const std::function<void()>* body = nullptr;
  unsigned current = 0;
  std::exception_ptr failure;
};

scheduler& sched() {
  static scheduler s;
  return s;
}

void fiber_entry() {
  scheduler& s = sched();
  try {
    (*s.body)();
  } catch (...) {
    if (!s.failure) s.failure = std::current_exception();
  }
  s.fibers[s.current]->state = fiber_state::done;
  // returning resumes uc_link (the scheduler)
}

/// Parks the running fiber in `state` and returns to the scheduler.
void wait(fiber_state state) {
  scheduler& s = sched();
  fiber& f = *s.fibers[s.current];
  f.state = state;
  swapcontext(&f.context, &s.main);
}

std::string describe(unsigned threads) {
  std::string why;
  const char* names[] = {"running", "at __syncthreads", "at a warp shuffle", "exited"};
  for (unsigned t = 0; t < threads; ++t)
    why += (t ? ", " : "") + std::to_string(t) + " " + names[static_cast<int>(sched().fibers[t]->state)];
  return why;
}

/// Releases the barriers that every thread concerned has reached; false if none could be released.
bool release(unsigned threads) {
  scheduler& s = sched();
  bool all_at_block = true;
  for (unsigned t = 0; t < threads; ++t)
    all_at_block = all_at_block && s.fibers[t]->state == fiber_state::block_barrier;
  if (all_at_block) {
    for (unsigned t = 0; t < threads; ++t) s.fibers[t]->state = fiber_state::runnable;
    return true;
  }
  bool released = false;
  for (unsigned w = 0; w * 32 < threads; ++w) {
    bool whole = true;
    for (unsigned t = w * 32; t < w * 32 + 32; ++t) whole = whole && s.fibers[t]->state == fiber_state::warp_barrier;
    if (!whole) continue;
    for (unsigned t = w * 32; t < w * 32 + 32; ++t) s.fibers[t]->state = fiber_state::runnable;
    released = true;
  }
  return released;
}

void run_block(unsigned threads) {
  scheduler& s = sched();
  for (unsigned t = 0; t < threads; ++t) {
    fiber& f = *s.fibers[t];
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = &s.main;
    makecontext(&f.context, fiber_entry, 0);
    f.state = fiber_state::runnable;
  }
  // Between barriers the fibers run in turn, in a new pseudo-random order each time (fixed seed:
  // reproducible), so a missing barrier shows as a wrong result whichever thread writes first, as on a
  // GPU, which promises no order either.
  std::vector<unsigned> order(threads);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 shuffle(blockIdx.x);
  for (;;) {
    std::shuffle(order.begin(), order.end(), shuffle);
    bool ran = false;
    for (const unsigned t : order) {
      if (s.fibers[t]->state != fiber_state::runnable) continue;
      s.current = t;
      threadIdx = dim3(t);
      swapcontext(&s.main, &s.fibers[t]->context);
      ran = true;
    }
    if (s.failure) return;  // a thread threw: launch() rethrows it; the other fibers are abandoned
    bool all_done = true;
    for (unsigned t = 0; t < threads; ++t) all_done = all_done && s.fibers[t]->state == fiber_state::done;
    if (all_done) return;
    if (!ran && !release(threads)) {
      throw std::runtime_error("kernel emulation: block " + std::to_string(blockIdx.x) +
                               " cannot pass a barrier that not all its threads reach: " + describe(threads));
    }
  }
}

}  // namespace

void launch(dim3 grid, dim3 block, std::size_t shared_bytes, const std::function<void()>& body) {
  scheduler& s = sched();
  if (block.x == 0 || block.x > 1024 || block.x % 32 != 0 || grid.x == 0)
    throw std::runtime_error("kernel emulation: launch of " + std::to_string(grid.x) + " x " + std::to_string(block.x) +
                             " threads (blocks of a multiple of 32, at most 1024)");
  while (s.fibers.size() < block.x) s.fibers.push_back(std::make_unique<fiber>());
  s.body = &body;
  s.failure = nullptr;
  gridDim = grid;
  blockDim = block;
  for (unsigned b = 0; b < grid.x; ++b) {
    blockIdx = dim3(b);
    s.shared.assign(shared_bytes + kGuardBytes, kGuard);
    std::memset(s.shared.data(), kGarbage, shared_bytes);
    run_block(block.x);
    if (s.failure) std::rethrow_exception(s.failure);
    for (std::size_t k = shared_bytes; k < s.shared.size(); ++k)
      if (s.shared[k] != kGuard)
        throw std::runtime_error("kernel emulation: block " + std::to_string(b) + " wrote past its " +
                                 std::to_string(shared_bytes) + " bytes of dynamic shared memory");
  }
}

unsigned char* dynamic_shared_memory() { return sched().shared.data(); }

void warp_exchange(unsigned mask, std::uint64_t mine, std::uint64_t (&lanes)[32]) {
  if (mask != 0xffffffffu) throw std::logic_error("kernel emulation: only full-warp shuffles are emulated");
  scheduler& s = sched();
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  s.warp_values[warp][lane] = mine;
  wait(fiber_state::warp_barrier);
  std::memcpy(lanes, s.warp_values[warp], sizeof lanes);
  wait(fiber_state::warp_barrier);  // nobody overwrites a value before every lane has read it
}

}  // namespace cuda_emulation

void __syncthreads() { cuda_emulation::wait(cuda_emulation::fiber_state::block_barrier); }
