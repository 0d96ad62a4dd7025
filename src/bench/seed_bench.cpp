// ga-bench's targets of the seed workloads (bench/builtin_bench.hpp).
#include "bench/builtin_bench.hpp"

namespace fusedga::detail {

void register_seed_bench(std::vector<named_bench_factories>& out) { seed_problems(bench_adder{out}); }

}  // namespace fusedga::detail
