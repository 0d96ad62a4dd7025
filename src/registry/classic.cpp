// Unconstrained benchmark functions with a dimension parameter.
#include <fusedga/problems/classic/ackley.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/classic/rosenbrock.hpp>
#include <fusedga/problems/classic/sphere.hpp>

#include "registry/entry.hpp"

namespace fusedga::detail {

namespace {
template <template <class> class Problem>
problem_entry classic(const char* name, const char* description) {
  return make_entry(name, description, {{"dimension", 30, 1, 100000, true, "number of genes d"}}, false,
                    [](auto tag, const auto& params) {
                      Problem<typename decltype(tag)::type> p;
                      p.dim = int_param(params, "dimension", 30);
                      return p;
                    });
}
}  // namespace

void register_classic(std::vector<problem_entry>& out) {
  out.push_back(classic<problems::Sphere>("classic/sphere", "minimize sum x_i^2 (optimum 0)"));
  out.push_back(classic<problems::Rastrigin>("classic/rastrigin", "minimize Rastrigin's multimodal function (optimum 0)"));
  out.push_back(classic<problems::Rosenbrock>("classic/rosenbrock", "minimize Rosenbrock's valley (optimum 0)"));
  out.push_back(classic<problems::Ackley>("classic/ackley", "minimize Ackley's function (optimum 0)"));
}

}  // namespace fusedga::detail
