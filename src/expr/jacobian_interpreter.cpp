// The Jacobian tape interpreter (jacobian_evaluator.hpp).
#include <type_traits>
#include <vector>

#include "expr/tape_ops.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"

namespace fusedga::expr {
namespace {

template <class Real>
class tape_interpreter final : public jacobian_evaluator<Real> {
 public:
  explicit tape_interpreter(const jacobian_tape& tape) : tape_(tape) {
    const std::vector<bool> live = tape_.live();
    for (std::size_t i = 0; i < live.size(); ++i)
      if (live[i]) order_.push_back(static_cast<int>(i));
  }
  void evaluate(const Real* x, Real* c, Real* J) const override {
    if (tape_.entries.size() <= kStackEntries) {
      Real stack[kStackEntries];
      evaluate_in(stack, x, c, J);
    } else {
      thread_local std::vector<Real> v;
      if (v.size() < tape_.entries.size()) v.resize(tape_.entries.size());
      evaluate_in(v.data(), x, c, J);
    }
  }
  int dimension() const override { return tape_.dimension; }
  int constraint_count() const override { return tape_.constraint_count(); }

 private:
  /// Tapes of at most this many entries keep their values on the stack (32 KiB in double): the gradient repair
  /// then allocates nothing when a thread first repairs, in whatever generation (tests/engine/test_allocation.cpp).
  /// Larger tapes use a thread-local buffer, grown to the largest tape seen.
  static constexpr std::size_t kStackEntries = 4096;

  /// evaluate with `v` (tape_.entries.size() values) as the tape's values.
  void evaluate_in(Real* v, const Real* x, Real* c, Real* J) const {
    for (int i : order_) {
      const tape_entry& t = tape_.entries[static_cast<std::size_t>(i)];
      const auto at = [&](int k) { return k >= 0 ? v[static_cast<std::size_t>(k)] : Real(0); };
      v[static_cast<std::size_t>(i)] =
          t.op == tape_op::gene ? x[t.a] : detail::apply_tape<Real>(t, at(t.a), at(t.b), at(t.c), at(t.e), tape_.tables);
    }
    const int m = tape_.constraint_count();
    for (int k = 0; k < m; ++k) c[k] = v[static_cast<std::size_t>(tape_.constraint[static_cast<std::size_t>(k)])];
    const std::size_t md = tape_.jacobian.size();
    for (std::size_t k = 0; k < md; ++k) {
      const int id = tape_.jacobian[k];
      J[k] = id >= 0 ? v[static_cast<std::size_t>(id)] : Real(0);
    }
  }

  jacobian_tape tape_;
  std::vector<int> order_;
};

}  // namespace

template <class Real>
std::unique_ptr<jacobian_evaluator<Real>> make_jacobian_interpreter(const jacobian_tape& tape) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>, "Real must be float or double");
  return std::make_unique<tape_interpreter<Real>>(tape);
}

template std::unique_ptr<jacobian_evaluator<float>> make_jacobian_interpreter<float>(const jacobian_tape&);
template std::unique_ptr<jacobian_evaluator<double>> make_jacobian_interpreter<double>(const jacobian_tape&);

}  // namespace fusedga::expr
