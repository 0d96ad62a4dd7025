#!/usr/bin/env bash
# Installs dependencies, configures and builds FusedGA (Release) into build/.
# Usage: bash scripts/build.sh [cmake --build targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/ccache-env.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
jobs="${FUSEDGA_JOBS:-$(nproc)}"
if [ $# -gt 0 ]; then
  for t in "$@"; do cmake --build build -j "$jobs" --target "$t"; done
else
  cmake --build build -j "$jobs"
fi
