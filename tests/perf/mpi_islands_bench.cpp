// Scaling of the island model over MPI ranks (islands/mpi_transport.hpp). Not a test (no assertion on time):
// build the target bench_mpi_islands and run it under mpirun, e.g.
//   mpirun -np 4 --oversubscribe --allow-run-as-root build/tests/mpi/bench_mpi_islands [island_population] [generations]
// Rows (printed by rank 0), each on the serial backend (one thread per rank):
//   strong: 4 islands of P individuals (N = 4P) whatever R; weak: 2 islands of P per rank (N = 2RP).
// Columns: generations per second of the archipelago; per rank the compute time of one generation (all its
// islands), the communication time of one epoch (all_gather + exchange after a barrier, min and max over
// ranks) and the barrier's wait (load imbalance, max over ranks); bytes per migration (migrant packets sent
// between ranks, all ranks together) and per epoch (the all_gathered records); communication's share of the run time (min and max over ranks).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/islands/mpi_transport.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

/// A Transport that times another one's calls and counts the bytes it gathers. A barrier before each gather
/// takes the waiting for slower ranks (load imbalance: oversubscribed ranks are time-sliced) out of the
/// communication's time: `wait_s` holds it.
struct timed_transport {
  fusedga::islands::mpi_transport& t;
  double wait_s = 0, gather_s = 0, exchange_s = 0;
  std::uint64_t gathered = 0, gathers = 0, exchanges = 0;
  int rank() const { return t.rank(); }
  int ranks() const { return t.ranks(); }
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) {
    const auto w0 = clock_type::now();
    MPI_Barrier(MPI_COMM_WORLD);
    wait_s += seconds_since(w0);
    const auto t0 = clock_type::now();
    auto all = t.all_gather(mine);
    gather_s += seconds_since(t0);
    ++gathers;
    for (const auto& part : all) gathered += part.size();
    return all;
  }
  void exchange(const std::vector<fusedga::islands::packet>& out, std::vector<fusedga::islands::packet>& in) {
    const auto t0 = clock_type::now();
    t.exchange(out, in);
    exchange_s += seconds_since(t0);
    ++exchanges;
  }
};

double reduce(double v, MPI_Op op) {
  double r = v;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return r;
}

void row(const char* kind, int islands, std::size_t island_population, int generations, int every) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  fusedga::ga_options o;
  o.population = island_population * static_cast<std::size_t>(islands);
  o.generations = generations;
  o.seed = 3;
  o.islands.count = islands;
  o.islands.migration.every = every;
  o.islands.migration.size = 4;
  const fusedga::problems::Rastrigin<double> p{30};
  fusedga::islands::mpi_transport mpi(MPI_COMM_WORLD, islands);
  timed_transport t{mpi};
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = clock_type::now();
  const fusedga::Result r = fusedga::islands::solve_islands(p, o, fusedga::backend::serial{}, t);
  const double run_s = reduce(seconds_since(t0), MPI_MAX);
  const double comm_s = t.gather_s + t.exchange_s;
  const double epochs = static_cast<double>(t.gathers);  // the initial gather + one per epoch
  const double comm_min = reduce(comm_s, MPI_MIN), comm_max = reduce(comm_s, MPI_MAX);
  const double wait_max = reduce(t.wait_s, MPI_MAX);
  const double compute_gen_ms = reduce((seconds_since(t0) - comm_s - t.wait_s) / generations * 1e3, MPI_MAX);
  const double sent = reduce(static_cast<double>(mpi.bytes_sent()), MPI_SUM);
  if (rank == 0)
    std::printf("%-6s %5d %7d %8zu %9zu %5d | %9.1f %10.3f %9.3f %9.3f %9.3f | %10.0f %10.0f | %5.1f%% %5.1f%%  best %.4g\n",
                kind, ranks, islands, island_population, o.population, every, generations / run_s, compute_gen_ms,
                comm_min / epochs * 1e3, comm_max / epochs * 1e3, wait_max / epochs * 1e3, sent / std::max<double>(1, static_cast<double>(t.exchanges)),
                static_cast<double>(t.gathered) / epochs, 100 * comm_min / run_s, 100 * comm_max / run_s, r.objective);
}

/// The transport alone, as one epoch of 4 islands (ring, K = 4, d = 30 doubles) uses it: after a barrier, an
/// all_gather of each rank's records (900 bytes per island) and the migrant exchange; median and 90th percentile
/// over `reps` epochs (ms), taken on the slowest rank.
void transport_only(int reps) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int I = 4;
  const std::size_t packet_bytes = 4 * (30 * sizeof(double) + 2 * sizeof(double));
  fusedga::islands::mpi_transport t(MPI_COMM_WORLD, I);
  int first, last;
  fusedga::islands::rank_islands(I, ranks, rank, first, last);
  std::vector<double> ms;
  for (int k = 0; k < reps; ++k) {
    std::vector<fusedga::islands::packet> out, in;
    for (int i = first; i < last; ++i) {
      out.push_back({i, (i + 1) % I, std::vector<std::byte>(packet_bytes)});
      in.push_back({(i + I - 1) % I, i, std::vector<std::byte>(packet_bytes)});
    }
    const std::vector<std::byte> mine(900 * static_cast<std::size_t>(last - first));
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = clock_type::now();
    t.all_gather(mine);
    t.exchange(out, in);
    ms.push_back(reduce(seconds_since(t0) * 1e3, MPI_MAX));
  }
  std::sort(ms.begin(), ms.end());
  if (rank == 0)
    std::printf("transport alone, %d ranks, 4 islands: all_gather + exchange per epoch median %.3f ms, p90 %.3f ms "
                "(%d epochs)\n", ranks, ms[ms.size() / 2], ms[ms.size() * 9 / 10], reps);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::size_t P = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000;
  const int G = argc > 2 ? std::atoi(argv[2]) : 200;
  if (rank == 0) {
    std::printf("rastrigin d=30, serial backend (1 thread per rank), migration K=4 ring; times in ms; comm = all_gather + "
                "exchange per epoch after a barrier (min/max over ranks), wait = the barrier (max)\n");
    std::printf("%-6s %5s %7s %8s %9s %5s | %9s %10s %9s %9s %9s | %10s %10s | %6s %6s\n", "kind", "ranks", "islands",
                "P/island", "N", "M", "gens/s", "gen ms", "comm min", "comm max", "wait max", "migr B/mig", "gather B/ep",
                "c.min", "c.max");
  }
  if (ranks <= 4) transport_only(500);
  for (int every : {10, 1}) {
    if (4 >= ranks) row("strong", 4, P, G, every);
    row("weak", 2 * ranks, P, G, every);
  }
  MPI_Finalize();
  return 0;
}
