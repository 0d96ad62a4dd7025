#pragma once
// Running the JIT's compiler: posix_spawn with an argument vector (no shell,
// so nothing in an argument is ever interpreted), output captured.
// Private to src/expr/.

#include <atomic>
#include <string>
#include <vector>

namespace fusedga::expr::detail {

struct process_result {
  int exit_code = -1;     ///< the exit status; -1 when it did not exit normally (signal)
  int term_signal = 0;    ///< the signal that ended it, 0 when it exited
  bool interrupted = false;  ///< `interrupt` became true and the process group was terminated
  std::string output;     ///< stdout and stderr, interleaved as written
};

/// The executable `name` resolves to: itself when it contains '/', else the
/// first executable match in $PATH; "" when none.
std::string resolve_executable(const std::string& name);

/**
 * Runs `argv[0]` (an absolute or relative path; no PATH search) with `argv`,
 * stdin from /dev/null, and waits for it. With `interrupt`, the process runs in a process group of its
 * own, and when `*interrupt` becomes true (checked every 50 ms) the whole
 * group (a compiler driver and its cc1plus, as) gets SIGTERM and the result
 * says `interrupted`. Thread-safe.
 * @throws fusedga::error when the process cannot be started.
 */
process_result run_process(const std::vector<std::string>& argv, const std::atomic<bool>* interrupt = nullptr);

}  // namespace fusedga::expr::detail
