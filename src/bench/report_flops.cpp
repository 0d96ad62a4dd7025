#include "bench/report_flops.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

namespace fusedga {

flops_estimate builtin_flops_per_evaluation(const std::string& problem, int dimension) {
  const double d = dimension;
  const double t = transcendental_flops;
  // Counted from the objective and constraints as written, plus the violation sum.
  if (problem == "seed/constrained-quadratic")
    return {24, "objective 13 (9 multiplications, 4 additions), constraints 7, violation 4"};
  if (problem == "seed/trig-constrained")
    return {16 + 3 * t, fmt::format("objective 8 + sin + cos, constraints 4 + cos, violation 4; a sin/cos counts {:g}", t)};
  if (problem == "seed/gene-sum") return {d, "d integer additions of int8 genes"};
  if (problem == "classic/sphere") return {2 * d, "d multiplications and d additions"};
  if (problem == "classic/rastrigin")
    return {d * (5 + t) + 1, fmt::format("per gene 5 + one cos; a cos counts {:g}", t)};
  if (problem == "classic/rosenbrock") return {8 * (d - 1), "8 per consecutive pair of genes"};
  if (problem == "classic/ackley")
    return {d * (4 + t) + 9 + 2 * t, fmt::format("per gene 4 + one cos, then 9 + two exp; a cos/exp counts {:g}", t)};
  return {};
}

namespace {

using expr::node;
using expr::node_kind;

/// Multiplications of x^n by binary exponentiation, plus a division for n < 0.
double integer_power_flops(long n) {
  const unsigned long m = static_cast<unsigned long>(std::labs(n));
  if (m <= 1) return n < 0 ? 1 : 0;
  int bits = 0, ones = 0;
  for (unsigned long v = m; v; v >>= 1) {
    ++bits;
    ones += static_cast<int>(v & 1);
  }
  return (bits - 1) + (ones - 1) + (n < 0 ? 1 : 0);
}

class counter {
 public:
  explicit counter(const expr::program& p) : p_(p), index_(static_cast<std::size_t>(p.max_reduction_depth) + 1, 0) {}

  /// Operations of node `id`; false from `ok()` once the visit budget is spent.
  double count(int id) {
    if (id < 0 || !ok()) return 0;
    ++visits_;
    const node& n = p_.nodes[static_cast<std::size_t>(id)];
    switch (n.kind) {
      case node_kind::number:
      case node_kind::gene:  // its index is integer work
      case node_kind::index_var: return 0;
      case node_kind::negate: return 1 + count(n.a);
      case node_kind::add:
      case node_kind::subtract:
      case node_kind::multiply:
      case node_kind::divide: return 1 + count(n.a) + count(n.b);
      case node_kind::power: {
        const node& e = p_.nodes[static_cast<std::size_t>(n.b)];
        if (e.kind == node_kind::number && e.value == std::floor(e.value) && std::fabs(e.value) <= 1 << 20)
          return count(n.a) + integer_power_flops(static_cast<long>(e.value));
        return transcendental_flops + count(n.a) + count(n.b);
      }
      case node_kind::call: return function_flops(n.fn) + count(n.a) + count(n.b);
      case node_kind::lookup: return 2 + count(n.a);  // the rounding e + 0.5 and floor; the load is no flop
      case node_kind::reduce: {
        const long lo = integer(n.a), hi = integer(n.b);
        double total = 0;
        for (long i = lo; i <= hi && ok(); ++i) {
          index_[static_cast<std::size_t>(n.slot)] = i;
          total += 1 + count(n.c);
        }
        return total;
      }
    }
    return 0;
  }

  bool ok() const { return visits_ <= max_visits; }

 private:
  static constexpr std::uint64_t max_visits = 100000000;

  static double function_flops(expr::function f) {
    using expr::function;
    switch (f) {
      case function::sqrt:
      case function::abs:
      case function::floor:
      case function::ceil:
      case function::min:
      case function::max: return 1;
      default: return transcendental_flops;
    }
  }

  /// Value of an integer expression (the checker allows literals, index variables, + − × and unary minus).
  long integer(int id) const {
    const node& n = p_.nodes[static_cast<std::size_t>(id)];
    switch (n.kind) {
      case node_kind::number: return static_cast<long>(n.value);
      case node_kind::index_var: return index_[static_cast<std::size_t>(n.slot)];
      case node_kind::negate: return -integer(n.a);
      case node_kind::add: return integer(n.a) + integer(n.b);
      case node_kind::subtract: return integer(n.a) - integer(n.b);
      case node_kind::multiply: return integer(n.a) * integer(n.b);
      default: return 0;  // unreachable for a checked program
    }
  }

  const expr::program& p_;
  std::vector<long> index_;  ///< current value of each reduction depth's index
  std::uint64_t visits_ = 0;
};

}  // namespace

flops_estimate expression_flops_per_evaluation(const expr::program& p) {
  counter c(p);
  const double objective = c.count(p.objective);
  double constraints = 0, violation = 0;
  for (const auto& k : p.constraints) {
    constraints += c.count(k.root);
    violation += k.kind == expr::constraint_kind::inequality ? 2 : 4;
  }
  if (!c.ok()) return {0, "too many operations to count (more than 10^8 AST node visits)"};
  return {objective + constraints + violation,
          fmt::format("counted from the expression AST: objective {:g}, constraints {:g}, violation {:g}; a "
                      "transcendental function counts {:g}",
                      objective, constraints, violation, transcendental_flops)};
}

flops_estimate estimate_flops_per_evaluation(const run_config& cfg, int dimension) {
  if (cfg.problem.expression) return expression_flops_per_evaluation(*cfg.problem.expression);
  return builtin_flops_per_evaluation(cfg.problem.builtin, dimension);
}

}  // namespace fusedga
