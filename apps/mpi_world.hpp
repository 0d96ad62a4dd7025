#pragma once
// This process's place in an mpirun job, shared by ga-run and ga-bench: MPI started when mpirun started the
// process, every rank's exit status agreed at the end, and no rank left waiting for one that failed alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#if defined(FUSEDGA_HAS_MPI)
#include <mpi.h>
#endif

namespace fusedga::apps {

/// Whether mpirun (Open MPI's, or any PMIx launcher) started this process, from the environment it sets.
inline bool launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK"); }

/// A positive integer environment variable, or `fallback`.
inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n > 0 && n < (1 << 30) ? static_cast<int>(n) : fallback;
}

/// The R ranks of MPI_COMM_WORLD (`mpirun -np R APP ...`); without mpirun (or with R = 1) one rank, no MPI.
struct mpi_world {
  bool active = false;  ///< MPI initialized (a build with MPI, started by mpirun)
  int rank = 0, size = 1;
  int local_size = 1;   ///< ranks on this node (OMPI_COMM_WORLD_LOCAL_SIZE)
  bool agreed = false;  ///< this rank took part in the pre-run agreement
  std::string app = "fusedga";

  /// Starts MPI when mpirun started this process (only the thread that calls solve talks to MPI). Returns 0, or
  /// the exit status 2 with a message when mpirun started several ranks of a build without MPI (each would run
  /// the whole job).
  int init(int& argc, char**& argv, const char* name) {
    app = name;
    if (!launched_by_mpirun()) return 0;
#if defined(FUSEDGA_HAS_MPI)
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    active = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    local_size = env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1);
#else
    (void)argc, (void)argv;
    if (env_int("OMPI_COMM_WORLD_SIZE", 1) > 1) {
      std::fprintf(stderr, "%s: started by mpirun with %d ranks, but this %s was built without MPI: every rank would "
                   "run the whole job; rebuild with Open MPI (apt-get install libopenmpi-dev openmpi-bin) or run it "
                   "without mpirun\n", name, env_int("OMPI_COMM_WORLD_SIZE", 1), name);
      return 2;
    }
#endif
    return 0;
  }

  /// Every rank's `code`'s maximum (collective): whether any rank failed before the run, or how the run ended.
  int agree(int code) {
#if defined(FUSEDGA_HAS_MPI)
    if (active) {
      int all = code;
      MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      return all;
    }
#endif
    return code;
  }

  /// The end-of-run agreement of a rank whose run failed (`code` != 0). A failure inside the island model reaches
  /// every rank at an epoch's gather, so all of them get here within moments; one before the islands started
  /// (this node's JIT compiler missing, say) leaves the others waiting for this rank in the first gather, forever.
  /// So a failed rank waits `patience_s` for the others, then aborts the job (mpirun ends every rank).
  int agree_or_abort(int code, double patience_s) {
#if defined(FUSEDGA_HAS_MPI)
    if (active && size > 1 && code != 0) {
      int all = code;
      MPI_Request request;
      MPI_Iallreduce(&code, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(patience_s);
      for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) break;
        if (std::chrono::steady_clock::now() > deadline) {
          std::fprintf(stderr, "%s[rank %d]: the other ranks did not end with this one (they wait for it in the "
                       "run): aborting every rank\n", app.c_str(), rank);
          std::fflush(stderr);
          MPI_Abort(MPI_COMM_WORLD, code);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      return all;
    }
#else
    (void)patience_s;
#endif
    return agree(code);
  }

  /// The exit status every rank returns: the agreed one (a rank that left before the pre-run agreement takes
  /// part in it first); ends MPI.
  int finish(int code) {
#if defined(FUSEDGA_HAS_MPI)
    if (active) {
      if (!agreed) code = std::max(code, agree(code));
      code = agree_or_abort(code, 10.0);
      MPI_Finalize();
    }
#endif
    return code;
  }
};

}  // namespace fusedga::apps
