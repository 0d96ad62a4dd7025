// Symbolic constraint Jacobians (derivative.hpp): AST → tape (reductions
// unrolled, hash-consed, constants folded) → forward chain rule per gene.
#include "fusedga/expr/derivative.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>

#include "expr/interp_ops.hpp"
#include "expr/tape_ops.hpp"
#include "fusedga/core/bit_cast.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga::expr {

std::vector<bool> jacobian_tape::live() const {
  std::vector<bool> used(entries.size(), false);
  for (int id : constraint) used[static_cast<std::size_t>(id)] = true;
  for (int id : jacobian)
    if (id >= 0) used[static_cast<std::size_t>(id)] = true;
  for (std::size_t i = entries.size(); i-- > 0;) {
    if (!used[i]) continue;
    const tape_entry& t = entries[i];
    const int n = detail::tape_arity(t.op);
    const int ops[4] = {t.a, t.b, t.c, t.e};
    for (int k = 0; k < n; ++k) used[static_cast<std::size_t>(ops[k])] = true;
  }
  return used;
}

namespace {

constexpr int kZero = -1;  // a derivative that is identically zero

struct entry_key {
  tape_op op;
  int a, b, c, e;
  std::uint64_t bits;
  bool operator==(const entry_key& o) const {
    return op == o.op && a == o.a && b == o.b && c == o.c && e == o.e && bits == o.bits;
  }
};
struct entry_hash {
  std::size_t operator()(const entry_key& k) const {
    std::uint64_t h = static_cast<std::uint64_t>(k.op) * 0x9E3779B97F4A7C15ull;
    for (std::uint64_t v : {std::uint64_t(std::uint32_t(k.a)), std::uint64_t(std::uint32_t(k.b)),
                            std::uint64_t(std::uint32_t(k.c)), std::uint64_t(std::uint32_t(k.e)), k.bits})
      h = (h ^ v) * 0x100000001B3ull + (h >> 29);
    return static_cast<std::size_t>(h);
  }
};

/// Builds the tape: every operation goes through `make`, which folds constants, applies the 0/1 rules and shares
/// identical entries.
class tape_builder {
 public:
  tape_builder(jacobian_tape& t, std::size_t max_entries) : t_(t), max_(max_entries) {}

  int constant(double v) { return intern({tape_op::constant, -1, -1, -1, -1, v}); }
  int gene(int j) { return intern({tape_op::gene, j, -1, -1, -1, 0}); }
  bool is_const(int id, double v) const {
    const tape_entry& t = at(id);
    return t.op == tape_op::constant && (t.value == v);
  }
  bool is_const(int id) const { return at(id).op == tape_op::constant; }
  double value(int id) const { return at(id).value; }

  int make(tape_op op, int a, int b = -1, int c = -1, int e = -1, double value = 0) {
    const int n = detail::tape_arity(op);
    const int ops[4] = {a, b, c, e};
    bool all_const = true;
    for (int k = 0; k < n; ++k) all_const = all_const && is_const(ops[k]);
    if (all_const && n > 0) {
      double v[4] = {0, 0, 0, 0};
      for (int k = 0; k < n; ++k) v[k] = at(ops[k]).value;
      return constant(detail::apply_tape<double>({op, a, b, c, e, value}, v[0], v[1], v[2], v[3], t_.tables));
    }
    switch (op) {
      case tape_op::neg:
        if (at(a).op == tape_op::neg) return at(a).a;
        break;
      case tape_op::add:
        if (is_const(a, 0)) return b;
        if (is_const(b, 0)) return a;
        if (at(b).op == tape_op::neg) return make(tape_op::sub, a, at(b).a);
        break;
      case tape_op::sub:
        if (is_const(b, 0)) return a;
        if (is_const(a, 0)) return make(tape_op::neg, b);
        if (a == b) return constant(0);
        if (at(b).op == tape_op::neg) return make(tape_op::add, a, at(b).a);
        break;
      case tape_op::mul:
        if (is_const(a, 0) || is_const(b, 0)) return constant(0);
        if (is_const(a, 1)) return b;
        if (is_const(b, 1)) return a;
        if (is_const(a, -1)) return make(tape_op::neg, b);
        if (is_const(b, -1)) return make(tape_op::neg, a);
        if (is_const(b) && !is_const(a)) std::swap(a, b);  // constants first: more sharing
        break;
      case tape_op::div:
        if (is_const(b, 1)) return a;
        if (is_const(a, 0)) return constant(0);
        break;
      case tape_op::powi:
        if (value == 1) return a;
        if (value == 0) return constant(1);
        break;
      case tape_op::select_min:
      case tape_op::select_max:
        if (c == e) return c;
        break;
      default: break;
    }
    return intern({op, a, b, c, e, value});
  }

  const tape_entry& at(int id) const { return t_.entries[static_cast<std::size_t>(id)]; }
  std::size_t size() const { return t_.entries.size(); }

 private:
  int intern(const tape_entry& t) {
    const entry_key k{t.op, t.a, t.b, t.c, t.e, bit_cast<std::uint64_t>(t.value)};
    if (const auto it = memo_.find(k); it != memo_.end()) return it->second;
    if (t_.entries.size() >= max_)
      throw error("Jacobian: the constraints need more than " + std::to_string(max_) +
                  " operations once reductions are unrolled");
    const int id = static_cast<int>(t_.entries.size());
    t_.entries.push_back(t);
    memo_.emplace(k, id);
    return id;
  }

  jacobian_tape& t_;
  std::size_t max_;
  std::unordered_map<entry_key, int, entry_hash> memo_;
};

/// AST → tape, with reductions unrolled under the current index values.
class lowering {
 public:
  lowering(const program& p, tape_builder& b) : p_(p), b_(b), index_(static_cast<std::size_t>(p.max_reduction_depth) + 1, 0) {}

  int lower(int id) {
    const node& n = at(id);
    switch (n.kind) {
      case node_kind::number: return b_.constant(n.value);
      case node_kind::index_var: return b_.constant(static_cast<double>(index_[static_cast<std::size_t>(n.slot)]));
      case node_kind::gene: return b_.gene(n.slot + (n.a < 0 ? 0 : static_cast<int>(integer(n.a))));
      case node_kind::negate: return b_.make(tape_op::neg, lower(n.a));
      case node_kind::add: return b_.make(tape_op::add, lower(n.a), lower(n.b));
      case node_kind::subtract: return b_.make(tape_op::sub, lower(n.a), lower(n.b));
      case node_kind::multiply: return b_.make(tape_op::mul, lower(n.a), lower(n.b));
      case node_kind::divide: return b_.make(tape_op::div, lower(n.a), lower(n.b));
      case node_kind::power: return power(lower(n.a), lower(n.b));
      case node_kind::call: return call(n);
      case node_kind::reduce: return reduce(n);
      case node_kind::lookup: return b_.make(tape_op::lookup, lower(n.a), -1, -1, -1, n.slot);
    }
    throw error("Jacobian: unknown node kind");
  }

 private:
  const node& at(int id) const { return p_.nodes.at(static_cast<std::size_t>(id)); }

  /// Value of an integer expression (literals, index variables, + − · and unary minus) under the current indices.
  long long integer(int id) const {
    const node& n = at(id);
    switch (n.kind) {
      case node_kind::number: return static_cast<long long>(n.value);
      case node_kind::index_var: return index_[static_cast<std::size_t>(n.slot)];
      case node_kind::negate: return -integer(n.a);
      case node_kind::add: return integer(n.a) + integer(n.b);
      case node_kind::subtract: return integer(n.a) - integer(n.b);
      case node_kind::multiply: return integer(n.a) * integer(n.b);
      default: throw error("Jacobian: a non-integer index expression (the checker admits none)");
    }
  }

  /// The interpreter's power rules: literal integer exponents |n| <= max_integer_power by multiplication,
  /// 0.5 as sqrt.
  int power(int a, int b) {
    if (b_.is_const(b)) {
      const double n = b_.value(b);
      if (n == std::floor(n) && std::abs(n) <= interp::max_integer_power)
        return b_.make(tape_op::powi, a, -1, -1, -1, n);
      if (n == 0.5) return b_.make(tape_op::sqrt, a);
    }
    return b_.make(tape_op::pow, a, b);
  }

  int call(const node& n) {
    const int a = lower(n.a);
    switch (n.fn) {
      case function::sin: return b_.make(tape_op::sin, a);
      case function::cos: return b_.make(tape_op::cos, a);
      case function::tan: return b_.make(tape_op::tan, a);
      case function::asin: return b_.make(tape_op::asin, a);
      case function::acos: return b_.make(tape_op::acos, a);
      case function::atan: return b_.make(tape_op::atan, a);
      case function::exp: return b_.make(tape_op::exp, a);
      case function::log: return b_.make(tape_op::log, a);
      case function::log10: return b_.make(tape_op::log10, a);
      case function::sqrt: return b_.make(tape_op::sqrt, a);
      case function::abs: return b_.make(tape_op::abs, a);
      case function::floor: return b_.make(tape_op::floor, a);
      case function::ceil: return b_.make(tape_op::ceil, a);
      case function::min: return b_.make(tape_op::min, a, lower(n.b));
      case function::max: return b_.make(tape_op::max, a, lower(n.b));
      case function::atan2: return b_.make(tape_op::atan2, a, lower(n.b));
    }
    throw error("Jacobian: unknown function");
  }

  int reduce(const node& n) {
    const long long lo = integer(n.a), hi = integer(n.b);
    const double inf = std::numeric_limits<double>::infinity();
    tape_op op = tape_op::add;
    double init = 0;
    switch (n.red) {
      case reduction::sum: op = tape_op::add; init = 0; break;
      case reduction::prod: op = tape_op::mul; init = 1; break;
      case reduction::min: op = tape_op::min; init = inf; break;
      case reduction::max: op = tape_op::max; init = -inf; break;
    }
    int acc = b_.constant(init);
    long long& i = index_[static_cast<std::size_t>(n.slot)];
    const long long saved = i;
    for (long long k = lo; k <= hi; ++k) {
      i = k;
      acc = b_.make(op, acc, lower(n.c));
    }
    i = saved;
    return acc;
  }

  const program& p_;
  tape_builder& b_;
  std::vector<long long> index_;
};

/// Forward-mode chain rule over the primal entries [0, primal) for gene j, appending derivative entries.
class differentiator {
 public:
  differentiator(tape_builder& b, int primal, int d) : b_(b), primal_(primal), words_((d + 63) / 64) {
    deps_.assign(static_cast<std::size_t>(primal) * static_cast<std::size_t>(words_), 0);
    for (int i = 0; i < primal; ++i) {
      const tape_entry& t = b_.at(i);
      std::uint64_t* w = row(i);
      if (t.op == tape_op::gene) {
        w[t.a / 64] |= std::uint64_t(1) << (t.a % 64);
        continue;
      }
      const int n = detail::tape_arity(t.op);
      const int ops[4] = {t.a, t.b, t.c, t.e};
      for (int k = 0; k < n; ++k) {
        const std::uint64_t* o = row(ops[k]);
        for (int q = 0; q < words_; ++q) w[q] |= o[q];
      }
    }
    dv_.assign(static_cast<std::size_t>(primal), kZero);
  }

  bool depends(int i, int j) const { return (row(i)[j / 64] >> (j % 64)) & 1u; }

  /// ∂(entry)/∂x_j for every primal entry; the result for entry i is derivative(i) afterwards.
  void sweep(int j) {
    for (int i = 0; i < primal_; ++i) dv_[static_cast<std::size_t>(i)] = depends(i, j) ? rule(i, j) : kZero;
  }
  int derivative(int i) const { return dv_[static_cast<std::size_t>(i)]; }

 private:
  std::uint64_t* row(int i) { return deps_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(words_); }
  const std::uint64_t* row(int i) const {
    return deps_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(words_);
  }
  int d(int i) const { return i < 0 ? kZero : dv_[static_cast<std::size_t>(i)]; }
  int zero_to_entry(int id) { return id == kZero ? b_.constant(0) : id; }
  int norm(int id) const { return id >= 0 && b_.is_const(id, 0) ? kZero : id; }

  int k(double v) { return b_.constant(v); }
  int mul(int u, int v) { return (u == kZero || v == kZero) ? kZero : norm(b_.make(tape_op::mul, u, v)); }
  int divide(int u, int v) { return u == kZero ? kZero : norm(b_.make(tape_op::div, u, v)); }
  int add(int u, int v) { return u == kZero ? v : v == kZero ? u : norm(b_.make(tape_op::add, u, v)); }
  int sub(int u, int v) {
    if (v == kZero) return u;
    if (u == kZero) return norm(b_.make(tape_op::neg, v));
    return norm(b_.make(tape_op::sub, u, v));
  }
  int neg(int u) { return u == kZero ? kZero : norm(b_.make(tape_op::neg, u)); }
  int op(tape_op o, int a, int b = -1) { return b_.make(o, a, b); }
  /// a^(b−1), by the lowering's rules where b is a literal (powi for an integer, sqrt for 1.5).
  int power_less_one(int a, int b) {
    if (!b_.is_const(b)) return op(tape_op::pow, a, op(tape_op::sub, b, k(1)));
    const double n = b_.value(b) - 1;
    if (n == std::floor(n) && std::abs(n) <= interp::max_integer_power) return b_.make(tape_op::powi, a, -1, -1, -1, n);
    if (n == 0.5) return op(tape_op::sqrt, a);
    return op(tape_op::pow, a, k(n));
  }

  int rule(int i, int j) {
    const tape_entry t = b_.at(i);  // copy: make() may grow the tape
    const int a = t.a, b = t.b;
    const int arity = detail::tape_arity(t.op);  // a gene's `a` is its gene number, not an entry
    const int da = arity >= 1 ? d(a) : kZero, db = arity >= 2 ? d(b) : kZero;
    switch (t.op) {
      case tape_op::constant: return kZero;
      case tape_op::gene: return t.a == j ? k(1) : kZero;
      case tape_op::neg: return neg(da);
      case tape_op::add: return add(da, db);
      case tape_op::sub: return sub(da, db);
      case tape_op::mul: return add(mul(da, b), mul(a, db));
      case tape_op::div:  // (a' − (a/b)·b') / b, reusing the entry a/b itself
        return divide(sub(da, mul(i, db)), b);
      case tape_op::powi: {
        const double n = t.value;
        const int p = n == 2 ? a : b_.make(tape_op::powi, a, -1, -1, -1, n - 1);
        return mul(mul(k(n), p), da);
      }
      case tape_op::pow: {  // b·a^(b−1)·a' + a^b·log a·b' (not a^b·b·a'/a: 0·∞ at a = 0, where it is finite)
        const int ta = da == kZero ? kZero : mul(mul(b, power_less_one(a, b)), da);
        const int tb = db == kZero ? kZero : mul(mul(i, op(tape_op::log, a)), db);
        return add(ta, tb);
      }
      case tape_op::sqrt: return divide(da, mul(k(2), i));
      case tape_op::sin: return mul(op(tape_op::cos, a), da);
      case tape_op::cos: return neg(mul(op(tape_op::sin, a), da));
      case tape_op::tan: return mul(add(k(1), mul(i, i)), da);
      case tape_op::asin: return divide(da, op(tape_op::sqrt, op(tape_op::sub, k(1), op(tape_op::mul, a, a))));
      case tape_op::acos: return neg(divide(da, op(tape_op::sqrt, op(tape_op::sub, k(1), op(tape_op::mul, a, a)))));
      case tape_op::atan: return divide(da, op(tape_op::add, k(1), op(tape_op::mul, a, a)));
      case tape_op::exp: return mul(i, da);
      case tape_op::log: return divide(da, a);
      case tape_op::log10: return divide(da, op(tape_op::mul, a, k(2.302585092994045684)));
      case tape_op::abs: return mul(op(tape_op::sign, a), da);
      case tape_op::floor:
      case tape_op::ceil:
      case tape_op::lookup:  // piecewise constant
      case tape_op::sign: return kZero;
      case tape_op::min:
      case tape_op::max: {
        if (da == kZero && db == kZero) return kZero;
        const tape_op s = t.op == tape_op::min ? tape_op::select_min : tape_op::select_max;
        return norm(b_.make(s, a, b, zero_to_entry(da), zero_to_entry(db)));
      }
      case tape_op::atan2: {  // atan2(y, x)' = (x·y' − y·x') / (x² + y²)
        const int den = op(tape_op::add, op(tape_op::mul, b, b), op(tape_op::mul, a, a));
        return divide(sub(mul(b, da), mul(a, db)), den);
      }
      case tape_op::select_min:
      case tape_op::select_max: return kZero;  // only in derivative entries, never differentiated again
    }
    return kZero;
  }

  tape_builder& b_;
  int primal_;
  int words_;
  std::vector<std::uint64_t> deps_;
  std::vector<int> dv_;
};

}  // namespace

jacobian_tape build_jacobian(const program& p, std::size_t max_entries) {
  jacobian_tape t;
  t.dimension = p.dimension();
  for (const table_constant& table : p.tables) t.tables.push_back(table.values);
  tape_builder builder(t, max_entries);
  lowering low(p, builder);
  for (int pass = 0; pass < 2; ++pass) {
    const constraint_kind want = pass == 0 ? constraint_kind::inequality : constraint_kind::equality;
    for (std::size_t k = 0; k < p.constraints.size(); ++k) {
      if (p.constraints[k].kind != want) continue;
      t.constraint.push_back(low.lower(p.constraints[k].root));
      t.source.push_back(static_cast<int>(k));
      (pass == 0 ? t.inequality_count : t.equality_count) += 1;
    }
  }
  const int primal = static_cast<int>(t.entries.size());
  const int d = t.dimension;
  const int m = t.constraint_count();
  t.jacobian.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(d), kZero);
  if (static_cast<double>(primal) * d > 4e8)
    throw error("Jacobian: constraints too large to differentiate symbolically (" + std::to_string(primal) +
                " operations × " + std::to_string(d) + " genes)");
  differentiator diff(builder, primal, d);
  for (int j = 0; j < d; ++j) {
    bool any = false;
    for (int c : t.constraint) any = any || diff.depends(c, j);
    if (!any) continue;
    diff.sweep(j);
    for (int r = 0; r < m; ++r)
      t.jacobian[static_cast<std::size_t>(r) * d + j] = diff.derivative(t.constraint[static_cast<std::size_t>(r)]);
  }
  return t;
}

}  // namespace fusedga::expr
