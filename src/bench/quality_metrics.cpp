#include "bench/quality_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fusedga {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();

/// Feasibility rules (Deb 2000): feasible beats infeasible; two feasible by objective; two infeasible by violation.
bool better(const quality_sample& a, const quality_sample& b, bool maximize) {
  const bool fa = a.violation <= 0, fb = b.violation <= 0;
  if (fa != fb) return fa;
  if (!fa) return a.violation < b.violation;
  return maximize ? a.objective > b.objective : a.objective < b.objective;
}
}  // namespace

double success_threshold(double best_known, double tolerance) { return tolerance * std::max(1.0, std::fabs(best_known)); }

double quality_error(double objective, double violation, double best_known, bool maximize) {
  if (!(violation <= 0) || std::isnan(objective)) return inf;
  return maximize ? best_known - objective : objective - best_known;
}

quality_run assess_run(std::string problem, std::string method, std::uint64_t seed,
                       const std::vector<quality_sample>& samples, double best_known, bool maximize, double tolerance,
                       std::uint64_t evaluations, double wall_s) {
  if (samples.empty()) throw std::invalid_argument("assess_run: no samples");
  quality_run r;
  r.problem = std::move(problem);
  r.method = std::move(method);
  r.seed = seed;
  const double threshold = success_threshold(best_known, tolerance);
  quality_sample best = samples.front();
  for (const quality_sample& s : samples) {
    if (better(s, best, maximize)) best = {s.evaluations, s.elapsed_s, s.objective, s.violation};
    quality_sample kept = best;
    kept.evaluations = s.evaluations;
    kept.elapsed_s = s.elapsed_s;
    r.trace.push_back(kept);
    const double e = quality_error(best.objective, best.violation, best_known, maximize);
    r.trace_error.push_back(e);
    if (!r.evaluations_to_target && e <= threshold) {
      r.evaluations_to_target = s.evaluations;
      r.seconds_to_target = s.elapsed_s;
    }
  }
  r.objective = best.objective;
  r.violation = best.violation;
  r.feasible = best.violation <= 0;
  r.error = quality_error(best.objective, best.violation, best_known, maximize);
  r.success = r.feasible && r.error <= threshold;
  r.evaluations = evaluations > 0 ? evaluations : samples.back().evaluations;
  r.wall_s = wall_s > 0 ? wall_s : samples.back().elapsed_s;
  return r;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n % 2 == 1) return v[n / 2];
  const double a = v[n / 2 - 1], b = v[n / 2];
  return std::isinf(a) || std::isinf(b) ? std::max(a, b) : 0.5 * (a + b);
}

std::vector<quality_cell> aggregate_runs(const std::vector<quality_run>& runs) {
  std::vector<quality_cell> cells;
  for (const quality_run& r : runs) {
    const bool seen = std::any_of(cells.begin(), cells.end(),
                                  [&](const quality_cell& c) { return c.problem == r.problem && c.method == r.method; });
    if (seen) continue;
    quality_cell c;
    c.problem = r.problem;
    c.method = r.method;
    std::vector<double> errors, evals, seconds;
    c.best_error = inf;
    for (const quality_run& s : runs) {
      if (s.problem != r.problem || s.method != r.method) continue;
      ++c.runs;
      c.successes += s.success;
      c.feasible += s.feasible;
      errors.push_back(s.error);
      c.best_error = std::min(c.best_error, s.error);
      if (s.success && s.evaluations_to_target) {
        evals.push_back(static_cast<double>(*s.evaluations_to_target));
        seconds.push_back(*s.seconds_to_target);
      }
    }
    c.success_rate = static_cast<double>(c.successes) / c.runs;
    c.feasible_rate = static_cast<double>(c.feasible) / c.runs;
    c.median_error = median_of(errors);
    if (!evals.empty()) {
      c.median_evaluations_to_target = median_of(evals);
      c.median_seconds_to_target = median_of(seconds);
    }
    cells.push_back(c);
  }
  return cells;
}

std::vector<curve_point> convergence_curve(const std::vector<const quality_run*>& runs, bool by_time, int points) {
  const auto x_of = [by_time](const quality_sample& s) { return by_time ? s.elapsed_s : double(s.evaluations); };
  double lo = inf, hi = 0;
  for (const quality_run* r : runs) {
    if (r->trace.empty()) continue;
    lo = std::min(lo, std::max(x_of(r->trace.front()), by_time ? 1e-6 : 1.0));
    hi = std::max(hi, x_of(r->trace.back()));
  }
  std::vector<curve_point> out;
  if (!(lo < inf) || !(hi > 0) || points < 2) return out;
  hi = std::max(hi, lo);
  for (int k = 0; k < points; ++k) {
    const double x = lo * std::pow(hi / lo, double(k) / (points - 1));
    std::vector<double> errors;
    for (const quality_run* r : runs) {
      double e = inf;
      for (std::size_t j = 0; j < r->trace.size(); ++j) {
        if (x_of(r->trace[j]) > x * (1 + 1e-12)) break;
        e = r->trace_error[j];
      }
      errors.push_back(e);
    }
    if (!errors.empty()) out.push_back({x, median_of(errors)});
  }
  return out;
}

}  // namespace fusedga
