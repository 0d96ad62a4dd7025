#!/usr/bin/env bash
# Quick start 2: install, build and run the whole test suite (CTest + Catch2), then the Python package's
# tests (scripts/test-python.sh: pip install into build-python/venv, pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "${FUSEDGA_JOBS:-$(nproc)}" "$@")
bash scripts/test-python.sh
