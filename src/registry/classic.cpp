// Unconstrained benchmark functions with a dimension parameter in the registry (registry/problem_families.hpp).
#include "registry/entry.hpp"
#include "registry/problem_families.hpp"

namespace fusedga::detail {

void register_classic(std::vector<problem_entry>& out) { classic_problems(entry_adder{out}); }

}  // namespace fusedga::detail
