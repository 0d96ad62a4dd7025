#!/usr/bin/env bash
# Installs FusedGA into a temporary prefix, builds examples/embedding against
# it with find_package(fusedga), runs it (it checks its own optimum).
# Usage: consumer_test.sh SOURCE_DIR BINARY_DIR
set -euo pipefail
src="$1"; bin="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$bin" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/embedding" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/embedding"
