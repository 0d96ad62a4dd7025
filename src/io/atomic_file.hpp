#pragma once
/// @file atomic_file.hpp
/// Writing output files so that a reader never sees half of one.

#include <string>

namespace fusedga {

/**
 * Writes `content` to `path` atomically: into a temporary file in the same
 * directory (`PATH.tmp.PID.XXXXXX`), flushed and fsync'ed, then renamed over `path`. On any failure
 * the temporary is removed and `path` is left as it was. Temporaries of `path` left by a writer that was
 * killed (SIGKILL) are removed first (remove_stale_temporaries). A symbolic link is followed: its target is
 * written, the link stays. A device or FIFO (`/dev/null`) is written in place, not replaced.
 * @throws fusedga::error naming the path and the system error.
 */
void write_file_atomic(const std::string& path, const std::string& content);

/**
 * Checks, before any work, that `write_file_atomic(path, ...)` can succeed: creates and removes the temporary
 * file it would create beside `path` (beside a symbolic link's target), and refuses an empty `path`, a directory,
 * a path whose directory does not exist and a dangling symbolic link; a device or FIFO needs write permission.
 * Leaves no file behind.
 * @throws fusedga::error naming the path and the system error.
 */
void check_writable(const std::string& path);

/**
 * Removes the temporaries `PATH.tmp.PID.XXXXXX` beside `path` whose writer is gone: PID names no live process
 * (kill(PID, 0) fails with ESRCH), and the file is a regular file (not a symlink) owned by this user. A live
 * writer's temporary, and anything else, is left alone. Returns how many were removed; never throws.
 */
int remove_stale_temporaries(const std::string& path);

}  // namespace fusedga
