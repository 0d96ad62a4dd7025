#!/usr/bin/env bash
# Consumer tests (fmt style): a user's project built against FusedGA three ways.
#   installed    install into a temporary prefix; examples/embedding with find_package(fusedga) (header-only
#                fusedga::fusedga), and tests/consumer/runtime with find_package(fusedga COMPONENTS runtime)
#                (fusedga::runtime: YAML configs, registry, expression problems); each runs and checks its result.
#   build-tree   examples/embedding with -Dfusedga_DIR=BINARY_DIR: the build tree's export(), nothing installed.
#   subdirectory tests/consumer/subdirectory: add_subdirectory(SOURCE_DIR) in a user's project.
# Usage: consumer_test.sh MODE SOURCE_DIR BINARY_DIR
set -euo pipefail
mode="$1"; src="$2"; bin="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
build_and_run() {  # PROJECT_DIR NAME EXECUTABLE CMAKE_ARGS...
  local dir="$1" name="$2" exe="$3"; shift 3
  cmake -S "$dir" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release "$@" >"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; exit 1; }
  cmake --build "$work/$name" >>"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
  "$work/$name/$exe"
}
case "$mode" in
  installed)
    cmake --install "$bin" --prefix "$work/prefix" >/dev/null
    build_and_run "$src/examples/embedding" embedding embedding -DCMAKE_PREFIX_PATH="$work/prefix"
    build_and_run "$src/tests/consumer/runtime" runtime runtime_consumer -DCMAKE_PREFIX_PATH="$work/prefix"
    ;;
  build-tree)
    build_and_run "$src/examples/embedding" embedding embedding -Dfusedga_DIR="$bin"
    ;;
  subdirectory)
    # No CMAKE_BUILD_TYPE here: the subproject must not force one (checked in its CMakeLists.txt).
    cmake -S "$src/tests/consumer/subdirectory" -B "$work/sub" -DFUSEDGA_SOURCE_DIR="$src" -DFUSEDGA_CUDA=OFF \
      -DCMAKE_CXX_FLAGS=-O2 >"$work/sub.log" 2>&1 || { cat "$work/sub.log"; exit 1; }
    cmake --build "$work/sub" >>"$work/sub.log" 2>&1 || { cat "$work/sub.log"; exit 1; }
    "$work/sub/embedding"
    ;;
  *) echo "usage: consumer_test.sh installed|build-tree|subdirectory SOURCE_DIR BINARY_DIR" >&2; exit 2 ;;
esac
