#pragma once
/// @file tbb.hpp
/// The oneTBB backend: passes split over tiles across a task arena.

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "fusedga/backends/cpu_executor.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/engine/executor.hpp"

// ThreadSanitizer does not see oneTBB's hand-offs (libtbb is not instrumented): it reported the caller's
// writes after a pass as racing with the pass's reads on the workers. tbb_loop annotates the fork and the
// join of each pass (scripts/tsan.sh); nothing changes in other builds.
#if defined(__SANITIZE_THREAD__)
#define FUSEDGA_TSAN_ANNOTATIONS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FUSEDGA_TSAN_ANNOTATIONS 1
#endif
#endif
#ifdef FUSEDGA_TSAN_ANNOTATIONS
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace fusedga {
namespace backend {
/// Runs passes on oneTBB worker threads. `threads` = 0 runs in the calling thread's task arena: all cores,
/// unless the caller runs inside a smaller arena of its own, whose limit is then kept.
/// Results are bitwise equal to `serial` for any thread count: work is split
/// into fixed tiles and reductions combine tiles in index order.
struct tbb {
  /// In [0, max_threads]; 0 = the caller's arena (all cores, or the limit of an arena it runs in). More than the
  /// core count installs a process-wide tbb::global_control (max_allowed_parallelism) for the run's duration.
  int threads = 0;
  /// The largest thread count accepted: oneTBB allocates a slot per requested thread up front (about 0.7 KiB
  /// each, measured), so 2^31 threads ran out of memory (or crashed) before any work.
  static constexpr int max_threads = 65536;
};
}  // namespace backend

namespace detail {

/**
 * Runs `f(i)` for i in [0, n) in a task arena of the requested size, or in the
 * caller's for threads = 0 (an arena's set-up was a sixth of a short run's
 * start-up); `f(i, slot)` where f takes a slot: the running thread's index in
 * that arena, in [0, concurrency()), so calls running at once never share one
 * (their scratch: pass_scratch.hpp); n = 1 runs f(0, 0) on the caller. Created once per engine; `for_each_index`
 * blocks until all calls returned. An exception thrown by `f` cancels the rest and is
 * rethrown to the caller (oneTBB semantics).
 */
class tbb_loop {
 public:
  explicit tbb_loop(const backend::tbb& b) {
    if (b.threads < 0 || b.threads > backend::tbb::max_threads)
      throw config_error("threads: expected an integer in [0, " + std::to_string(backend::tbb::max_threads) +
                         "] (0 = all cores), got " + std::to_string(b.threads));
    // oneTBB caps workers at the core count unless told otherwise; honour an explicit larger request.
    if (b.threads > ::tbb::info::default_concurrency())
      limit_ = std::make_shared<::tbb::global_control>(::tbb::global_control::max_allowed_parallelism,
                                                       static_cast<std::size_t>(b.threads));
    if (b.threads > 0) arena_.emplace(b.threads);
  }
  template <class F>
  void for_each_index(std::size_t n, F&& f) {
    if (n == 1) {  // one index (a population of at most one tile): on the caller, no task; slot 0 is free, as
      if constexpr (std::is_invocable_v<F&, std::size_t, int>)  // no other call of this loop runs meanwhile
        f(std::size_t(0), 0);
      else
        f(std::size_t(0));
      return;
    }
#ifdef FUSEDGA_TSAN_ANNOTATIONS
    __tsan_release(&fork_);  // the caller's writes happen before every task ...
#endif
    const auto loop = [&] {
      ::tbb::parallel_for(::tbb::blocked_range<std::size_t>(0, n), [&](const ::tbb::blocked_range<std::size_t>& r) {
#ifdef FUSEDGA_TSAN_ANNOTATIONS
        __tsan_acquire(&fork_);
#endif
        if constexpr (std::is_invocable_v<F&, std::size_t, int>) {
          const int slot = ::tbb::this_task_arena::current_thread_index();  // in [0, concurrency())
          for (std::size_t i = r.begin(); i != r.end(); ++i) f(i, slot);
        } else {
          for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
        }
#ifdef FUSEDGA_TSAN_ANNOTATIONS
        __tsan_release(&join_);  // ... and every task before the caller goes on; tasks stay unordered among
#endif                           // themselves, so two tiles touching one element are still reported
      });
    };
    if (arena_)
      arena_->execute(loop);
    else
      loop();
#ifdef FUSEDGA_TSAN_ANNOTATIONS
    __tsan_acquire(&join_);
#endif
  }
  int concurrency() const { return arena_ ? arena_->max_concurrency() : ::tbb::this_task_arena::max_concurrency(); }

 private:
  std::shared_ptr<::tbb::global_control> limit_;
  std::optional<::tbb::task_arena> arena_;  ///< none for threads = 0: the caller's
#ifdef FUSEDGA_TSAN_ANNOTATIONS
  char fork_ = 0, join_ = 0;  ///< ThreadSanitizer sync objects of a pass's fork and join
#endif
};

}  // namespace detail

template <class Problem>
struct executor_for<Problem, backend::tbb> {
  using type = detail::cpu_executor<Problem, detail::tbb_loop>;
};

}  // namespace fusedga
