// The reference evaluator (interpreter.hpp): the obvious recursive reading of
// the AST, one individual, in double. Deliberately shares no code with the
// interpreter, which tests check against it.
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "fusedga/expr/interpreter.hpp"

namespace fusedga::expr {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// min/max: NaN if either argument is NaN (the interpreter's documented semantics).
double minimum(double a, double b) { return std::isnan(a) || std::isnan(b) ? not_a_number : std::fmin(a, b); }
double maximum(double a, double b) { return std::isnan(a) || std::isnan(b) ? not_a_number : std::fmax(a, b); }

struct reference {
  const program& p;
  const double* x;
  std::vector<long long> index;  // current value of each reduction's index variable, by depth

  double operator()(int i) {
    const node& n = p.nodes[static_cast<std::size_t>(i)];
    switch (n.kind) {
      case node_kind::number: return n.value;
      case node_kind::gene: return x[n.slot + (n.a < 0 ? 0 : std::llround((*this)(n.a)))];
      case node_kind::index_var: return static_cast<double>(index[static_cast<std::size_t>(n.slot)]);
      case node_kind::negate: return -(*this)(n.a);
      case node_kind::add: return (*this)(n.a) + (*this)(n.b);
      case node_kind::subtract: return (*this)(n.a) - (*this)(n.b);
      case node_kind::multiply: return (*this)(n.a) * (*this)(n.b);
      case node_kind::divide: return (*this)(n.a) / (*this)(n.b);
      case node_kind::power: return std::pow((*this)(n.a), (*this)(n.b));
      case node_kind::call: return call(n);
      case node_kind::reduce: return reduce(n);
      case node_kind::lookup: {  // round half up; NaN outside the table (and for a NaN index: both tests fail)
        const std::vector<double>& t = p.tables[static_cast<std::size_t>(n.slot)].values;
        const double k = std::floor((*this)(n.a) + 0.5);
        return k >= 0 && k < static_cast<double>(t.size()) ? t[static_cast<std::size_t>(k)] : not_a_number;
      }
    }
    return not_a_number;
  }

  double call(const node& n) {
    const double a = (*this)(n.a);
    switch (n.fn) {
      case function::sin: return std::sin(a);
      case function::cos: return std::cos(a);
      case function::tan: return std::tan(a);
      case function::asin: return std::asin(a);
      case function::acos: return std::acos(a);
      case function::atan: return std::atan(a);
      case function::exp: return std::exp(a);
      case function::log: return std::log(a);
      case function::log10: return std::log10(a);
      case function::sqrt: return std::sqrt(a);
      case function::abs: return std::fabs(a);
      case function::floor: return std::floor(a);
      case function::ceil: return std::ceil(a);
      case function::min: return minimum(a, (*this)(n.b));
      case function::max: return maximum(a, (*this)(n.b));
      case function::atan2: return std::atan2(a, (*this)(n.b));
    }
    return not_a_number;
  }

  double reduce(const node& n) {
    const long long lo = std::llround((*this)(n.a)), hi = std::llround((*this)(n.b));
    const auto depth = static_cast<std::size_t>(n.slot);
    if (index.size() <= depth) index.resize(depth + 1);
    double acc = n.red == reduction::sum ? 0.0 : n.red == reduction::prod ? 1.0 : n.red == reduction::min ? inf : -inf;
    for (long long k = lo; k <= hi; ++k) {  // empty range (lo > hi): 0, 1, +inf, -inf
      index[depth] = k;
      const double v = (*this)(n.c);
      switch (n.red) {
        case reduction::sum: acc += v; break;
        case reduction::prod: acc *= v; break;
        case reduction::min: acc = minimum(acc, v); break;
        case reduction::max: acc = maximum(acc, v); break;
      }
    }
    return acc;
  }
};

}  // namespace

double reference_objective(const program& p, const double* x) { return reference{p, x, {}}(p.objective); }

double reference_constraint(const program& p, int constraint_index, const double* x) {
  return reference{p, x, {}}(p.constraints[static_cast<std::size_t>(constraint_index)].root);
}

}  // namespace fusedga::expr
