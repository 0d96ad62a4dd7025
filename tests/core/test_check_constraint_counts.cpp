#include <catch2/catch.hpp>
#include <fusedga/core/check_constraint_counts.hpp>
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>
#include <string>

namespace {

/// Two inequalities and one equality as declared by the counts below; `extra` writes one index past them.
struct Counted {
  using gene_type = double;
  int declared_inequalities = 2;
  int declared_equalities = 1;
  int written_inequalities = 2;
  int written_equalities = 1;
  int dimension() const { return 2; }
  int inequality_count() const { return declared_inequalities; }
  int equality_count() const { return declared_equalities; }
  fusedga::Bounds<double> bounds() const { return {{-1, -1}, {1, 1}}; }
  template <class X>
  double objective(const X& x) const {
    return x[0];
  }
  template <class X, class G>
  void inequalities(const X& x, G& g) const {
    for (int j = 0; j < written_inequalities; ++j) g[j] = x[0] - x[1];
  }
  template <class X, class H>
  void equalities(const X& x, H& h) const {
    for (int j = 0; j < written_equalities; ++j) h[j] = x[0];
  }
};

std::string message_of(const Counted& p) {
  try {
    fusedga::check_constraint_counts(p, "'counted'");
  } catch (const fusedga::config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("check_constraint_counts: matching counts pass") {
  CHECK(message_of(Counted{}).empty());
  CHECK_NOTHROW(fusedga::check_constraint_counts(fusedga::problems::ConstrainedQuadratic<double>{}, "q"));
  CHECK_NOTHROW(fusedga::check_constraint_counts(fusedga::problems::TrigConstrained<float>{}, "t"));
  CHECK_NOTHROW(fusedga::check_constraint_counts(fusedga::problems::PressureVessel<double>{}, "p"));
  CHECK_NOTHROW(fusedga::check_constraint_counts(fusedga::problems::SpeedReducer<double>{}, "s"));
  CHECK_NOTHROW(fusedga::check_constraint_counts(fusedga::problems::WeldedBeam<float>{}, "w"));
}

TEST_CASE("check_constraint_counts: an index past the count is named") {
  Counted p;
  p.written_inequalities = 3;  // writes g[2] while declaring 2
  CHECK(message_of(p) ==
        "problem 'counted': inequalities(x, g) wrote g[2] but inequality_count() is 2 (valid indices 0..1)");
  Counted q;
  q.written_equalities = 2;
  CHECK(message_of(q) ==
        "problem 'counted': equalities(x, h) wrote h[1] but equality_count() is 1 (valid indices 0..0)");
}

TEST_CASE("check_constraint_counts: a declared constraint never written is named") {
  Counted p;
  p.declared_inequalities = 3;  // declares 3, writes g[0] and g[1]
  CHECK(message_of(p) ==
        "problem 'counted': inequalities(x, g) never wrote g[2] but inequality_count() is 3 (each "
        "constraint is assigned exactly once)");
}

namespace {
/// Declares one inequality, but writes a second where x[0] > 0.5 only: never at the box's midpoint (0, 0).
struct Branchy {
  using gene_type = double;
  int dimension() const { return 2; }
  int inequality_count() const { return 1; }
  fusedga::Bounds<double> bounds() const { return {{-1, -1}, {1, 1}}; }
  template <class X>
  double objective(const X& x) const {
    return x[0] * x[0] + x[1] * x[1];
  }
  template <class X, class G>
  void inequalities(const X& x, G& g) const {
    g[0] = x[0] + x[1] - 1;
    if (x[0] > 0.5) g[1] = 100;
  }
};
}  // namespace

TEST_CASE("check_constraint_counts: a write made only away from the midpoint is caught at a corner") {
  CHECK_THROWS_WITH(
      fusedga::check_constraint_counts(Branchy{}, "'branchy'"),
      "problem 'branchy': inequalities(x, g) wrote g[1] but inequality_count() is 1 (valid indices 0..0)");
}

TEST_CASE("recording_sink: a write past the declared count lands in the spill, not past the buffer") {
  double c[1] = {0}, spill = 0;
  const fusedga::recording_sink<double> g{c, 1, &spill};
  g[0] = 3;
  g[1] = 100;  // before: c[1], one past the buffer (AddressSanitizer: heap-buffer-overflow in the gradient repair)
  g[-1] = 7;
  CHECK(c[0] == 3);
  CHECK(spill == 7);
}
