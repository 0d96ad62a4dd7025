// The seed documents' workloads in the registry (registry/problem_families.hpp).
#include "registry/entry.hpp"
#include "registry/problem_families.hpp"

namespace fusedga::detail {

void register_seed(std::vector<problem_entry>& out) { seed_problems(entry_adder{out}); }

}  // namespace fusedga::detail
