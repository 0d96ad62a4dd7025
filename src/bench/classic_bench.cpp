// ga-bench's targets of the classic problems (bench/builtin_bench.hpp).
#include "bench/builtin_bench.hpp"

namespace fusedga::detail {

void register_classic_bench(std::vector<named_bench_factories>& out) { classic_problems(bench_adder{out}); }

}  // namespace fusedga::detail
