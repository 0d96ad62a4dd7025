#!/usr/bin/env bash
# The threaded tests under ThreadSanitizer (the `tsan` preset, CUDA off): only the engine suite, whose TBB
# tests run the fused passes on several threads (bitwise determinism of serial vs TBB at 1-4 threads, the
# TBB backend's properties, handlers, survival, DE). tests/tsan.supp holds the suppressions (oneTBB's own
# scheduler, which is not instrumented). Usage: bash scripts/tsan.sh [extra ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs="${FUSEDGA_JOBS:-$(nproc)}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
start=$SECONDS
cmake --preset tsan -DFUSEDGA_CUDA=OFF "${launcher[@]}" >/dev/null
cmake --build build-tsan -j "$jobs" --target test_engine
echo "tsan: built in $((SECONDS - start)) s"
cd build-tsan
t0=$SECONDS
TSAN_OPTIONS="suppressions=$PWD/../tests/tsan.supp halt_on_error=1 second_deadlock_stack=1" \
  ctest --output-on-failure -j "$jobs" -R "${FUSEDGA_TSAN_TESTS:-^engine: .*([Tt][Bb][Bb]|thread|determinis)}" "$@"
echo "tsan: tests ran $((SECONDS - t0)) s; done in $((SECONDS - start)) s"
