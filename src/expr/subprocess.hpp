#pragma once
// Running the JIT's compiler: posix_spawn with an argument vector (no shell,
// so nothing in an argument is ever interpreted), output captured.
// Private to src/expr/.

#include <string>
#include <vector>

namespace fusedga::expr::detail {

struct process_result {
  int exit_code = -1;  ///< the exit status; -1 when it did not exit normally (signal)
  std::string output;  ///< stdout and stderr, interleaved as written
};

/// The executable `name` resolves to: itself when it contains '/', else the
/// first executable match in $PATH; "" when none.
std::string resolve_executable(const std::string& name);

/**
 * Runs `argv[0]` (an absolute or relative path; no PATH search) with `argv`,
 * stdin from /dev/null, and waits for it. Thread-safe.
 * @throws fusedga::error when the process cannot be started.
 */
process_result run_process(const std::vector<std::string>& argv);

}  // namespace fusedga::expr::detail
