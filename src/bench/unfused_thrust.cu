// ga-bench's GPU unfused tier (bench/cuda_unfused.hpp): the seed workloads written the eager-PyTorch way with
// Thrust, one thrust::transform per arithmetic operation into a fresh device temporary. The operation lists are
// those of bench/unfused_seed.hpp (the NumPy-style CPU tier), in the same order.
#include "bench/cuda_unfused.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>

#include "bench/unfused_check.hpp"
#include "fusedga/backends/cuda/buffer.hpp"
#include "fusedga/backends/cuda/error.hpp"
#include "fusedga/core/constraint_sink.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/splitmix64.hpp"
#include "registry/problem_families.hpp"

namespace fusedga {
namespace {

/// Freed device blocks kept by byte size for the next temporary of that size, as PyTorch's caching allocator
/// keeps them: eager PyTorch pays a kernel per operation, not a cudaMalloc. One per target; not thread-safe.
class device_block_cache {
 public:
  device_block_cache() = default;
  device_block_cache(const device_block_cache&) = delete;
  device_block_cache& operator=(const device_block_cache&) = delete;
  ~device_block_cache() { clear(); }
  void* take(std::size_t bytes) {
    for (std::size_t i = free_.size(); i-- > 0;)
      if (free_[i].first == bytes) {
        void* p = free_[i].second;
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
        return p;
      }
    void* p = nullptr;
    FUSEDGA_CUDA_TRY(cudaMalloc(&p, bytes));
    return p;
  }
  void give(void* p, std::size_t bytes) { free_.emplace_back(bytes, p); }
  void clear() noexcept {
    for (const auto& b : free_) cudaFree(b.second);
    free_.clear();
  }

 private:
  std::vector<std::pair<std::size_t, void*>> free_;
};

/// One device temporary of N elements (a tensor of eager PyTorch): from the cache, back to it when destroyed.
template <class T>
class device_array {
 public:
  device_array(device_block_cache& cache, std::size_t n)
      : cache_(&cache), data_(static_cast<T*>(cache.take(n * sizeof(T)))), size_(n) {}
  device_array(device_array&& o) noexcept
      : cache_(o.cache_), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  device_array& operator=(device_array&& o) noexcept {
    std::swap(cache_, o.cache_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~device_array() {
    if (data_) cache_->give(data_, size_ * sizeof(T));
  }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  device_block_cache* cache_;
  T* data_;
  std::size_t size_;
};

// The elementwise operations, as functors (no extended lambdas in this build).
template <class T> struct mul_op { __device__ T operator()(T a, T b) const { return a * b; } };
template <class T> struct add_op { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct sub_op { __device__ T operator()(T a, T b) const { return a - b; } };
template <class T> struct scale_op { T c; __device__ T operator()(T a) const { return c * a; } };
template <class T> struct rsub_op { T c; __device__ T operator()(T a) const { return c - a; } };
template <class T> struct sub_scalar_op { T c; __device__ T operator()(T a) const { return a - c; } };
template <class T> struct positive_part_op { __device__ T operator()(T a) const { return a > T(0) ? a : T(0); } };
template <class T> struct sin_op { __device__ T operator()(T a) const { return sin(a); } };
template <class T> struct cos_op { __device__ T operator()(T a) const { return cos(a); } };
template <class R, class T> struct cast_op { __device__ R operator()(T a) const { return static_cast<R>(a); } };
template <class T> struct constant_op { T c; __device__ T operator()(std::size_t) const { return c; } };
/// `pop[:, j]`: gene j of individual i.
template <class G> struct column_op {
  const G* genes;
  std::size_t d;
  int j;
  __device__ G operator()(std::size_t i) const { return genes[i * d + j]; }
};
/// `s + pop[:, j]` with the gene cast to S inside the pass.
template <class S, class G> struct add_column_op {
  const S* s;
  const G* genes;
  std::size_t d;
  int j;
  __device__ S operator()(std::size_t i) const { return s[i] + static_cast<S>(genes[i * d + j]); }
};
template <class F> struct rank_key_op {
  Sense sense;
  constraint_rule rule;
  F weight;
  __device__ rank_key_t<F> operator()(F o, F v) const { return make_rank_key(o, v, sense, rule, weight); }
};
/// Gene k of the population, uniform in [lo, hi] of its column from a hash of k (integers: lo + hash mod width).
template <class G> struct fill_op {
  const G* lo;
  const G* hi;
  std::size_t d;
  std::uint64_t seed;
  __device__ G operator()(std::size_t k) const {
    const std::uint64_t z = detail::splitmix64(seed + detail::splitmix64_gamma * (k + 1));
    const std::size_t j = k % d;
    if constexpr (std::is_integral_v<G>) {
      const auto width = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi[j]) - lo[j] + 1);
      return static_cast<G>(lo[j] + static_cast<std::int64_t>(z % width));
    } else {
      const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
      return static_cast<G>(lo[j] + (hi[j] - lo[j]) * u);
    }
  }
};

/// The NumPy/PyTorch operators of the seed code, each one thrust::transform writing one new temporary.
class eager {
 public:
  eager(device_block_cache& cache, cudaStream_t stream) : cache_(cache), stream_(stream) {}

  /// Kernels enqueued back to back on the stream, no synchronization after each (eager PyTorch's way).
  auto policy() const { return thrust::cuda::par_nosync.on(stream_); }

  template <class R, class T, class Op>
  device_array<R> map(const device_array<T>& a, Op op) {
    device_array<R> out(cache_, a.size());
    thrust::transform(policy(), a.data(), a.data() + a.size(), out.data(), op);
    return out;
  }
  template <class R, class T, class U, class Op>
  device_array<R> zip(const device_array<T>& a, const device_array<U>& b, Op op) {
    device_array<R> out(cache_, a.size());
    thrust::transform(policy(), a.data(), a.data() + a.size(), b.data(), out.data(), op);
    return out;
  }
  /// out[i] = op(i) for i < n.
  template <class R, class Op>
  device_array<R> generate(std::size_t n, Op op) {
    device_array<R> out(cache_, n);
    thrust::transform(policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                      out.data(), op);
    return out;
  }

  template <class T> device_array<T> mul(const device_array<T>& a, const device_array<T>& b) { return zip<T>(a, b, mul_op<T>{}); }
  template <class T> device_array<T> add(const device_array<T>& a, const device_array<T>& b) { return zip<T>(a, b, add_op<T>{}); }
  template <class T> device_array<T> sub(const device_array<T>& a, const device_array<T>& b) { return zip<T>(a, b, sub_op<T>{}); }
  template <class T> device_array<T> scale(T c, const device_array<T>& a) { return map<T>(a, scale_op<T>{c}); }
  template <class T> device_array<T> rsub(T c, const device_array<T>& a) { return map<T>(a, rsub_op<T>{c}); }
  template <class T> device_array<T> sub(const device_array<T>& a, T c) { return map<T>(a, sub_scalar_op<T>{c}); }
  template <class T> device_array<T> positive_part(const device_array<T>& a) { return map<T>(a, positive_part_op<T>{}); }
  template <class T> device_array<T> sin(const device_array<T>& a) { return map<T>(a, sin_op<T>{}); }
  template <class T> device_array<T> cos(const device_array<T>& a) { return map<T>(a, cos_op<T>{}); }
  /// `a.to(R)`; a move when the type already matches.
  template <class R, class T>
  device_array<R> astype(device_array<T>&& a) {
    if constexpr (std::is_same_v<R, T>) return std::move(a);
    else return map<R>(a, cast_op<R, T>{});
  }
  template <class T> device_array<T> zeros(std::size_t n) { return generate<T>(n, constant_op<T>{T(0)}); }
  template <class G> device_array<G> column(const G* genes, std::size_t n, std::size_t d, int j) {
    return generate<G>(n, column_op<G>{genes, d, j});
  }
  template <class S, class G>
  device_array<S> add_column(const device_array<S>& s, const G* genes, std::size_t d, int j) {
    return generate<S>(s.size(), add_column_op<S, G>{s.data(), genes, d, j});
  }

 private:
  device_block_cache& cache_;
  cudaStream_t stream_;
};

/// Objective and total violation of N individuals in the fitness type (the rank key is computed from them).
template <class F>
struct eager_result {
  device_array<F> objective, violation;
};

/// The seed problems' eager evaluations (bench/unfused_seed.hpp's operation lists).
template <class Real>
eager_result<Real> evaluate(eager& t, const problems::ConstrainedQuadratic<Real>&, const Real* genes, std::size_t n) {
  const auto x = t.column(genes, n, 3, 0), y = t.column(genes, n, 3, 1), z = t.column(genes, n, 3, 2);
  auto f = t.sub(t.add(t.add(t.add(t.mul(x, x), t.mul(t.scale(Real(2), y), y)), t.mul(t.scale(Real(3), z), z)),
                       t.mul(t.scale(Real(4), x), y)),
                 t.mul(t.scale(Real(5), y), z));
  const auto g0 = t.rsub(Real(3), t.add(t.add(x, y), z));
  const auto g1 = t.sub(t.add(t.mul(x, x), t.mul(z, z)), Real(10));
  auto v = t.add(t.positive_part(g0), t.positive_part(g1));
  return {std::move(f), std::move(v)};
}

template <class Real>
eager_result<Real> evaluate(eager& t, const problems::TrigConstrained<Real>&, const Real* genes, std::size_t n) {
  const auto x = t.column(genes, n, 3, 0), y = t.column(genes, n, 3, 1), z = t.column(genes, n, 3, 2);
  auto f = t.add(t.add(t.sub(t.add(t.sin(x), t.mul(x, x)), t.scale(Real(2), t.cos(y))), t.mul(y, y)), t.mul(z, z));
  const auto g0 = t.rsub(Real(1), t.add(x, z));
  const auto g1 = t.rsub(Real(0.5), t.add(t.cos(y), z));
  auto v = t.add(t.positive_part(g0), t.positive_part(g1));
  return {std::move(f), std::move(v)};
}

template <class Fitness>
eager_result<Fitness> evaluate(eager& t, const problems::GeneSum<Fitness>& p, const std::int8_t* genes, std::size_t n) {
  auto s = t.zeros<std::int64_t>(n);
  for (int j = 0; j < p.genes; ++j) s = t.add_column(s, genes, static_cast<std::size_t>(p.genes), j);
  return {t.astype<Fitness>(std::move(s)), t.zeros<Fitness>(n)};
}

template <class Problem>
class unfused_thrust_target final : public cuda_unfused_target {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;

  unfused_thrust_target(const Problem& p, const constraint_options& c) : problem_(p), constraints_(c) {
    FUSEDGA_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~unfused_thrust_target() override {
    release();
    cudaStreamDestroy(stream_);
  }

  void prepare(std::size_t population) override {
    release();
    const std::size_t d = static_cast<std::size_t>(problem_.dimension());
    std::size_t free_bytes = 0, total_bytes = 0;
    FUSEDGA_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    // Genes, then at most about 16 live temporaries of N 8-byte elements (the constrained quadratic's peak).
    const double need = static_cast<double>(population) * (static_cast<double>(d * sizeof(gene)) + 16.0 * 8.0);
    if (need > 0.9 * static_cast<double>(free_bytes))
      throw config_error("ga-bench: the GPU unfused tier needs about " + std::to_string(need / 1e9) +
                         " GB of device memory at N = " + std::to_string(population) + ", " +
                         std::to_string(free_bytes / 1e9) + " GB are free");
    n_ = population;
    genes_ = detail::device_buffer<gene>(n_ * d);
    const auto b = problem_.bounds();
    detail::device_buffer<gene> lo(d), hi(d);
    FUSEDGA_CUDA_TRY(cudaMemcpy(lo.data(), b.lower.data(), d * sizeof(gene), cudaMemcpyHostToDevice));
    FUSEDGA_CUDA_TRY(cudaMemcpy(hi.data(), b.upper.data(), d * sizeof(gene), cudaMemcpyHostToDevice));
    thrust::transform(thrust::cuda::par.on(stream_), thrust::counting_iterator<std::size_t>(0),
                      thrust::counting_iterator<std::size_t>(n_ * d), genes_.data(),
                      fill_op<gene>{lo.data(), hi.data(), d, 42});
    FUSEDGA_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  double time_once() override {
    if (!genes_.data()) throw error("ga-bench: prepare() was not called");
    objective_.reset();
    violation_.reset();
    key_.reset();  // the previous call's arrays go back to the cache first, as Python rebinding frees them
    eager t(cache_, stream_);
    start_.record(stream_);
    eager_result<fitness> r = evaluate(t, problem_, genes_.data(), n_);
    auto key = t.zip<rank_key_t<fitness>>(
        r.objective, r.violation,
        rank_key_op<fitness>{sense_of<Problem>(), constraints_.rule, static_cast<fitness>(constraints_.penalty_weight)});
    stop_.record(stream_);
    const double seconds = static_cast<double>(stop_.since(start_)) * 1e-3;
    objective_.emplace(std::move(r.objective));
    violation_.emplace(std::move(r.violation));
    key_.emplace(std::move(key));
    return seconds;
  }

  double difference_from_host() const override {
    if (!objective_) throw error("ga-bench: no GPU unfused result to compare");
    const std::size_t d = static_cast<std::size_t>(problem_.dimension());
    std::vector<gene> genes(n_ * d);
    std::vector<fitness> objective(n_), violation(n_);
    FUSEDGA_CUDA_TRY(cudaMemcpy(genes.data(), genes_.data(), genes.size() * sizeof(gene), cudaMemcpyDeviceToHost));
    FUSEDGA_CUDA_TRY(cudaMemcpy(objective.data(), objective_->data(), n_ * sizeof(fitness), cudaMemcpyDeviceToHost));
    FUSEDGA_CUDA_TRY(cudaMemcpy(violation.data(), violation_->data(), n_ * sizeof(fitness), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const gene* row = genes.data() + i * d;
      fitness v = 0;
      if constexpr (detail::has_inequalities<Problem>::value) {
        auto sink = inequality_sink(&v);
        problem_.inequalities(row, sink);
      }
      worst = std::max(worst, detail::relative_difference(objective[i], static_cast<fitness>(problem_.objective(row))));
      worst = std::max(worst, detail::relative_difference(violation[i], v));
    }
    return worst;
  }

 private:
  void release() {
    objective_.reset();
    violation_.reset();
    key_.reset();
    genes_.reset();
    cache_.clear();
  }

  Problem problem_;
  constraint_options constraints_;
  cudaStream_t stream_ = nullptr;
  std::size_t n_ = 0;
  detail::device_buffer<gene> genes_;
  device_block_cache cache_;  // declared before the results: they give their blocks back to it
  std::optional<device_array<fitness>> objective_, violation_;
  std::optional<device_array<rank_key_t<fitness>>> key_;
  detail::cuda_event start_, stop_;
};

/// The target of the problem `make` builds (registry/problem_families.hpp) in precision `Real`.
template <class Real, class Make>
std::unique_ptr<cuda_unfused_target> make_target(const Make& make, const run_config& cfg) {
  auto problem = make(detail::real_tag<Real>{}, cfg.problem.params);
  return std::make_unique<unfused_thrust_target<decltype(problem)>>(problem, cfg.ga.constraints);
}

/// seed_problems' `add`: the target of `cfg`'s problem when `name` is it (every seed problem has an eager
/// `evaluate` above).
struct unfused_adder {
  const run_config& cfg;
  std::unique_ptr<cuda_unfused_target>& out;
  template <class Make>
  void operator()(const std::string& name, const std::string&, const std::vector<param_spec>&, bool, Make make) const {
    if (name != cfg.problem.builtin) return;
    out = cfg.precision == precision_kind::float32 ? make_target<float>(make, cfg) : make_target<double>(make, cfg);
  }
};

}  // namespace

namespace detail {

std::unique_ptr<cuda_unfused_target> make_cuda_unfused_target(const run_config& cfg) {
  std::unique_ptr<cuda_unfused_target> out;
  seed_problems(unfused_adder{cfg, out});
  return out;
}

}  // namespace detail
}  // namespace fusedga
