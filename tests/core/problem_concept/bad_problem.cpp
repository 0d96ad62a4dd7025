// One problem type with one defect chosen by FUSEDGA_DEFECT (0 = none), compiled by the CTest entries of
// tests/core/problem_concept/CMakeLists.txt, which expect check_problem()'s message naming the member.
#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/problem_traits.hpp>
#include <fusedga/core/sense.hpp>
#ifdef FUSEDGA_VIA_SOLVE
#include <fusedga/fusedga.hpp>
#endif

#ifndef FUSEDGA_DEFECT
#define FUSEDGA_DEFECT 0
#endif
#define DEFECT(n) (FUSEDGA_DEFECT == (n))

struct Problem {
#if !DEFECT(1)
  using gene_type = double;
#endif
#if DEFECT(7)
  static constexpr int sense = 1;
#else
  static constexpr fusedga::Sense sense = fusedga::Sense::maximize;
#endif
#if !DEFECT(2)
  int dimension() const { return 2; }
#endif
  int inequality_count() const { return 1; }
#if DEFECT(8)
  int equality_count() const { return 1; }
#endif
#if !DEFECT(3)
  fusedga::Bounds<double> bounds() const { return {{0, 0}, {1, 1}}; }
#endif
#if !DEFECT(4)
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return x[0] + x[1];
  }
#endif
#if !DEFECT(5)
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = x[0] - x[1];
  }
#endif
#if DEFECT(9)
  using partial_type = int;  // declared without partial_objective and objective_of
#endif
#if DEFECT(10) || DEFECT(11)
#if DEFECT(10)
  using partial_type = double;
#else
  using partial_type = long;  // integral, but this problem has a constraint
#endif
  template <class X>
  FUSEDGA_HD partial_type partial_objective(const X& x, int begin, int end) const {
    partial_type s = 0;
    for (int j = begin; j < end; ++j) s += static_cast<partial_type>(x[j]);
    return s;
  }
  FUSEDGA_HD double objective_of(partial_type total) const { return static_cast<double>(total); }
#endif
#if DEFECT(12)
  FUSEDGA_HD void jacobian(const float* x, float* c, float* J) const {  // float on double genes: not the concept's
    c[0] = x[0] - x[1];
    J[0] = 1;
    J[1] = -1;
  }
#endif
#if DEFECT(6)
  double* scratch = new double[2];  // not trivially copyable once it owns a destructor
  ~Problem() { delete[] scratch; }
#endif
};

int main() {
#ifdef FUSEDGA_VIA_SOLVE  // the check as a user meets it: through solve, which must not cascade into the engine
  fusedga::solve(Problem{}, fusedga::ga_options{}, fusedga::backend::serial{});
#else
  fusedga::check_problem<Problem>();
#endif
  return 0;
}
