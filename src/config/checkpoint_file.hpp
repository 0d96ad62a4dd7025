#pragma once
/// @file checkpoint_file.hpp
/// Checkpoints into one file, as ga-run's --checkpoint and Python's solve(checkpoint=...) write them.

#include <functional>
#include <string>

#include "fusedga/engine/options.hpp"

namespace fusedga {

/**
 * Checkpoint options that write each checkpoint to `path` atomically (write_file_atomic): every
 * `every_generations` generations or `every_seconds` seconds, every 60 s when neither is given (both 0). A write
 * that fails does not stop the run: `on_failure(message)` is called, on the thread that drives the engine, and
 * the run goes on (the caller says so once and keeps the result).
 */
checkpoint_options checkpoints_to_file(const std::string& path, int every_generations, double every_seconds,
                                       std::function<void(const std::string& message)> on_failure);

}  // namespace fusedga
