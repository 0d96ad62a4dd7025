#pragma once
// The CPU JIT's object cache: where it lives, that it is private, and the
// SHA-256 digests behind its keys and integrity checks. Private to src/expr/.

#include <string>

namespace fusedga::expr::detail {

/// Lower-case hex SHA-256 of `bytes` (64 digits).
std::string sha256_hex(const std::string& bytes);

/// SHA-256 of a file's contents, or "" when it cannot be read.
std::string sha256_file(const std::string& path);

/// `configured` if not empty, else $XDG_CACHE_HOME/fusedga, else $HOME/.cache/fusedga.
/// @throws fusedga::error when neither variable is set (and nothing was configured).
std::string cache_directory(const std::string& configured);

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that it is a
 * directory owned by this user with no group or other permissions: objects
 * in it are loaded into the process, so nobody else may write there.
 * @throws fusedga::error naming the directory and what is wrong.
 */
void ensure_private_directory(const std::string& dir);

}  // namespace fusedga::expr::detail
