#!/usr/bin/env bash
# The threaded tests under ThreadSanitizer (the `tsan` preset, CUDA off): the engine and island tests that run the fused
# passes on TBB at several threads (serial vs TBB bitwise determinism at 1-7 threads with staged tiles and
# rows, restarts, constraint handlers, gradient repair, plus survival and DE), built as test_engine_threads
# (header-only: no library is compiled). tests/tsan.supp holds the suppressions (oneTBB's scheduler, which is
# not instrumented). Usage: bash scripts/tsan.sh [Catch2 test spec, default "*TBB*"]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs="${FUSEDGA_JOBS:-$(nproc)}"
source scripts/ccache-env.sh
start=$SECONDS
cmake --preset tsan -DFUSEDGA_CUDA=OFF "${launcher[@]}" >/dev/null
cmake --build build-tsan -j "$jobs" --target test_engine_threads
echo "tsan: built in $((SECONDS - start)) s"
t0=$SECONDS
TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1 second_deadlock_stack=1" \
  build-tsan/tests/test_engine_threads "${1:-*TBB*}"
echo "tsan: tests ran $((SECONDS - t0)) s; done in $((SECONDS - start)) s"
