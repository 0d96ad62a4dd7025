#pragma once
/// @file report_staging.hpp
/// A report directory written whole beside its destination and swapped in at
/// once, so that a reader, or a writer killed at any instant (SIGKILL), leaves
/// the old report or the new one, never a mix (issue 16, item 2).

#include <filesystem>
#include <string>
#include <vector>

namespace fusedga {

/**
 * A private staging directory `.NAME.tmp-PID-XXXXXX` beside `target` (same
 * file system, so the swap is one rename). Write the new report into path(),
 * then commit(). Not thread-safe; one writer per target at a time (a second
 * concurrent writer's swap wins, whole).
 *
 * **Example**
 * ```cpp
 * staged_directory stage("out/report");
 * write(stage.path() / "report.md", text);
 * stage.commit({"report.md", "time.svg"});
 * ```
 */
class staged_directory {
 public:
  /// Removes what killed writers left beside `target` (remove_stale_staging), then creates the staging directory.
  /// @throws fusedga::error when it cannot be created.
  explicit staged_directory(const std::filesystem::path& target);
  /// Removes the staging directory (with the old report after a commit); never throws.
  ~staged_directory();
  staged_directory(const staged_directory&) = delete;
  staged_directory& operator=(const staged_directory&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /**
   * Makes the staged directory `target`. A new target appears by one rename.
   * An existing one is replaced whole: its entries not named in `replaced`
   * (files of a previous report that this one does not write) are kept, hard
   * linked (directories recreated) into the staging directory, which then
   * takes the old directory's permissions and is exchanged with it in one
   * step (Linux renameat2 RENAME_EXCHANGE; where the file system refuses it,
   * two renames, and a kill between them is undone by the next writer's
   * remove_stale_staging); the old directory is removed after. An existing
   * target that is a symlink to a directory has the directory it names replaced.
   * @throws fusedga::error, with `target` unchanged, when a name in `replaced`
   *         is taken by something that is not a file or symlink, or an entry
   *         cannot be kept (a hard link refused: another file system, a
   *         special file), or a rename fails.
   */
  void commit(const std::vector<std::string>& replaced);

 private:
  std::filesystem::path target_;
  std::filesystem::path path_;
};

/**
 * Cleans what a writer of `target` killed by SIGKILL left beside it: staging
 * directories `.NAME.tmp-PID-XXXXXX` (and `...XXXXXX.old`, an old report set
 * aside by the two-rename fallback) whose PID names no live process
 * (kill(PID, 0) fails with ESRCH), that are directories (not symlinks) owned
 * by this user. A set-aside old report is renamed back to `target` when
 * `target` is missing (the kill came between its two renames), else removed.
 * Anything else is left alone. Returns how many were removed or restored; never throws.
 */
int remove_stale_staging(const std::filesystem::path& target);

}  // namespace fusedga
