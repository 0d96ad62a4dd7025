// Classic constrained engineering design problems in the registry (registry/problem_families.hpp).
#include "registry/entry.hpp"
#include "registry/problem_families.hpp"

namespace fusedga::detail {

void register_engineering(std::vector<problem_entry>& out) { engineering_problems(entry_adder{out}); }

}  // namespace fusedga::detail
