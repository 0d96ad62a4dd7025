#pragma once
/// @file atomic_file.hpp
/// Writing output files so that a reader never sees half of one.

#include <string>

namespace fusedga {

/**
 * Writes `content` to `path` atomically: into a temporary file in the same
 * directory, flushed and fsync'ed, then renamed over `path`. On any failure
 * the temporary is removed and `path` is left as it was.
 * @throws fusedga::error naming the path and the system error.
 */
void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace fusedga
