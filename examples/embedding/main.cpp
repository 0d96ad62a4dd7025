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
  // What ga-run runs when a config sets nothing: SHADE, restarts, the gradient repair, 10^4·d evaluations.
  fusedga::ga_options options = fusedga::measured_defaults(Circle{});
  options.seed = 7;  // any field may be changed after
  const fusedga::Result r = fusedga::solve(Circle{}, options, fusedga::backend::tbb{});
  std::printf("best %.9f at (%.6f, %.6f), feasible %d, %llu evaluations\n", r.objective, r.best_genes[0],
              r.best_genes[1], r.feasible, static_cast<unsigned long long>(r.evaluations));
  return r.feasible && r.objective <= 0.5 * (1 + 1e-6) ? 0 : 1;
}
