#pragma once
/// @file mpi_transport.hpp
/// The island model across processes: `islands::mpi_transport`, a Transport (islands/transport.hpp) over an
/// MPI communicator, and `fusedga::solve_mpi`, the island model over a communicator (embedding). Needs <mpi.h>
/// (a build with MPI, FUSEDGA_HAS_MPI): no other public header includes this one.
///
/// Cost per epoch: one MPI_Allgather of R sizes + one MPI_Allgatherv of the islands' records (islands/
/// solve_islands.hpp), then one nonblocking message per migrant packet whose islands live on different ranks:
/// K · (d · sizeof(gene) + 2 · sizeof(fitness)) bytes each.

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/result.hpp"
#include "fusedga/islands/migration.hpp"
#include "fusedga/islands/solve_islands.hpp"
#include "fusedga/islands/transport.hpp"

namespace fusedga::islands {

/// A failure of MPI itself (a call returned an error): the message names the call and carries MPI's error
/// string. Unlike a run's own failures it may reach one rank only; ga-run then calls MPI_Abort.
class transport_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Throws transport_error for an MPI return code other than MPI_SUCCESS.
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw transport_error(std::string("islands: ") + call + " failed: " +
                        (length > 0 ? std::string(text, static_cast<std::size_t>(length)) : "error " + std::to_string(rc)));
}

/// A byte count as MPI's int count. @throws transport_error above INT_MAX.
inline int mpi_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw transport_error(std::string("islands: ") + what + " of " + std::to_string(n) + " bytes exceeds one MPI message");
  return static_cast<int>(n);
}
}  // namespace detail

/**
 * A Transport over an MPI communicator of R ranks running `islands` islands in rank_islands' blocks (rank r runs
 * islands [first, last)). The constructor duplicates the communicator (collective over it: every rank constructs
 * one, in the same order), so the run's messages never match the caller's, and sets MPI_ERRORS_RETURN on the
 * duplicate: a failing MPI call throws transport_error with MPI's error string instead of aborting.
 *
 * - all_gather: MPI_Allgather of the byte counts, then MPI_Allgatherv of the bytes.
 * - exchange: MPI_Irecv for each incoming packet whose sender island lives on another rank, MPI_Isend for each
 *   outgoing packet whose receiver lives on another rank, both tagged from · islands + to (unique per island
 *   pair), then MPI_Waitall; packets between islands of this rank are copied. A received size other than the
 *   expected one throws transport_error.
 *
 * Needs MPI initialized (MPI_Init / MPI_Init_thread, any thread level: only the thread that calls solve talks
 * to MPI) and not yet finalized while it lives. Not thread-safe; not copyable.
 * @throws std::invalid_argument for islands < 1; transport_error when islands² exceeds MPI_TAG_UB.
 */
class mpi_transport {
 public:
  mpi_transport(MPI_Comm comm, int islands) : islands_(islands) {
    if (islands < 1) throw std::invalid_argument("islands::mpi_transport: islands must be >= 1");
    detail::mpi_check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    try {
      detail::mpi_check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
      detail::mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
      detail::mpi_check(MPI_Comm_size(comm_, &ranks_), "MPI_Comm_size");
      void* value = nullptr;
      int found = 0;
      detail::mpi_check(MPI_Comm_get_attr(comm_, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr(MPI_TAG_UB)");
      const long long tag_ub = found ? *static_cast<int*>(value) : 32767;  // the standard's guaranteed minimum
      if (static_cast<long long>(islands) * islands - 1 > tag_ub)
        throw transport_error("islands::mpi_transport: " + std::to_string(islands) +
                              " islands need more message tags than this MPI's MPI_TAG_UB (" + std::to_string(tag_ub) + ")");
    } catch (...) {
      MPI_Comm_free(&comm_);
      throw;
    }
  }
  mpi_transport(const mpi_transport&) = delete;
  mpi_transport& operator=(const mpi_transport&) = delete;
  ~mpi_transport() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  /// The rank that runs island i (owner_rank).
  int owner(int island) const { return owner_rank(islands_, ranks_, island); }
  /// Bytes this rank sent to other ranks in exchange() so far (migrants only, not the all_gather).
  std::uint64_t bytes_sent() const { return bytes_sent_; }

  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) const {
    const int n = detail::mpi_count(mine.size(), "an epoch record");
    std::vector<int> counts(static_cast<std::size_t>(ranks_)), displs(static_cast<std::size_t>(ranks_));
    detail::mpi_check(MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    std::size_t total = 0;
    for (int q = 0; q < ranks_; ++q) {
      displs[q] = detail::mpi_count(total, "the epoch's records");
      total += static_cast<std::size_t>(counts[q]);
    }
    detail::mpi_count(total, "the epoch's records");
    std::vector<std::byte> all(total);
    detail::mpi_check(MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, comm_),
                      "MPI_Allgatherv");
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(ranks_));
    for (int q = 0; q < ranks_; ++q)
      out[q].assign(all.begin() + displs[q], all.begin() + displs[q] + counts[q]);
    return out;
  }

  void exchange(const std::vector<packet>& outgoing, std::vector<packet>& incoming) {
    std::vector<MPI_Request> requests;
    requests.reserve(outgoing.size() + incoming.size());
    std::vector<std::size_t> received;  // indices into incoming of the posted receives, in request order
    // A failure part way: cancel and complete what was posted, so no request outlives its buffer.
    const auto abandon = [&] {
      for (MPI_Request& q : requests)
        if (q != MPI_REQUEST_NULL) MPI_Cancel(&q);
      if (!requests.empty()) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    };
    try {
      for (std::size_t j = 0; j < incoming.size(); ++j) {
        packet& in = incoming[j];
        check_island(in.from, "incoming");
        if (owner(in.to) != rank_) throw std::logic_error("islands::mpi_transport: an incoming packet is for another rank");
        if (owner(in.from) == rank_) {
          copy_local(outgoing, in);
          continue;
        }
        requests.emplace_back();
        detail::mpi_check(MPI_Irecv(in.bytes.data(), detail::mpi_count(in.bytes.size(), "a migrant packet"), MPI_BYTE,
                                    owner(in.from), tag(in.from, in.to), comm_, &requests.back()),
                          "MPI_Irecv");
        received.push_back(j);
      }
      for (const packet& out : outgoing) {
        check_island(out.to, "outgoing");
        if (owner(out.from) != rank_) throw std::logic_error("islands::mpi_transport: an outgoing packet is from another rank");
        if (owner(out.to) == rank_) continue;
        requests.emplace_back();
        // MPI_Isend takes a non-const buffer in MPI-2 headers; it only reads it.
        detail::mpi_check(MPI_Isend(const_cast<std::byte*>(out.bytes.data()), detail::mpi_count(out.bytes.size(), "a migrant packet"),
                                    MPI_BYTE, owner(out.to), tag(out.from, out.to), comm_, &requests.back()),
                          "MPI_Isend");
        bytes_sent_ += out.bytes.size();
      }
    } catch (...) {
      abandon();
      throw;
    }
    std::vector<MPI_Status> status(requests.size());
    const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), status.data());
    if (rc == MPI_ERR_IN_STATUS) {
      for (const MPI_Status& s : status) detail::mpi_check(s.MPI_ERROR, "MPI_Waitall (a migrant message)");
    }
    detail::mpi_check(rc, "MPI_Waitall");
    for (std::size_t q = 0; q < received.size(); ++q) {  // receives come first in requests
      int count = 0;
      detail::mpi_check(MPI_Get_count(&status[q], MPI_BYTE, &count), "MPI_Get_count");
      const packet& in = incoming[received[q]];
      if (static_cast<std::size_t>(count) != in.bytes.size())
        throw transport_error("islands: the packet from island " + std::to_string(in.from) + " to island " +
                              std::to_string(in.to) + " has " + std::to_string(count) + " bytes, expected " +
                              std::to_string(in.bytes.size()));
    }
  }

 private:
  int tag(int from, int to) const { return from * islands_ + to; }
  void check_island(int i, const char* what) const {
    if (i < 0 || i >= islands_)
      throw std::logic_error(std::string("islands::mpi_transport: an ") + what + " packet names island " +
                             std::to_string(i) + " of " + std::to_string(islands_));
  }
  static void copy_local(const std::vector<packet>& outgoing, packet& in) {
    for (const packet& out : outgoing)
      if (out.from == in.from && out.to == in.to && out.bytes.size() == in.bytes.size()) {
        in.bytes = out.bytes;
        return;
      }
    throw std::logic_error("islands: a migrant packet expected was not sent");
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int islands_ = 1;
  int rank_ = 0, ranks_ = 1;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace fusedga::islands

namespace fusedga {

/**
 * The island model of `options.islands` over the ranks of `comm` (embedding: solve inside an MPI program):
 * every rank of `comm` calls it with the same problem and options; rank r runs its block of islands
 * (islands::rank_islands) on `backend` (its own TBB arena, or its GPU). Returns the same Result on every
 * rank — bitwise the one `solve` returns in one process for the same island count (wall-clock fields aside).
 * It always runs the island model, even for one island on one rank (then use `solve`). Collective over
 * `comm`; `options.islands.transport` is ignored.
 *
 * @throws config_error on every rank as islands::solve_islands (islands.count below the rank count included);
 *         std::runtime_error on every rank, naming the rank and island, when a rank's island fails (its
 *         problem throws); islands::transport_error when an MPI call fails (possibly on one rank only).
 */
template <class Problem, class Backend>
Result solve_mpi(const Problem& problem, const ga_options& options, const Backend& backend, MPI_Comm comm) {
  islands::validate_islands(options);  // before the transport: a bad count is a config_error, not invalid_argument
  islands::mpi_transport transport(comm, options.islands.count);
  return islands::solve_islands(problem, options, backend, transport);
}

/**
 * Resumes over the ranks of `comm` the island-model run whose checkpoint every rank reads from `checkpoint`
 * (written by a run of solve_mpi or solve with `options.checkpoint`, over any rank count) and continues it to
 * its end: bitwise the result of the run uninterrupted (wall-clock fields aside). Collective over `comm`.
 * @throws checkpoint_error (a config_error) on every rank when the stream is not a checkpoint of this run;
 *         everything solve_mpi throws.
 */
template <class Problem, class Backend>
Result solve_mpi(const Problem& problem, const ga_options& options, const Backend& backend, MPI_Comm comm,
                 std::istream& checkpoint, const std::string& source = "checkpoint") {
  islands::validate_islands(options);
  detail::checkpoint_reader resume(checkpoint, source);
  islands::mpi_transport transport(comm, options.islands.count);
  return islands::solve_islands(problem, options, backend, transport, {}, &resume);
}

}  // namespace fusedga
