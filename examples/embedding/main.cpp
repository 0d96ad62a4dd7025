// A user's own constrained problem, solved by embedding FusedGA.
// Minimize (x - 2)^2 + (y - 1)^2  s.t.  x + y <= 2,  x^2 <= y + 3   (optimum 0.5 at x = 1.5, y = 0.5).
#include <cstdio>

#include <fusedga/fusedga.hpp>

struct Circle {
  using gene_type = double;
  int dimension() const { return 2; }
  int inequality_count() const { return 2; }
  fusedga::Bounds<double> bounds() const { return {{-5, -5}, {5, 5}}; }
  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    return (v[0] - 2) * (v[0] - 2) + (v[1] - 1) * (v[1] - 1);
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    g[0] = v[0] + v[1] - 2;  // g(x) <= 0 is satisfied
    g[1] = v[0] * v[0] - v[1] - 3;  // inactive at the optimum
  }
};

int main() {
  fusedga::ga_options options;
  options.population = 4000;
  options.generations = 200;
  const fusedga::Result r = fusedga::solve(Circle{}, options, fusedga::backend::tbb{});
  std::printf("best %.6f at (%.4f, %.4f), feasible %d\n", r.objective, r.best_genes[0], r.best_genes[1], r.feasible);
  return r.feasible && r.objective < 0.5005 ? 0 : 1;
}
