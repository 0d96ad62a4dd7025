// The island model across MPI ranks (islands/mpi_transport.hpp), run by CTest under
// `mpirun -np R` (R = 1, 2, 4; tests/mpi/CMakeLists.txt). Its own main, not Catch2: every rank runs the
// same checks in the same order (they are collective), prints what failed with its rank, and the exit
// status is nonzero on every rank when any check failed on any rank.
//   test_mpi_islands transport    all_gather / exchange with uneven payloads, against hand-computed bytes
//   test_mpi_islands determinism  Result over R ranks == one-process solve (local_transport), bitwise
//   test_mpi_islands failure      a problem throwing on island 1 ends the run on every rank, naming it
//   test_mpi_islands checkpoint   a checkpoint written over R ranks resumes over 1, 2 and R ranks, bitwise
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/islands/any_transport.hpp>
#include <fusedga/islands/mpi_transport.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

using namespace fusedga;

namespace {

int g_rank = 0, g_ranks = 1;

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// The first difference between two history rows (wall-clock time aside), or "".
std::string row_diff(const generation_stats& a, const generation_stats& b) {
  if (a.generation != b.generation) return "generation";
  if (!same_bits(a.best_objective, b.best_objective)) return "best_objective";
  if (!same_bits(a.best_violation, b.best_violation)) return "best_violation";
  if (!same_bits(a.mean_objective, b.mean_objective)) return "mean_objective";
  if (!same_bits(a.feasible_fraction, b.feasible_fraction)) return "feasible_fraction";
  if (a.evaluations != b.evaluations) return "evaluations";
  if (a.not_a_number != b.not_a_number) return "not_a_number";
  return "";
}

std::string rows_diff(const std::vector<generation_stats>& a, const std::vector<generation_stats>& b,
                      const std::string& what) {
  if (a.size() != b.size())
    return what + ": " + std::to_string(a.size()) + " rows, expected " + std::to_string(b.size());
  for (std::size_t t = 0; t < a.size(); ++t) {
    const std::string d = row_diff(a[t], b[t]);
    if (!d.empty()) return what + " row " + std::to_string(t) + ": " + d + " differs";
  }
  return "";
}

/// The first difference between an MPI run's Result over `ranks` ranks and the one-process one (wall-clock
/// fields aside; the islands' owner ranks checked against `ranks`), or "".
std::string result_diff(const Result& a, const Result& b, int ranks = g_ranks) {
  if (a.generations != b.generations) return "generations";
  if (a.evaluations != b.evaluations) return "evaluations";
  if (a.reason != b.reason) return "stop reason";
  if (a.restarts != b.restarts) return "restarts";
  if (!same_bits(a.objective, b.objective)) return "objective";
  if (!same_bits(a.violation, b.violation)) return "violation";
  if (a.feasible != b.feasible) return "feasible";
  if (a.not_a_number != b.not_a_number) return "not_a_number";
  if (a.best_genes.size() != b.best_genes.size()) return "best_genes size";
  for (std::size_t j = 0; j < a.best_genes.size(); ++j)
    if (!same_bits(a.best_genes[j], b.best_genes[j])) return "best gene " + std::to_string(j);
  if (std::string d = rows_diff(a.history, b.history, "history"); !d.empty()) return d;
  if (a.islands.size() != b.islands.size()) return "island count";
  for (std::size_t i = 0; i < a.islands.size(); ++i) {
    const island_result &x = a.islands[i], &y = b.islands[i];
    const std::string at = "island " + std::to_string(i) + ": ";
    if (x.island != y.island || x.population != y.population) return at + "index or population";
    if (!same_bits(x.objective, y.objective) || !same_bits(x.violation, y.violation)) return at + "best";
    if (x.feasible != y.feasible || x.evaluations != y.evaluations) return at + "feasible or evaluations";
    if (x.immigrants != y.immigrants) return at + "immigrants";
    if (x.restarts != y.restarts) return at + "restarts";
    if (x.rank != islands::owner_rank(static_cast<int>(a.islands.size()), ranks, static_cast<int>(i)))
      return at + "owner rank";
    if (std::string d = rows_diff(x.history, y.history, at + "history"); !d.empty()) return d;
  }
  return "";
}

int g_failures = 0;

/// Runs one check on this rank; "" or no exception = passed.
void check(const std::string& name, const std::function<std::string()>& body) {
  std::string why;
  try {
    why = body();
  } catch (const std::exception& e) {
    why = std::string("unexpected exception: ") + e.what();
  }
  if (!why.empty()) {
    std::fprintf(stderr, "rank %d/%d: FAIL %s: %s\n", g_rank, g_ranks, name.c_str(), why.c_str());
    ++g_failures;
  } else if (g_rank == 0) {
    std::printf("ok   %s (%d ranks)\n", name.c_str(), g_ranks);
  }
}

// --- transport --------------------------------------------------------------------------------------------

std::byte pattern(int a, int b, std::size_t k) { return static_cast<std::byte>((a * 31 + b * 7 + int(k) * 3) & 0xff); }

/// all_gather: rank q sends 5q bytes (rank 0 none: an empty payload), each rank checks every rank's bytes.
std::string check_all_gather() {
  islands::mpi_transport t(MPI_COMM_WORLD, 7);
  for (int round = 0; round < 3; ++round) {  // repeated: sizes change between calls
    const auto size_of = [&](int q) { return static_cast<std::size_t>(5 * q + round * (q % 2)); };
    std::vector<std::byte> mine(size_of(g_rank));
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = pattern(g_rank, round, k);
    const std::vector<std::vector<std::byte>> all = t.all_gather(mine);
    if (static_cast<int>(all.size()) != g_ranks) return "all_gather returned " + std::to_string(all.size()) + " parts";
    for (int q = 0; q < g_ranks; ++q) {
      if (all[q].size() != size_of(q)) return "rank " + std::to_string(q) + "'s part has the wrong size";
      for (std::size_t k = 0; k < all[q].size(); ++k)
        if (all[q][k] != pattern(q, round, k)) return "rank " + std::to_string(q) + "'s byte " + std::to_string(k);
    }
  }
  return "";
}

/// exchange: 7 islands, every island sends every other a packet of its own size (0 to 12 bytes, uneven),
/// local and remote alike; each receiver checks the bytes, and bytes_sent counts the remote ones.
std::string check_exchange() {
  constexpr int I = 7;
  islands::mpi_transport t(MPI_COMM_WORLD, I);
  const auto size_of = [](int from, int to) { return static_cast<std::size_t>((from * 5 + to * 3) % 13); };
  int first, last;
  islands::rank_islands(I, g_ranks, g_rank, first, last);
  std::uint64_t remote_bytes = 0;
  for (int round = 0; round < 2; ++round) {
    std::vector<islands::packet> outgoing, incoming;
    for (int i = first; i < last; ++i)
      for (int j = 0; j < I; ++j) {
        if (j == i) continue;
        islands::packet p{i, j, std::vector<std::byte>(size_of(i, j))};
        for (std::size_t k = 0; k < p.bytes.size(); ++k) p.bytes[k] = pattern(i + round, j, k);
        if (t.owner(j) != g_rank) remote_bytes += p.bytes.size();
        outgoing.push_back(std::move(p));
        incoming.push_back({j, i, std::vector<std::byte>(size_of(j, i))});
      }
    t.exchange(outgoing, incoming);
    for (const islands::packet& p : incoming)
      for (std::size_t k = 0; k < p.bytes.size(); ++k)
        if (p.bytes[k] != pattern(p.from + round, p.to, k))
          return "packet " + std::to_string(p.from) + " -> " + std::to_string(p.to) + " byte " + std::to_string(k);
  }
  if (t.bytes_sent() != remote_bytes)
    return "bytes_sent " + std::to_string(t.bytes_sent()) + ", expected " + std::to_string(remote_bytes);
  return "";
}

/// A receive whose size differs from what the sender sent is an error, not silently truncated data.
std::string check_size_mismatch() {
  if (g_ranks < 2) return "";
  islands::mpi_transport t(MPI_COMM_WORLD, g_ranks);  // island q on rank q
  std::vector<islands::packet> outgoing, incoming;
  const int next = (g_rank + 1) % g_ranks, prev = (g_rank + g_ranks - 1) % g_ranks;
  outgoing.push_back({g_rank, next, std::vector<std::byte>(8)});
  incoming.push_back({prev, g_rank, std::vector<std::byte>(prev == 0 ? 4 : 8)});  // island 0's packet: 8, not 4
  try {
    t.exchange(outgoing, incoming);
  } catch (const islands::transport_error& e) {
    if (g_rank != 1) return std::string("rank ") + std::to_string(g_rank) + " threw: " + e.what();
    return std::strstr(e.what(), "MPI_Waitall") || std::strstr(e.what(), "bytes") ? "" : std::string("message: ") + e.what();
  }
  return g_rank == 1 ? "no error for a truncated packet" : "";
}

// --- determinism ------------------------------------------------------------------------------------------

/// Runs `o` over MPI_COMM_WORLD (both APIs: solve_mpi, and solve with island_options::transport) and compares
/// each with the one-process solve with local_transport computed on this rank.
template <class Problem, class Backend>
void same_as_one_process(const std::string& name, const Problem& p, ga_options o, const Backend& backend) {
  for (int I : {4, 5}) {  // 5 over 2 or 4 ranks: uneven blocks
    o.islands.count = I;
    const std::string label = name + ", " + std::to_string(I) + " islands";
    check(label, [&]() -> std::string {
      const Result one = solve(p, o, backend::serial{});
      if (one.islands.size() != static_cast<std::size_t>(I)) return "the one-process run is not an island run";
      const Result over_mpi = solve_mpi(p, o, backend, MPI_COMM_WORLD);
      if (std::string d = result_diff(over_mpi, one); !d.empty()) return "solve_mpi: " + d;
      islands::mpi_transport t(MPI_COMM_WORLD, I);
      islands::transport_ref<islands::mpi_transport> ref(t);
      ga_options with = o;
      with.islands.transport = &ref;
      const Result via_solve = solve(p, with, backend);
      if (std::string d = result_diff(via_solve, one); !d.empty()) return "solve with islands.transport: " + d;
      return "";
    });
  }
}

void determinism() {
  ga_options o;
  o.population = 203;  // not a multiple of 4 or 5: islands of different sizes
  o.generations = 36;  // the last epoch short (M = 5)
  o.seed = 11;
  o.islands.migration.every = 5;
  o.islands.migration.size = 3;
  o.islands.migration.topology = migration_topology::ring;
  same_as_one_process("ring, GA, rastrigin", problems::Rastrigin<double>{10}, o, backend::serial{});

  o.islands.migration.topology = migration_topology::random;
  same_as_one_process("random, GA, constrained quadratic, TBB 2 threads per rank",
                      problems::ConstrainedQuadratic<double>{}, o, backend::tbb{2});

  o.islands.migration.topology = migration_topology::fully_connected;
  o.islands.migration.size = 2;
  same_as_one_process("fully-connected, GA, rastrigin float", problems::Rastrigin<float>{8}, o, backend::serial{});

  ga_options het = o;
  het.islands.migration.topology = migration_topology::ring;
  ga_options ga = het, de = het;
  de.algorithm = algorithm_kind::de;
  het.islands.variants = {ga, de};  // islands 0, 2, 4: GA; 1, 3: DE (SHADE)
  same_as_one_process("ring, heterogeneous GA + DE islands, constrained quadratic",
                      problems::ConstrainedQuadratic<double>{}, het, backend::serial{});

  ga_options budget = o;  // the evaluation budget cuts the last epoch on every rank alike
  budget.stop.evaluations = 203 + 17 * (203 - 5 * 2);
  same_as_one_process("fully-connected, stop.evaluations", problems::Rastrigin<double>{6}, budget, backend::serial{});

  ga_options restarts = het;  // each island restarts on its own, decided alike on every rank, within the budget
  restarts.generations = 120;
  restarts.restarts.stall_generations = 5;
  restarts.stop.evaluations = 15000;
  same_as_one_process("ring, heterogeneous islands with restarts and stop.evaluations",
                      problems::ConstrainedQuadratic<double>{}, restarts, backend::serial{});

  if (g_ranks > 1)
    check("fewer islands than ranks: a config error on every rank", [&]() -> std::string {
      ga_options few = o;
      few.islands.count = g_ranks - 1;
      try {
        solve_mpi(problems::Rastrigin<double>{4}, few, backend::serial{}, MPI_COMM_WORLD);
      } catch (const config_error& e) {
        return std::strstr(e.what(), "ga.islands.count") ? "" : std::string("message: ") + e.what();
      }
      return "no config_error";
    });
}

// --- failure of one rank ----------------------------------------------------------------------------------

/// Rastrigin counting its objective calls in `*calls` (when set) and throwing at the `limit`-th (0: never).
struct failing_rastrigin : problems::Rastrigin<double> {
  std::uint64_t* calls = nullptr;
  std::uint64_t limit = 0;
  template <class X>
  double objective(const X& x) const {
    if (calls && ++*calls >= limit && limit) throw std::runtime_error("objective failed on purpose (test)");
    return problems::Rastrigin<double>::objective(x);
  }
};

void failure() {
  check("island 1 throws at generation 5: every rank ends with an error naming its rank and island",
        [&]() -> std::string {
          ga_options o;
          o.population = 200;
          o.generations = 40;
          o.islands.count = 4;
          o.islands.migration.every = 10;
          const int I = 4, owner = islands::owner_rank(I, g_ranks, 1);
          int first, last;
          islands::rank_islands(I, g_ranks, g_rank, first, last);
          // The serial backend evaluates this rank's islands in order: every initial population, then per
          // epoch each island's M generations. The objective calls of one island's initial population and of
          // one generation (more than its children: the tiles' padding lanes) are counted by dry runs.
          const auto calls_of = [&](int i, int generations) {
            std::uint64_t n = 0;
            failing_rastrigin counter;
            counter.dim = 6;
            counter.calls = &n;
            ga_options one = islands::island_options_for(o, i);
            one.generations = generations;
            solve(counter, one, backend::serial{});
            return n;
          };
          std::uint64_t before = 0;
          for (int i = first; i < last; ++i) before += calls_of(i, 0);
          for (int i = first; i < 1; ++i) before += calls_of(i, 10) - calls_of(i, 0);
          before += calls_of(1, 4) - calls_of(1, 0);  // island 1's generations 1-4
          std::uint64_t calls = 0;
          failing_rastrigin p;
          p.dim = 6;
          p.calls = &calls;
          p.limit = g_rank == owner ? before + 7 : 0;
          try {
            solve_mpi(p, o, backend::serial{}, MPI_COMM_WORLD);
          } catch (const config_error& e) {
            return std::string("a config_error: ") + e.what();
          } catch (const std::runtime_error& e) {
            // The rank where it happened rethrows the exception itself; the others learn of it by its message.
            const std::string expected = g_rank == owner
                                             ? std::string("objective failed on purpose (test)")
                                             : "rank " + std::to_string(owner) + ": island 1: objective failed";
            if (std::string(e.what()).rfind(expected, 0) != 0)
              return std::string("message \"") + e.what() + "\", expected it to start with \"" + expected + "\"";
            if (g_rank == owner && calls != p.limit)
              return "threw after " + std::to_string(calls) + " evaluations, not " + std::to_string(p.limit);
            return "";
          }
          return "the run did not fail";
        });
  // The ranks are still in step after a failed run: a normal run over the same communicator.
  check("a run after the failed one", [&]() -> std::string {
    ga_options o;
    o.population = 120;
    o.generations = 10;
    o.islands.count = 4;
    const Result r = solve_mpi(problems::Rastrigin<double>{4}, o, backend::serial{}, MPI_COMM_WORLD);
    return result_diff(r, solve(problems::Rastrigin<double>{4}, o, backend::serial{}));
  });
}

// --- checkpoints across rank counts -------------------------------------------------------------------------

void checkpoints() {
  ga_options o;  // heterogeneous: GA islands, and SHADE under the ε-constrained method (its state too)
  o.population = 203;
  o.generations = 36;
  o.seed = 11;
  o.islands.count = 4;
  o.islands.migration.every = 5;
  o.islands.migration.size = 2;
  o.islands.migration.topology = migration_topology::random;
  ga_options ga = o, de = o;
  de.algorithm = algorithm_kind::de;
  de.constraints.rule = constraint_rule::epsilon;
  o.islands.variants = {ga, de};
  const problems::ConstrainedQuadratic<double> p;
  const Result one = solve(p, o, backend::serial{});
  std::vector<std::string> written;
  check("checkpoints over R ranks: rank 0 alone writes them, the run unchanged", [&]() -> std::string {
    ga_options w = o;
    w.checkpoint.write = [&](const std::string& bytes) { written.push_back(bytes); };
    w.checkpoint.every_generations = 10;
    if (std::string d = result_diff(solve_mpi(p, w, backend::tbb{2}, MPI_COMM_WORLD), one); !d.empty()) return d;
    const std::size_t expected = g_rank == 0 ? 4 : 0;  // after generations 10, 20, 30, and the last at 36
    if (written.size() != expected)
      return std::to_string(written.size()) + " checkpoints written, expected " + std::to_string(expected);
    return "";
  });
  // Rank 0's checkpoint after generation 20, to every rank (as a shared file system would).
  std::string bytes = written.size() == 4 ? written[1] : std::string();
  unsigned long long size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  bytes.resize(size);
  MPI_Bcast(bytes.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<int> sizes = {1};  // 1, 2 and R ranks, each once
  if (g_ranks >= 2) sizes.push_back(2);
  if (g_ranks > 2) sizes.push_back(g_ranks);
  for (int ranks : sizes) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, g_rank < ranks ? 0 : MPI_UNDEFINED, g_rank, &sub);
    if (sub == MPI_COMM_NULL) continue;
    check("written over " + std::to_string(g_ranks) + ", resumed over " + std::to_string(ranks) +
              " rank(s): the uninterrupted run",
          [&]() -> std::string {
            std::istringstream in(bytes);
            return result_diff(solve_mpi(p, o, backend::serial{}, sub, in, "rank 0's checkpoint"), one, ranks);
          });
    MPI_Comm_free(&sub);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "transport") {
    check("all_gather with uneven and empty payloads", check_all_gather);
    check("exchange with uneven packets, local and remote", check_exchange);
    check("exchange: a packet of the wrong size is an error", check_size_mismatch);
  } else if (mode == "determinism") {
    determinism();
  } else if (mode == "failure") {
    failure();
  } else if (mode == "checkpoint") {
    checkpoints();
  } else {
    if (g_rank == 0) std::fprintf(stderr, "usage: test_mpi_islands transport|determinism|failure|checkpoint\n");
    ++g_failures;
  }
  int failures = 0;
  MPI_Allreduce(&g_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (failures && g_rank == 0) std::fprintf(stderr, "%d check(s) failed over %d ranks\n", failures, g_ranks);
  MPI_Finalize();
  return failures ? 1 : 0;
}
