// The expression interpreter (interpreter.hpp): runs the plan of
// interp_schedule.hpp over chunks of 64 individuals, one tight lane loop per
// instruction, the NumPy way.
#include "fusedga/expr/interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include "expr/interp_ops.hpp"
#include "expr/interp_scalar.hpp"
#include "expr/interp_schedule.hpp"

namespace fusedga::expr {
namespace {

using interp::lanes;
using interp::opcode;
using interp::operand;
using interp::source;

/// Gene rows cached per chunk (direct-mapped on the gene number): a program
/// over up to this many genes reads each gene once per chunk.
constexpr int cache_slots = 32;

/// Scratch of at most this many bytes (a plan of up to about 60 temporaries in double, 150 in float) is an array on
/// the evaluating thread's stack: nothing is allocated when a thread first evaluates, in whatever generation a
/// TBB thread first takes a tile, so a run allocates nothing per generation (the engine's contract;
/// tests/engine/test_allocation.cpp). A TBB worker's stack is 4 MiB, a process's main thread's 8 MiB.
constexpr std::size_t stack_scratch_bytes = 48 * 1024;

/// One thread's scratch memory for larger plans, reused by every interpreter that runs on the
/// thread (evaluate never nests), grown to the largest plan seen.
void* thread_scratch(std::size_t bytes) {
  struct block {
    void* p = nullptr;
    std::size_t size = 0;
    ~block() { ::operator delete(p, std::align_val_t(64)); }
  };
  thread_local block b;
  if (bytes > b.size) {
    ::operator delete(b.p, std::align_val_t(64));
    b.p = nullptr;
    b.size = 0;
    b.p = ::operator new(bytes, std::align_val_t(64));
    b.size = bytes;
  }
  return b.p;
}

// Lane loops: fixed trip count, restrict-qualified (destinations are never
// inputs, see interp_schedule.cpp), one instantiation per functor.
template <class Real, class F>
void map1(Real* FUSEDGA_RESTRICT d, const Real* FUSEDGA_RESTRICT x, F f) {
  for (int l = 0; l < lanes; ++l) d[l] = f(x[l]);
}
template <class Real, class F>
void map2(Real* FUSEDGA_RESTRICT d, const Real* FUSEDGA_RESTRICT x, const Real* FUSEDGA_RESTRICT y, F f) {
  for (int l = 0; l < lanes; ++l) d[l] = f(x[l], y[l]);
}
template <class Real, class F>
void map2(Real* FUSEDGA_RESTRICT d, const Real* FUSEDGA_RESTRICT x, Real y, F f) {
  for (int l = 0; l < lanes; ++l) d[l] = f(x[l], y);
}
template <class Real, class F>
void map2(Real* FUSEDGA_RESTRICT d, Real x, const Real* FUSEDGA_RESTRICT y, F f) {
  for (int l = 0; l < lanes; ++l) d[l] = f(x, y[l]);
}

template <class Real>
void power_integer(Real* FUSEDGA_RESTRICT d, const Real* FUSEDGA_RESTRICT x, int n) {
  const int m = n < 0 ? -n : n;
  if (m == 0) {
    for (int l = 0; l < lanes; ++l) d[l] = Real(1);
    return;
  }
  // Same rounding as interp::power_integer: ((x·x)·x)···x, one product per pass.
  if (m == 1)
    for (int l = 0; l < lanes; ++l) d[l] = x[l];
  else
    for (int l = 0; l < lanes; ++l) d[l] = x[l] * x[l];
  for (int k = 2; k < m; ++k)
    for (int l = 0; l < lanes; ++l) d[l] = d[l] * x[l];
  if (n < 0)
    for (int l = 0; l < lanes; ++l) d[l] = Real(1) / d[l];
}

struct square_fn {
  template <class R>
  FUSEDGA_INLINE R operator()(R a) const { return a * a; }
};

/// An element-wise instruction's lane loop: d = op(x or xs, y or ys), or d = x^n.
template <class Real>
using kernel = void (*)(Real* d, const Real* x, const Real* y, Real xs, Real ys, int n);

template <class Real, class F>
void unary_kernel(Real* d, const Real* x, const Real*, Real, Real, int) { map1(d, x, F{}); }
template <class Real, class F>
void lanes_lanes_kernel(Real* d, const Real* x, const Real* y, Real, Real, int) { map2(d, x, y, F{}); }
template <class Real, class F>
void lanes_scalar_kernel(Real* d, const Real* x, const Real*, Real, Real ys, int) { map2(d, x, ys, F{}); }
template <class Real, class F>
void scalar_lanes_kernel(Real* d, const Real*, const Real* y, Real xs, Real, int) { map2(d, xs, y, F{}); }
template <class Real>
void power_kernel(Real* d, const Real* x, const Real*, Real, Real, int n) { power_integer(d, x, n); }

/// The kernel of an element-wise instruction, nullptr for the others.
template <class Real>
kernel<Real> kernel_of(const interp::instruction<Real>& in) {
  switch (in.code) {
    case opcode::unary:
      return interp::visit(in.un, [](auto f) -> kernel<Real> { return &unary_kernel<Real, decltype(f)>; });
    case opcode::binary:
      if (!in.x.varying())
        return interp::visit(in.bin, [](auto f) -> kernel<Real> { return &scalar_lanes_kernel<Real, decltype(f)>; });
      if (!in.y.varying())
        return interp::visit(in.bin, [](auto f) -> kernel<Real> { return &lanes_scalar_kernel<Real, decltype(f)>; });
      return interp::visit(in.bin, [](auto f) -> kernel<Real> { return &lanes_lanes_kernel<Real, decltype(f)>; });
    case opcode::power_integer:  // x^2, the common case, without power_kernel's multi-pass set-up
      return in.n == 2 ? &unary_kernel<Real, square_fn> : &power_kernel<Real>;
    default: return nullptr;
  }
}

template <class Real>
void accumulate(reduction red, Real* FUSEDGA_RESTRICT acc, const Real* FUSEDGA_RESTRICT v) {
  switch (red) {
    case reduction::sum:
      for (int l = 0; l < lanes; ++l) acc[l] = acc[l] + v[l];
      break;
    case reduction::prod:
      for (int l = 0; l < lanes; ++l) acc[l] = acc[l] * v[l];
      break;
    case reduction::min:
      for (int l = 0; l < lanes; ++l) acc[l] = interp::min2(acc[l], v[l]);
      break;
    case reduction::max:
      for (int l = 0; l < lanes; ++l) acc[l] = interp::max2(acc[l], v[l]);
      break;
  }
}

template <class Real>
Real identity(reduction red) {
  switch (red) {
    case reduction::sum: return Real(0);
    case reduction::prod: return Real(1);
    case reduction::min: return std::numeric_limits<Real>::infinity();
    case reduction::max: break;
  }
  return -std::numeric_limits<Real>::infinity();
}

/// One chunk of up to 64 individuals in flight, with its thread's scratch.
template <class Real>
struct chunk {
  const Real* genes;  // individual 0 of the chunk
  std::ptrdiff_t lane_stride, gene_stride;
  int count;          // valid lanes, 1..64; lanes past it compute on copies of lane 0
  bool direct;        // genes are contiguous per gene (SoA, full chunk): read in place
  Real* buffers;      // temporaries, `lanes` each
  Real* cache;        // cache_slots gene rows
  Real* spare;        // one gene row for a cache conflict within an instruction
  Real* violation;    // lanes
  int* tags;          // gene held by each cache slot, -1 = none
  int* idx;           // current index variable values by depth
};

template <class Real>
class interpreter final : public evaluator<Real> {
 public:
  explicit interpreter(const program& p) : p_(p), s_(interp::make_schedule<Real>(p_)) {
    for (const interp::instruction<Real>& in : s_.code) kernels_.push_back(kernel_of(in));
    const std::size_t reals = static_cast<std::size_t>(s_.buffers + cache_slots + 2) * lanes;
    ints_offset_ = reals * sizeof(Real);
    scratch_bytes_ = ints_offset_ + static_cast<std::size_t>(cache_slots + s_.depth + 1) * sizeof(int);
  }

  void evaluate(const Real* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, Real eps,
                Real* objective, Real* violation) const override {
    if (count <= 0) return;
    if (scratch_bytes_ <= stack_scratch_bytes) {
      alignas(64) unsigned char stack[stack_scratch_bytes];
      evaluate_in(stack, genes, lane_stride, gene_stride, count, eps, objective, violation);
    } else {
      evaluate_in(static_cast<unsigned char*>(thread_scratch(scratch_bytes_)), genes, lane_stride, gene_stride,
                  count, eps, objective, violation);
    }
  }

 private:
  /// evaluate with `mem` (scratch_bytes_, 64-byte aligned) as its scratch.
  void evaluate_in(unsigned char* mem, const Real* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride,
                   int count, Real eps, Real* objective, Real* violation) const {
    chunk<Real> c;
    c.lane_stride = lane_stride;
    c.gene_stride = gene_stride;
    c.buffers = reinterpret_cast<Real*>(mem);
    c.cache = c.buffers + static_cast<std::size_t>(s_.buffers) * lanes;
    c.spare = c.cache + cache_slots * lanes;
    c.violation = c.spare + lanes;
    c.tags = reinterpret_cast<int*>(mem + ints_offset_);
    c.idx = c.tags + cache_slots;
    for (int base = 0; base < count; base += lanes) {
      c.genes = genes + base * lane_stride;
      c.count = std::min(lanes, count - base);
      c.direct = lane_stride == 1 && c.count == lanes;
      std::fill(c.tags, c.tags + cache_slots, -1);
      std::fill(c.violation, c.violation + lanes, Real(0));
      run(0, static_cast<int>(s_.code.size()), c, eps, objective + base);
      std::copy(c.violation, c.violation + c.count, violation + base);
    }
  }

  void run(int begin, int end, chunk<Real>& c, Real eps, Real* objective) const {
    for (int pc = begin; pc < end; ++pc) {
      const interp::instruction<Real>& in = s_.code[static_cast<std::size_t>(pc)];
      Real* d = in.dst >= 0 ? c.buffers + static_cast<std::size_t>(in.dst) * lanes : nullptr;
      if (const kernel<Real> k = kernels_[static_cast<std::size_t>(pc)]) {  // the common case: one indirect call
        const Real *x = nullptr, *y = nullptr;
        Real xs = 0, ys = 0;
        int slot = -1;
        if (in.x.varying()) x = lane_values(in.x, c, -1, &slot);
        else xs = scalar(in.x, c);
        if (in.y.varying()) y = lane_values(in.y, c, slot);  // must not evict x's cache row
        else if (in.code == opcode::binary) ys = scalar(in.y, c);
        k(d, x, y, xs, ys, in.n);
        continue;
      }
      switch (in.code) {
        case opcode::unary:
        case opcode::binary:
        case opcode::power_integer: break;  // kernels above
        case opcode::broadcast: std::fill(d, d + lanes, scalar(in.x, c)); break;
        case opcode::lookup: {
          const std::vector<double>& t = p_.tables[static_cast<std::size_t>(in.n)].values;
          const Real* FUSEDGA_RESTRICT x = lane_values(in.x, c, -1);
          for (int l = 0; l < lanes; ++l) d[l] = jit_lookup(t.data(), static_cast<int>(t.size()), x[l]);
          break;
        }
        case opcode::reduce: {
          const int lo = interp::integer_value(p_, in.lo, c.idx), hi = interp::integer_value(p_, in.hi, c.idx);
          std::fill(d, d + lanes, identity<Real>(in.red));
          for (int k = lo; k <= hi; ++k) {
            c.idx[in.n] = k;
            run(pc + 1, in.end, c, eps, objective);
            accumulate(in.red, d, lane_values(in.x, c, -1));
          }
          pc = in.end - 1;
          break;
        }
        case opcode::store_objective: {
          const Real* x = lane_values(in.x, c, -1);
          std::copy(x, x + c.count, objective);
          break;
        }
        case opcode::add_inequality: {
          const Real* FUSEDGA_RESTRICT g = lane_values(in.x, c, -1);
          Real* FUSEDGA_RESTRICT v = c.violation;
          for (int l = 0; l < lanes; ++l) {
            const Real excess = g[l];
            v[l] += excess <= Real(0) ? Real(0) : excess;  // NaN propagates (constraint_sink.hpp)
          }
          break;
        }
        case opcode::add_equality: {
          const Real* FUSEDGA_RESTRICT h = lane_values(in.x, c, -1);
          Real* FUSEDGA_RESTRICT v = c.violation;
          for (int l = 0; l < lanes; ++l) {
            const Real excess = std::abs(h[l]) - eps;
            v[l] += excess <= Real(0) ? Real(0) : excess;
          }
          break;
        }
      }
    }
  }

  Real scalar(const operand<Real>& o, chunk<Real>& c) const {
    return o.from == source::constant ? o.value : interp::uniform_value<Real>(p_, o.index, c.idx);
  }

  /// The lanes of a varying operand. A gene row comes from the chunk cache,
  /// filled on first use; `keep` is a cache slot that must not be evicted
  /// (the other input of the same instruction), `slot` receives the slot used.
  const Real* lane_values(const operand<Real>& o, chunk<Real>& c, int keep, int* slot = nullptr) const {
    int j = o.index;
    switch (o.from) {
      case source::buffer: return c.buffers + static_cast<std::size_t>(o.index) * lanes;
      case source::indexed_gene: {
        const node& n = p_.nodes[static_cast<std::size_t>(o.index)];
        j = n.slot + interp::integer_value(p_, n.a, c.idx);
        break;
      }
      default: break;  // gene
    }
    const Real* column = c.genes + j * c.gene_stride;
    if (c.direct) return column;
    const int s = j % cache_slots;
    Real* row = c.cache + s * lanes;
    if (c.tags[s] == j) {
      if (slot) *slot = s;
      return row;
    }
    if (s == keep) {
      row = c.spare;
    } else {
      c.tags[s] = j;
      if (slot) *slot = s;
    }
    gather(row, column, c);
    return row;
  }

  static void gather(Real* FUSEDGA_RESTRICT row, const Real* FUSEDGA_RESTRICT column, const chunk<Real>& c) {
    const std::ptrdiff_t ls = c.lane_stride;
    if (c.count == lanes) {
      for (int l = 0; l < lanes; ++l) row[l] = column[l * ls];
    } else {
      for (int l = 0; l < c.count; ++l) row[l] = column[l * ls];
      std::fill(row + c.count, row + lanes, column[0]);  // spare lanes: in-domain values, results discarded
    }
  }

  const program p_;
  const interp::schedule<Real> s_;
  std::vector<kernel<Real>> kernels_;  // per instruction, nullptr where run() handles it inline
  std::size_t ints_offset_ = 0, scratch_bytes_ = 0;
};

}  // namespace

template <class Real>
std::unique_ptr<evaluator<Real>> make_interpreter(const program& p) {
  return std::make_unique<interpreter<Real>>(p);
}

template std::unique_ptr<evaluator<float>> make_interpreter<float>(const program&);
template std::unique_ptr<evaluator<double>> make_interpreter<double>(const program&);

}  // namespace fusedga::expr
