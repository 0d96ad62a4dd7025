#pragma once
/// @file bytes_model.hpp
/// The memory-traffic model behind ga-bench's bandwidth columns and its
/// memory estimates. All sizes are bytes; all functions are pure and O(1).

#include <cstddef>
#include <cstdint>

namespace fusedga {

/// Sizes of one individual's stored parts, in bytes (d genes, objective and violation, rank key).
struct record_layout {
  int dimension = 1;             ///< d, genes per individual
  std::size_t gene_bytes = 8;    ///< sizeof(gene)
  std::size_t fitness_bytes = 8; ///< sizeof(objective) = sizeof(violation)
  std::size_t key_bytes = 8;     ///< sizeof(rank key)

  /// d·gene + 2·fitness + key: one population row with its three scalars.
  std::uint64_t row_bytes() const {
    return static_cast<std::uint64_t>(dimension) * gene_bytes + 2 * fitness_bytes + key_bytes;
  }
};

/// Bytes a pass must move at least: read from and written to memory (STREAM counting).
struct traffic {
  std::uint64_t read = 0;     ///< bytes
  std::uint64_t written = 0;  ///< bytes
  std::uint64_t total() const { return read + written; }
};

/**
 * Evaluation of N individuals: reads N·d·gene bytes, writes
 * N·(2·fitness + key) bytes (objective, violation, rank key).
 */
inline traffic evaluation_traffic(const record_layout& r, std::size_t population) {
  const std::uint64_t n = population;
  return {n * static_cast<std::uint64_t>(r.dimension) * r.gene_bytes, n * (2 * r.fitness_bytes + r.key_bytes)};
}

/**
 * One generation of N individuals with E elites and tournament size k:
 * each of the N − E children reads its 2 parents (2·d·gene) and 2k rank keys
 * (k per tournament) and writes itself (d·gene + 2·fitness + key); each elite
 * row is read and written once (d·gene + 2·fitness + key each way).
 * Random gathers move whole cache lines in reality; the model counts only the
 * bytes used, so it is a lower bound on the traffic.
 */
inline traffic generation_traffic(const record_layout& r, std::size_t population, std::size_t elitism,
                                  int tournament_size) {
  const std::uint64_t children = population > elitism ? population - elitism : 0;
  const std::uint64_t genome = static_cast<std::uint64_t>(r.dimension) * r.gene_bytes;
  const std::uint64_t keys = 2 * static_cast<std::uint64_t>(tournament_size) * r.key_bytes;
  traffic t;
  t.read = children * (2 * genome + keys) + elitism * r.row_bytes();
  t.written = children * r.row_bytes() + elitism * r.row_bytes();
  return t;
}

/// Memory of an engine's two populations (double buffering), each (N+1) rows: 2·(N+1)·row_bytes.
inline std::uint64_t engine_memory_bytes(const record_layout& r, std::size_t population) {
  return 2 * (static_cast<std::uint64_t>(population) + 1) * r.row_bytes();
}

/// Memory of the object tier's rows: N·(8·d + 24 + 32) — a vector<double> of d
/// genes (24-byte header) per individual plus about 32 bytes of heap overhead
/// and fitness slot.
inline std::uint64_t object_tier_memory_bytes(const record_layout& r, std::size_t population) {
  return static_cast<std::uint64_t>(population) * (8 * static_cast<std::uint64_t>(r.dimension) + 24 + 32);
}

/// The model above in one paragraph, for reports.
inline const char* bytes_model_text() {
  return "bytes model (minimum traffic, STREAM counting: bytes read + bytes written): "
         "evaluation reads N*d*gene and writes N*(2*fitness + key); "
         "a generation reads, per child (N - E children), 2 parents (2*d*gene) and 2k rank keys "
         "(k = tournament size) and writes the child (d*gene + 2*fitness + key), and copies the E elites "
         "(read + write of d*gene + 2*fitness + key each). The same model is used for every tier, so "
         "GB/s of the object and unfused tiers is the effective rate, not their real (larger) traffic.";
}

}  // namespace fusedga
