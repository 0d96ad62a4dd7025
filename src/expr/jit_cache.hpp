#pragma once
// The JITs' object cache: where it lives, that it is private, the SHA-256
// digests behind its keys and integrity checks, reading an entry without
// following links or trusting foreign files, compiling into it, and loading
// checked bytes; the FusedGA headers generated code compiles against.
// Private to the runtime (src/expr/, src/cuda/). The rules are documented in
// docs/expressions.md, "Caching and its security checks".

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusedga::expr::detail {

/// Lower-case hex SHA-256 of `bytes` (64 digits).
std::string sha256_hex(const std::string& bytes);

/// SHA-256 of a file's contents, or "" when it cannot be read (read_file).
std::string sha256_file(const std::string& path);

/// Whether `sidecar` records `digest` (an entry of either JIT's cache is used only then).
bool digest_recorded(const std::string& sidecar, const std::string& digest);

/// Records `digest` in `sidecar` ("<hex>\n", written atomically).
void record_digest(const std::string& sidecar, const std::string& digest);

bool file_exists(const std::string& path);

/// A file's whole contents; "" when it cannot be opened or read (a directory included). Never throws.
std::string read_file(const std::string& path);

/// A cache entry as read by read_cache_entry.
struct cache_entry {
  bool present = false;  ///< something is at the path (a file, link, directory, ...)
  std::string bytes;     ///< its contents, when usable
  std::string refused;   ///< why it must not be used ("" = usable): "is a symbolic link", "is a directory", ...
};

/**
 * Reads the cache entry `path` for use: opened with O_NOFOLLOW (a symbolic
 * link is refused, never followed), then checked on the open descriptor to be
 * a regular file owned by this user and writable by nobody else, then read
 * whole. Never throws; an entry that is absent has present = false.
 */
cache_entry read_cache_entry(const std::string& path);

/// Receives the cache's one-line notices (a refused entry, an object that could not be published).
using notice_function = std::function<void(const std::string&)>;

/**
 * The verified bytes of the cached object `object`: read with
 * read_cache_entry, and used only when its SHA-256 equals the one recorded in
 * `sidecar` ("<hex>\n") and its bytes contain the text of `key` (which the
 * module's key function returns; checked here, before anything is loaded).
 * An entry that does not carry its key, or an entry or
 * sidecar that is refused (a link, a directory, a foreign or group/other-writable
 * file, unreadable) is removed (unlinked; a directory tree of ours removed)
 * and reported by `notice` in one line naming the file; a digest mismatch is
 * silently a miss. An empty `key` skips the key check (the GPU JIT's cubins
 * do not carry it; they are loaded by the CUDA driver, which runs no host code
 * from them). Never throws.
 */
std::optional<std::string> verified_entry(const std::string& object, const std::string& sidecar, const std::string& key,
                                          const std::string& what, const notice_function& notice);

/**
 * Publishes `bytes` as the cache entry `object` (written atomically, mode
 * 0644), then their digest into `sidecar` (after it, so a reader never pairs a
 * new digest with an old object). A failure (a directory in the way that could
 * not be removed, a full disk) is said by `notice` in one line ("<what> cache:
 * compiled, but ...; using it uncached"): the caller uses its bytes anyway.
 * Never throws.
 */
void publish_entry(const std::string& object, const std::string& sidecar, const std::string& bytes,
                   const std::string& what, const notice_function& notice);

/// What cached_or_build returns: the bytes to use, and whether they came from the cache.
struct cached_bytes {
  std::string bytes;
  bool hit = false;
};

/**
 * The cache's lookup-or-build of an entry that is used from memory (the GPU
 * JIT's cubin): the bytes verified_entry checked (links, foreign owners,
 * group/other-writable files and directories refused and removed, the digest
 * of these very bytes compared with `sidecar`), or on a miss the bytes of
 * `build()` (compile and link), published by publish_entry. The bytes
 * returned are exactly those checked or built, never read again.
 * @throws whatever `build` throws.
 */
cached_bytes cached_or_build(const std::string& object, const std::string& sidecar, const std::string& key,
                             const std::string& what, const notice_function& notice,
                             const std::function<std::string()>& build);

/// A shared object loaded by dlopen_bytes; dlclose'd (and its memfd closed) with the last owner.
using module_ptr = std::shared_ptr<void>;

/**
 * Loads the shared object whose bytes are `bytes` without reading any file
 * again: the bytes go into an anonymous memfd, which is dlopen'ed as
 * /proc/self/fd/N (RTLD_NOW | RTLD_LOCAL), so the code that runs (its
 * constructors included) is exactly what was checked. Null with the reason
 * in `why` when it cannot be loaded.
 */
module_ptr dlopen_bytes(const std::string& bytes, std::string* why);

/// The FusedGA headers to compile generated code against: the source tree
/// while it exists (build tree, tests), else the installed copy; empty when neither is there.
std::vector<std::string> default_include_dirs();

/// `configured` if not empty, else $XDG_CACHE_HOME/fusedga, else $HOME/.cache/fusedga.
/// @throws fusedga::error when neither variable is set (and nothing was configured).
std::string cache_directory(const std::string& configured);

/**
 * Opens the cache `dir`: creates it (and missing parents) with mode 0700 and
 * checks that it is a directory owned by this user with no group or other
 * permissions: objects in it are loaded into the process, so nobody else may
 * write there. Then removes stale compile temporaries (remove_stale_compiles).
 * @throws fusedga::error naming the directory and what is wrong.
 */
void ensure_private_directory(const std::string& dir);

/// What makes `dir` unfit to be the cache (it cannot be stat'ed, is not a directory, is another user's, or has
/// group or other permissions), as "PATH is ..." for an error message; empty when it is private.
std::string private_directory_problem(const std::string& dir);

/**
 * Removes the compile temporaries `KEY.tmp-HOST-PID-XXXXXX` (directories, and
 * the older `KEY.tmp-PID-N.{cpp,so}` files) in `dir` that a killed compile
 * left: those of this host whose PID names no live process, and any older
 * than `max_age_s`. Only entries owned by this user; links are unlinked, never
 * followed. Returns how many were removed; never throws.
 */
int remove_stale_compiles(const std::string& dir, double max_age_s = 3600);

/**
 * Compiles `source` and returns the object's bytes: `compiler`, then `args`
 * (flags, -I, -D), then `-o OBJ fusedga_jit.cpp` and `libraries`, run in a
 * private temporary directory `KEY.tmp-HOST-PID-XXXXXX` inside the cache (a
 * fixed source name, so no temporary name ends up in the object and two
 * processes compiling the same key produce the same bytes). The object is
 * then published into `object` by rename, and its digest into `object`'s
 * `.sha256` sidecar by rename after it; when that fails (the entry is a
 * directory, the disk is full) the bytes are still returned and `notice`
 * says so in one line. Errors name `what` and `subject` ("JIT: compiling the
 * generated problem failed (...)").
 * When `interrupt` becomes true while the compiler runs, the compiler's
 * process group is terminated and fusedga::interrupted is thrown (also when
 * the compiler itself dies of SIGINT, as at a Ctrl-C in a terminal).
 * @throws error when the source cannot be written or the compiler fails (its
 *         output, at most 8,000 characters, included).
 * @throws interrupted as above.
 */
std::string compile_object(const std::string& what, const std::string& subject, const std::string& compiler,
                           const std::vector<std::string>& args, const std::vector<std::string>& libraries,
                           const std::string& source, const std::string& object,
                           const std::atomic<bool>* interrupt = nullptr, const notice_function& notice = {});

}  // namespace fusedga::expr::detail
