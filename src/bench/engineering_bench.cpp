// ga-bench's targets of the engineering problems (bench/builtin_bench.hpp).
#include "bench/builtin_bench.hpp"

namespace fusedga::detail {

void register_engineering_bench(std::vector<named_bench_factories>& out) { engineering_problems(bench_adder{out}); }

}  // namespace fusedga::detail
