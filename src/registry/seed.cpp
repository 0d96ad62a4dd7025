// The seed documents' workloads.
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "registry/entry.hpp"

namespace fusedga::detail {

void register_seed(std::vector<problem_entry>& out) {
  out.push_back(make_entry("seed/constrained-quadratic",
                           "maximize x^2+2y^2+3z^2+4xy-5yz s.t. x+y+z>=3, x^2+z^2<=10 (seed example 2)", {}, false,
                           [](auto tag, const auto&) { return problems::ConstrainedQuadratic<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("seed/trig-constrained",
                           "minimize sin x + x^2 - 2cos y + y^2 + z^2 s.t. x+z>=1, cos y + z >= 0.5 (seed example 3)", {},
                           false, [](auto tag, const auto&) { return problems::TrigConstrained<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("seed/gene-sum", "maximize the sum of int8 genes in [1, 24] (seed throughput workload)",
                           {{"genes", 1000, 1, 1000000, true, "number of genes d"}}, true, [](auto tag, const auto& params) {
                             problems::GeneSum<typename decltype(tag)::type> p;
                             p.genes = int_param(params, "genes", 1000);
                             return p;
                           }));
}

}  // namespace fusedga::detail
