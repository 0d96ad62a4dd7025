#pragma once
/// @file problem_families.hpp
/// Private: the built-in problems, family by family. Each is handed to `add(name, description, params,
/// integer_genes, make)`, with `make(real_tag<R>{}, params) -> Problem<R>` a generic lambda. The registry
/// (registry/entry.hpp: names → run) and ga-bench's harness (bench/builtin_bench.hpp: names → benchmark targets)
/// instantiate them with their own `add`, so the list is written once and neither layer reaches into the other.

#include <fusedga/problems/classic/ackley.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/classic/rosenbrock.hpp>
#include <fusedga/problems/classic/sphere.hpp>
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/tension_compression_spring.hpp>
#include <fusedga/problems/engineering/three_bar_truss.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>
#include <map>
#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"

namespace fusedga::detail {

/// Passed to a factory to pick the precision: `typename decltype(tag)::type` is float or double.
template <class Real>
struct real_tag {
  using type = Real;
};

/// Reads an integer parameter (already validated by the config parser).
inline int int_param(const std::map<std::string, double>& params, const std::string& name, int fallback) {
  const auto it = params.find(name);
  return it == params.end() ? fallback : static_cast<int>(it->second);
}

/// The seed documents' workloads.
template <class Add>
void seed_problems(Add&& add) {
  add("seed/constrained-quadratic", "maximize x^2+2y^2+3z^2+4xy-5yz s.t. x+y+z>=3, x^2+z^2<=10 (seed example 2)", {},
      false, [](auto tag, const auto&) { return problems::ConstrainedQuadratic<typename decltype(tag)::type>{}; });
  add("seed/trig-constrained",
      "minimize sin x + x^2 - 2cos y + y^2 + z^2 s.t. x+z>=1, cos y + z >= 0.5 (seed example 3)", {}, false,
      [](auto tag, const auto&) { return problems::TrigConstrained<typename decltype(tag)::type>{}; });
  add("seed/gene-sum", "maximize the sum of int8 genes in [1, 24] (seed throughput workload)",
      {{"genes", 1000, 1, 1000000, true, "number of genes d"}}, true, [](auto tag, const auto& params) {
        problems::GeneSum<typename decltype(tag)::type> p;
        p.genes = int_param(params, "genes", 1000);
        return p;
      });
}

/// Classic constrained engineering design problems.
template <class Add>
void engineering_problems(Add&& add) {
  add("engineering/pressure-vessel", "minimize the cost of a cylindrical pressure vessel (4 vars, 4 constraints)", {},
      false, [](auto tag, const auto&) { return problems::PressureVessel<typename decltype(tag)::type>{}; });
  add("engineering/welded-beam", "minimize the fabrication cost of a welded beam (4 vars, 7 constraints)", {}, false,
      [](auto tag, const auto&) { return problems::WeldedBeam<typename decltype(tag)::type>{}; });
  add("engineering/tension-compression-spring",
      "minimize the weight of a tension/compression spring (3 vars, 4 constraints)", {}, false,
      [](auto tag, const auto&) { return problems::TensionCompressionSpring<typename decltype(tag)::type>{}; });
  add("engineering/speed-reducer", "minimize the weight of a speed reducer (7 vars, 11 constraints)", {}, false,
      [](auto tag, const auto&) { return problems::SpeedReducer<typename decltype(tag)::type>{}; });
  add("engineering/three-bar-truss", "minimize the volume of a three-bar truss (2 vars, 3 constraints)", {}, false,
      [](auto tag, const auto&) { return problems::ThreeBarTruss<typename decltype(tag)::type>{}; });
}

/// The factory of an unconstrained benchmark function with a `dimension` parameter.
template <template <class> class Problem>
auto classic_factory() {
  return [](auto tag, const auto& params) {
    Problem<typename decltype(tag)::type> p;
    p.dim = int_param(params, "dimension", 30);
    return p;
  };
}

/// Unconstrained benchmark functions with a dimension parameter.
template <class Add>
void classic_problems(Add&& add) {
  const std::vector<param_spec> dimension{{"dimension", 30, 1, 100000, true, "number of genes d"}};
  add("classic/sphere", "minimize sum x_i^2 (optimum 0)", dimension, false, classic_factory<problems::Sphere>());
  add("classic/rastrigin", "minimize Rastrigin's multimodal function (optimum 0)", dimension, false,
      classic_factory<problems::Rastrigin>());
  add("classic/rosenbrock", "minimize Rosenbrock's valley (optimum 0)", dimension, false,
      classic_factory<problems::Rosenbrock>());
  add("classic/ackley", "minimize Ackley's function (optimum 0)", dimension, false,
      classic_factory<problems::Ackley>());
}

}  // namespace fusedga::detail
