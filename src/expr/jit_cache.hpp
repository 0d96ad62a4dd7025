#pragma once
// The JITs' object cache: where it lives, that it is private, and the
// SHA-256 digests behind its keys and integrity checks; the FusedGA headers
// generated code compiles against. Private to the runtime (src/expr/, src/cuda/).

#include <string>
#include <vector>

namespace fusedga::expr::detail {

/// Lower-case hex SHA-256 of `bytes` (64 digits).
std::string sha256_hex(const std::string& bytes);

/// SHA-256 of a file's contents, or "" when it cannot be read.
std::string sha256_file(const std::string& path);

/// Whether `sidecar` records `digest` (an entry of either JIT's cache is used only then).
bool digest_recorded(const std::string& sidecar, const std::string& digest);

/// Records `digest` in `sidecar` ("<hex>\n", written atomically).
void record_digest(const std::string& sidecar, const std::string& digest);

bool file_exists(const std::string& path);

/// A file's whole contents ("" when it cannot be read).
std::string read_file(const std::string& path);

/// The FusedGA headers to compile generated code against: the source tree
/// while it exists (build tree, tests), else the installed copy; empty when neither is there.
std::vector<std::string> default_include_dirs();

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

/**
 * Compiles `source` into the cache object `object` — `compiler`, then `args` (flags, -I, -D), then
 * `-o TEMP SOURCE` and `libraries` — via a per-process temporary and a rename, and records the
 * object's digest beside it (KEY.sha256). Errors name `subject` ("JIT: compiling the generated
 * problem failed (...)" for subject "problem", "Jacobian JIT" ... for what = "Jacobian JIT").
 * @throws error when the source cannot be written, the compiler fails (its output, at most 8,000
 *         characters, included) or the object cannot be moved into place.
 */
void compile_object(const std::string& what, const std::string& subject, const std::string& compiler,
                    const std::vector<std::string>& args, const std::vector<std::string>& libraries,
                    const std::string& source, const std::string& object);

}  // namespace fusedga::expr::detail
