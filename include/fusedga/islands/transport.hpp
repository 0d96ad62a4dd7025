#pragma once
/// @file transport.hpp
/// How the island model's ranks talk (islands/solve_islands.hpp). **Transport** (named requirement), for
/// `t` a `T&`:
///
/// - `t.rank()`, `t.ranks()`: this process's rank r and the rank count R >= 1 (ints).
/// - `t.all_gather(mine)` -> `std::vector<std::vector<std::byte>>`: every rank's `mine` (any length,
///   lengths may differ), indexed by rank, on every rank. Collective: every rank calls it, in the same order.
/// - `t.exchange(outgoing, incoming)`: migrant packets. `outgoing` holds the packets this rank's islands
///   send (`from`, `to`, `bytes`); `incoming` lists the packets this rank's islands receive, `from`, `to` and
///   `bytes.size()` set; the call fills their bytes, whether the sender is local or on another rank.
///   Collective as all_gather.
///
/// Every call returns only when its data is complete (synchronous epochs). A transport reports a failure of
/// its own (a lost rank) by throwing; the run's own failures travel inside all_gather (solve_islands.hpp), so
/// every rank ends with the same error and none waits for a rank that gave up.
/// `local_transport` is the one-process transport; islands/mpi_transport.hpp the MPI one.

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace fusedga::islands {

/// Migrants sent by island `from` to island `to` at one epoch: `bytes` is their rows as solve_islands packs them.
struct packet {
  int from = 0;
  int to = 0;
  std::vector<std::byte> bytes;
};

/// All islands in this process (R = 1): all_gather returns `mine`; exchange copies each packet to its receiver.
class local_transport {
 public:
  int rank() const { return 0; }
  int ranks() const { return 1; }
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) const { return {mine}; }
  void exchange(const std::vector<packet>& outgoing, std::vector<packet>& incoming) const {
    for (packet& in : incoming) {
      bool found = false;
      for (const packet& out : outgoing)
        if (out.from == in.from && out.to == in.to && out.bytes.size() == in.bytes.size()) {
          in.bytes = out.bytes;
          found = true;
          break;
        }
      if (!found) throw std::logic_error("islands: a migrant packet expected was not sent");
    }
  }
};

}  // namespace fusedga::islands
