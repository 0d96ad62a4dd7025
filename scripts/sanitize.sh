#!/usr/bin/env bash
# Builds the unit-test suites with AddressSanitizer + UndefinedBehaviorSanitizer
# (the `asan` preset) and runs them. Usage: bash scripts/sanitize.sh [ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/ccache-env.sh
# CUDA off: the unit suites below never touch it, and nvcc objects are not instrumented anyway.
cmake --preset asan -DFUSEDGA_CUDA=OFF "${launcher[@]}" >/dev/null
jobs="${FUSEDGA_JOBS:-$(nproc)}"
for t in test_core test_operators test_engine test_config test_expr parse_corpus_replay config_corpus_replay; do cmake --build build-asan -j "$jobs" --target "$t"; done
cd build-asan
ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j "$jobs" -R '^(core|operators|engine|config|expr):' "$@"
