#!/usr/bin/env bash
# Quick start 2: install, build and run the whole test suite (CTest + Catch2).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j "${FUSEDGA_JOBS:-$(nproc)}" "$@"
