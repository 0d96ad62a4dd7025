#pragma once
/// @file distinct_files.hpp
/// The files a run reads and writes, checked before it starts: no output may replace another or an input.

#include <optional>
#include <string>

namespace fusedga {

/// Whether paths `a` and `b` name one file: the same existing file (std::filesystem::equivalent: symbolic and
/// hard links too), else the same weakly_canonical path (`.`/`..` resolved), or as spelled where the file
/// system cannot say.
bool same_file(const std::string& a, const std::string& b);

/// `path` made absolute and normal ("" stays ""), for a checkpoint resumed from another directory.
std::string absolute_path(const std::string& path);

/// A run's files; an empty optional or string is none.
struct run_files {
  std::optional<std::string> result, history;  ///< outputs: the result JSON and the history CSV
  std::string checkpoint;                      ///< output: the checkpoint written
  std::string config;                          ///< input: the config file
  std::string resumed;                         ///< input: the checkpoint resumed from
};

/// How messages name the outputs (ga-run's flags, or Python's arguments).
struct run_file_labels {
  std::string result = "the result (--out / output.result)";
  std::string history = "the history (--history / output.history)";
  std::string checkpoint = "the checkpoint (--checkpoint)";
};

/**
 * Throws config_error when one file would be written twice (the second write would replace the first) or an
 * output would replace an input: the result, the history and the checkpoint must be three files, none of them
 * the config; the result and the history must not be the checkpoint resumed from, which the checkpoint itself
 * may be (a resumed run goes on writing its own checkpoint). Reads the file system only.
 */
void check_distinct_files(const run_files& files, const run_file_labels& labels = {});

}  // namespace fusedga
